import { createHmac, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import { UUID_PATTERN } from '../../../contract/constants.js';
import type { NewsletterFigures } from '../../../contract/desk-api.js';

/**
 * Newsletter opens and clicks (docs/newsletter.md#opens-and-clicks). Each delivery's mail carries
 * an open pixel and its links rewritten through the site, each address holding the delivery's id
 * and an HMAC under a key derived from SESSION_SECRET: the pixel's over the id, a link's over the
 * id and the link's own URL. So the click address redirects only to a URL that was in that very
 * mail (never an open redirect), and none needs a database row to be checked. What is stored is
 * which mail was opened and which of its links were followed: no IP address, no user agent.
 */
export interface MailTracking {
  /** The open pixel's address for one delivery. */
  openUrl(deliveryId: string): string;
  /** The address a link of one delivery's mail goes through. */
  clickUrl(deliveryId: string, url: string): string;
  /** The delivery id of a pixel's token (`<id>.<mac>`), or null for one we did not make. */
  verifyOpen(token: string): string | null;
  /** The delivery id of a click's token for that URL, or null when they do not belong together. */
  verifyClick(token: string, url: string): string | null;
}

/** The path of the open pixel (`<token>.gif`) and of the click redirect (`<token>?u=<url>`). */
export const TRACKING_PATHS = {
  open: '/api/newsletter/o/',
  click: '/api/newsletter/c/',
};

/** The delivery id test copies are signed for: there is no such delivery, so nothing counts. */
export const TEST_COPY_DELIVERY = '00000000-0000-4000-8000-000000000000';

export function createMailTracking(secret: string, siteUrl: string): MailTracking {
  const key = createHmac('sha256', secret).update('cohort newsletter tracking').digest();
  const mac = (text: string) =>
    createHmac('sha256', key).update(text).digest().subarray(0, 18).toString('base64url');
  const openMac = (id: string) => mac(`open\n${id}`);
  const clickMac = (id: string, url: string) => mac(`click\n${id}\n${url}`);
  const verify = (token: string, expectedMac: (id: string) => string) => {
    const [id, signature, ...rest] = token.split('.');
    if (!id || !signature || rest.length > 0 || !UUID_PATTERN.test(id)) return null;
    const expected = Buffer.from(expectedMac(id));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
  };
  return {
    openUrl: (id) => `${siteUrl}${TRACKING_PATHS.open}${id}.${openMac(id)}.gif`,
    clickUrl: (id, url) =>
      `${siteUrl}${TRACKING_PATHS.click}${id}.${clickMac(id, url)}?u=${encodeURIComponent(url)}`,
    verifyOpen: (token) => verify(token, openMac),
    verifyClick: (token, url) => verify(token, (id) => clickMac(id, url)),
  };
}

/** The links a mail's HTML sends readers to: http(s) addresses, not mailto: and the like. */
export const isTrackableUrl = (url: string) => /^https?:\/\//i.test(url);

/** Counts a load of the delivery's pixel: the first one dates its open. */
export async function recordOpen(pool: pg.Pool, deliveryId: string): Promise<void> {
  await pool.query(
    `UPDATE newsletter_deliveries
        SET "openedAt" = coalesce("openedAt", now()), "opens" = "opens" + 1
      WHERE "id" = $1`,
    [deliveryId],
  );
}

/** Counts a click on one of the delivery's links (nothing for a test copy's). */
export async function recordClick(pool: pg.Pool, deliveryId: string, url: string): Promise<void> {
  await pool.query(
    `INSERT INTO newsletter_clicks ("deliveryId", "issueSlug", "url")
     SELECT d."id", d."issueSlug", $2 FROM newsletter_deliveries d WHERE d."id" = $1
     ON CONFLICT ("deliveryId", "url")
       DO UPDATE SET "clicks" = newsletter_clicks."clicks" + 1, "lastClickedAt" = now()`,
    [deliveryId, url],
  );
}

/** An issue's opens (subscribers whose pixel loaded) and its links' clicks, most clicked first. */
export async function issueFigures(pool: pg.Pool, slug: string): Promise<NewsletterFigures> {
  const [deliveries, clickers, links] = await Promise.all([
    pool.query<{ opens: number; delivered: number }>(
      `SELECT count(*) FILTER (WHERE "openedAt" IS NOT NULL)::int AS opens,
              count(*) FILTER (WHERE "state" = 'sent')::int AS delivered
         FROM newsletter_deliveries WHERE "issueSlug" = $1`,
      [slug],
    ),
    pool.query<{ n: number }>(
      `SELECT count(DISTINCT "deliveryId")::int AS n FROM newsletter_clicks WHERE "issueSlug" = $1`,
      [slug],
    ),
    pool.query<{ url: string; unique: number; total: number }>(
      `SELECT "url", count(*)::int AS "unique", sum("clicks")::int AS "total"
         FROM newsletter_clicks WHERE "issueSlug" = $1
        GROUP BY "url" ORDER BY 2 DESC, 3 DESC, "url" LIMIT 100`,
      [slug],
    ),
  ]);
  return {
    delivered: deliveries.rows[0]?.delivered ?? 0,
    opens: deliveries.rows[0]?.opens ?? 0,
    clickers: clickers.rows[0]?.n ?? 0,
    links: links.rows,
  };
}

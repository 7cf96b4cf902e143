import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember } from '#test/factories';
import { SmtpCapture, type CapturedMail } from '#test/smtp-capture';
import { withSite } from '#test/with-site';

// Newsletter opens and clicks through the real app, PostgreSQL, the delivery queue and an SMTP
// server run in the test: an issue sent to two subscribers, one of whom opens it and follows a
// link; a link pointed elsewhere is refused; with NEWSLETTER_TRACKING=off the mail is as written.

const OWNER = 'owner@example.com';
const SUBSCRIBERS = ['ada@example.org', 'grace@example.org'];
const LINK = 'https://example.org/read?chapter=2&page=7';

const unescape = (html: string) =>
  html.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/** The path and query of a mail's address on the site (the app is called without a host). */
const onSite = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

async function waitFor(check: () => boolean | Promise<boolean>, what: string) {
  const until = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function startSite(env: Record<string, string> = {}) {
  const mailbox = await new SmtpCapture().start();
  const t = await withSite({
    env: { STAFF_EMAILS: OWNER, SMTP_URL: mailbox.url, ...env },
  });
  const { cookie } = await buildMember(t, { role: 'owner' });
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload && { payload }) });
  const created = await call('POST', '/api/desk/posts', {
    kind: 'newsletter',
    slug: 'spring-letter',
    title: 'The Spring Letter',
    summary: 'What we read this spring.',
    body: `## Hello\n\nRead [the second chapter](${LINK}) before Friday.\n`,
  });
  expect(created.statusCode, created.body).toBe(201);
  const post = created.json().post;
  return { mailbox, t, call, statusUrl: `/api/desk/posts/${post.id}/newsletter`, post };
}

describe('newsletter opens and clicks', () => {
  let site: Awaited<ReturnType<typeof startSite>>;
  const mails = new Map<string, CapturedMail>();

  beforeAll(async () => {
    site = await startSite();
    for (const email of SUBSCRIBERS) {
      await site.t.database.pool.query(
        `INSERT INTO newsletter_subscribers (id, email, state, "confirmedAt", "updatedAt")
         VALUES ($1, $2, 'confirmed', now(), now())`,
        [randomUUID(), email],
      );
    }
    const { call, post, statusUrl, mailbox } = site;
    const publish = await call('POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version,
    });
    expect(publish.statusCode, publish.body).toBe(200);
    const send = await call('POST', `${statusUrl}/send`, { recipients: 2 });
    expect(send.statusCode, send.body).toBe(202);
    await waitFor(() => SUBSCRIBERS.every((e) => mailbox.mailsTo(e).length === 1), 'the issue');
    for (const email of SUBSCRIBERS) mails.set(email, mailbox.mailsTo(email)[0] as CapturedMail);
    await waitFor(
      async () => (await call('GET', statusUrl)).json().status.sending === false,
      'the send to end',
    );
  });
  afterAll(async () => {
    await site?.t.close();
    await site?.mailbox.stop();
  });

  const hrefsOf = (mail: CapturedMail | undefined) =>
    [...(mail?.html ?? '').matchAll(/<a href="([^"]*)"/g)].map((m) => unescape(m[1] ?? ''));
  const pixelOf = (mail: CapturedMail | undefined) =>
    unescape(/<img src="([^"]*\/api\/newsletter\/o\/[^"]*)"/.exec(mail?.html ?? '')?.[1] ?? '');
  const clickOf = (mail: CapturedMail | undefined) =>
    hrefsOf(mail).find((href) => href.includes(`u=${encodeURIComponent(LINK)}`)) ?? '';

  it('counts one open and one click when one of two subscribers opens the issue and follows a link', async () => {
    const { t, call, statusUrl } = site;
    const ada = mails.get('ada@example.org');
    // The HTML part's links go through the site, each subscriber's their own; the text's do not.
    expect(hrefsOf(ada)).not.toContain(LINK);
    expect(clickOf(ada)).toMatch(/^http:\/\/localhost:3000\/api\/newsletter\/c\//);
    expect(clickOf(ada)).not.toBe(clickOf(mails.get('grace@example.org')));
    expect(ada?.text).toContain(LINK);
    expect(hrefsOf(ada).some((href) => href.includes('/newsletter/unsubscribe#token='))).toBe(true);

    const pixel = await t.app.inject({ method: 'GET', url: onSite(pixelOf(ada)) });
    expect(pixel.statusCode).toBe(200);
    expect(pixel.headers['content-type']).toBe('image/gif');
    // A webmail's page, on another origin, may load it.
    expect(pixel.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(pixel.rawPayload.subarray(0, 6).toString()).toBe('GIF89a');
    // Opened twice (a second look, or a mail reader loading it again): still one subscriber.
    await t.app.inject({ method: 'GET', url: onSite(pixelOf(ada)) });

    const click = await t.app.inject({ method: 'GET', url: onSite(clickOf(ada)) });
    expect(click.statusCode, click.body).toBe(302);
    expect(click.headers.location).toBe(LINK);

    const status = (await call('GET', statusUrl)).json().status;
    expect(status.tracking).toBe(true);
    expect(status.figures).toEqual({
      delivered: 2,
      opens: 1,
      clickers: 1,
      links: [{ url: LINK, unique: 1, total: 1 }],
    });
    const { rows } = await t.database.pool.query(
      `SELECT d."opens", s."email" FROM newsletter_deliveries d
         JOIN newsletter_subscribers s ON s."id" = d."subscriberId" WHERE d."openedAt" IS NOT NULL`,
    );
    expect(rows).toEqual([{ opens: 2, email: 'ada@example.org' }]);
  });

  it('refuses a link pointed at another address, and counts nothing for a forged pixel', async () => {
    const { t, call, statusUrl } = site;
    const click = new URL(clickOf(mails.get('grace@example.org')));
    const token = click.pathname.split('/').pop() ?? '';

    const elsewhere = await t.app.inject({
      method: 'GET',
      url: `/api/newsletter/c/${token}?u=${encodeURIComponent('https://evil.example/login')}`,
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.headers.location).toBeUndefined();
    expect(elsewhere.json()).toMatchObject({ error: { code: 'invalid_link' } });

    const [id] = token.split('.');
    const forged = await t.app.inject({
      method: 'GET',
      url: `/api/newsletter/c/${id}.AAAAAAAAAAAAAAAAAAAAAAAA${click.search}`,
    });
    expect(forged.statusCode).toBe(400);
    const noUrl = await t.app.inject({ method: 'GET', url: `/api/newsletter/c/${token}` });
    expect(noUrl.statusCode).toBe(400);
    expect(noUrl.json()).toMatchObject({ error: { code: expect.any(String) } });

    const forgedPixel = await t.app.inject({
      method: 'GET',
      url: `/api/newsletter/o/${id}.AAAAAAAAAAAAAAAAAAAAAAAA.gif`,
    });
    expect(forgedPixel.statusCode).toBe(200);
    expect(forgedPixel.headers['content-type']).toBe('image/gif');

    const status = (await call('GET', statusUrl)).json().status;
    expect(status.figures).toMatchObject({ opens: 1, clickers: 1 });
  });

  it('stores no IP address or user agent with an open or a click', async () => {
    const columns = await site.t.database.pool.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
        WHERE table_name IN ('newsletter_clicks', 'newsletter_deliveries')`,
    );
    const names = columns.rows.map((row) => row.column_name.toLowerCase());
    expect(names).toContain('openedAt'.toLowerCase());
    expect(names.filter((name) => /ip|agent|address/.test(name))).toEqual([]);
  });
});

describe('newsletter tracking turned off (NEWSLETTER_TRACKING=off)', () => {
  let site: Awaited<ReturnType<typeof startSite>>;
  beforeAll(async () => {
    site = await startSite({ NEWSLETTER_TRACKING: 'off' });
  });
  afterAll(async () => {
    await site?.t.close();
    await site?.mailbox.stop();
  });

  it('mails the links as written and no pixel', async () => {
    const { call, statusUrl, mailbox } = site;
    const test = await call('POST', `${statusUrl}/test`, {});
    expect(test.statusCode, test.body).toBe(200);
    await waitFor(() => mailbox.mailsTo(OWNER).length === 1, 'the test copy');
    const html = mailbox.mailsTo(OWNER)[0]?.html ?? '';
    expect(unescape(html)).toContain(`<a href="${LINK}"`);
    expect(html).not.toContain('/api/newsletter/o/');
    expect(html).not.toContain('/api/newsletter/c/');
    expect(html).not.toContain('<img');
    expect((await call('GET', statusUrl)).json().status.tracking).toBe(false);
  });
});

import type pg from 'pg';
import type { Author } from '../../../contract/authors.js';
import { PROFILE_NAME_SQL } from '../content/author-profiles.js';
import { cardAddressesIn } from '../content/markdown-to-tree.js';
import type { PostRow } from '../content/post-row.js';
import { readCardReadings } from '../embeds/card-store.js';
import { ghostPostTiers, ghostTiers, type GhostTier } from '../ghost-api/ghost-tiers.js';
import { ghostPost, type GhostSite } from '../ghost-api/serializers.js';
import { lexicalOfHtml } from '../imports/ghost-html.js';
import type { TierCatalog } from '../memberships/tier-catalog.js';

/** What a post's Admin API JSON is drawn with: the site, and every tier in Ghost's shape. */
export interface AdminJsonSite extends GhostSite {
  tiers: readonly GhostTier[];
}

/**
 * Every tier as the Admin API and webhooks list them (ghost-api/ghost-tiers.ts): hidden ones too,
 * with their prices whether or not anything is sold, as the desk shows them.
 */
export const adminGhostTiers = (catalog: TierCatalog, siteUrl: string, currency: string) =>
  ghostTiers(catalog, { siteUrl, selling: true, currency });

/**
 * A post as the Admin API answers it: Ghost's post (the Content API's serialiser,
 * ghost-api/serializers.ts), whole (the text past the divider included), with its `status`, its
 * `tiers` (those its readers come from, as Ghost's Admin API always lists them) and the formats
 * asked for (`html` unless told; `plaintext`; `lexical`, one HTML card). `reader: 'public'` gives
 * a restricted post's text only up to the divider, as a visitor reads it: what webhooks carry.
 */
export async function adminPostJson(
  db: Pick<pg.Pool, 'query'>,
  site: AdminJsonSite,
  row: PostRow,
  options: { formats?: readonly string[]; reader?: 'whole' | 'public' } = {},
) {
  const formats = options.formats ?? ['html'];
  const [{ rows: authors }, { rows: created }, cards] = await Promise.all([
    db.query<Author>(
      `SELECT p."slug", ${PROFILE_NAME_SQL} AS "name", p."bio", p."picture", p."links"
         FROM "post_authors" a
         JOIN "author_profiles" p ON p."id" = a."authorId"
         LEFT JOIN "users" u ON u."id" = p."userId"
        WHERE a."postId" = $1 ORDER BY a."position"`,
      [row.id],
    ),
    db.query<{ createdAt: Date }>(`SELECT "createdAt" FROM "posts" WHERE "id" = $1`, [row.id]),
    readCardReadings(db, cardAddressesIn(row.body)),
  ]);
  const createdAt = created[0]?.createdAt;
  const post = ghostPost(
    site,
    { row, authors, cards, ...(createdAt && { createdAt }) },
    options.reader ?? 'whole',
  );
  const { html, plaintext, ...rest } = post;
  return {
    ...rest,
    status: row.status,
    tiers: ghostPostTiers({ visibility: row.visibility, tiers: row.tiers }, site.tiers),
    ...(formats.includes('html') && { html }),
    ...(formats.includes('plaintext') && { plaintext }),
    ...(formats.includes('lexical') && { lexical: lexicalOfHtml(html) }),
  };
}

/**
 * A post as a webhook carries it (`post.published`…): the Admin API's JSON, its visibility and
 * tiers, and of a restricted post's text only what comes before the divider. A webhook's receiver
 * is no reader of the site: it gets what a visitor reads.
 */
export const webhookPostJson = (db: Pick<pg.Pool, 'query'>, site: AdminJsonSite, row: PostRow) =>
  adminPostJson(db, site, row, { reader: 'public' });

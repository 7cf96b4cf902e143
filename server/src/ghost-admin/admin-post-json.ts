import type pg from 'pg';
import type { Author } from '../../../contract/authors.js';
import { PROFILE_NAME_SQL } from '../content/author-profiles.js';
import { cardAddressesIn } from '../content/markdown-to-tree.js';
import type { PostRow } from '../content/post-row.js';
import { readCardReadings } from '../embeds/card-store.js';
import { ghostPost, type GhostSite } from '../ghost-api/serializers.js';
import { lexicalOfHtml } from '../imports/ghost-html.js';

/**
 * A post as the Admin API answers it and webhooks carry it: Ghost's post (the Content API's
 * serialiser, ghost-api/serializers.ts), whole (members-only text included), with its `status`
 * and the formats asked for (`html` unless told; `plaintext`; `lexical`, one HTML card).
 */
export async function adminPostJson(
  db: Pick<pg.Pool, 'query'>,
  site: GhostSite,
  row: PostRow,
  formats: readonly string[] = ['html'],
) {
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
  const post = ghostPost(site, { row, authors, cards, ...(createdAt && { createdAt }) }, 'whole');
  const { html, plaintext, ...rest } = post;
  return {
    ...rest,
    status: row.status,
    ...(formats.includes('html') && { html }),
    ...(formats.includes('plaintext') && { plaintext }),
    ...(formats.includes('lexical') && { lexical: lexicalOfHtml(html) }),
  };
}

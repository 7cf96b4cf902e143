import type pg from 'pg';
import type { Author } from '../../../contract/authors.js';
import { ensureAuthorProfile, PROFILE_NAME_SQL } from './author-profiles.js';
import type { Tx } from '../db/transaction.js';
import { invalidPost } from './post-validation.js';

/**
 * Who wrote a post: `post_authors`, in byline order. A post's JSON names them by their
 * profiles' slugs (`authors`); a new post without any is its writer's.
 */

/**
 * A request body without its `authors`, and the authors it names: at least one, except that a
 * post credited to nobody (a shipped one) sent back as it is, an empty list, changes nothing.
 * `current`: the post's authors now (null: a new post).
 */
export function takeAuthors(
  body: Record<string, unknown>,
  current: readonly string[] | null = null,
): {
  authors: string[] | undefined;
  rest: Record<string, unknown>;
} {
  const { authors, ...rest } = body;
  if (authors === undefined) return { authors: undefined, rest };
  // The route checked the list's shape (contract/post-fields.ts).
  const slugs = authors as string[];
  if (slugs.length === 0) {
    if (current?.length === 0) return { authors: undefined, rest };
    throw invalidPost([{ field: 'authors', message: 'must name at least one author' }]);
  }
  return { authors: slugs, rest };
}

/**
 * Makes `slugs` the post's authors, in that order; each must be an author's (400 otherwise).
 * `null`: the writer alone (their profile made if they have none).
 */
export async function saveAuthors(
  tx: Tx,
  postId: number,
  slugs: readonly string[] | null,
  writerId: string,
): Promise<string[]> {
  let wanted = slugs;
  if (wanted === null) {
    const own = await ensureAuthorProfile(tx, writerId);
    wanted = own === null ? [] : [own];
  }
  return setPostAuthors(tx, postId, wanted);
}

/** Makes `slugs` the post's authors, in that order; each must be a profile's (400 otherwise). */
export async function setPostAuthors(
  tx: Tx,
  postId: number,
  wanted: readonly string[],
): Promise<string[]> {
  const { rows } = await tx.query<{ id: string; slug: string }>(
    `SELECT "id", "slug" FROM "author_profiles" WHERE "slug" = ANY($1)`,
    [wanted],
  );
  const bySlug = new Map(rows.map((row) => [row.slug, row.id]));
  const unknown = wanted.filter((slug) => !bySlug.has(slug));
  if (unknown.length > 0) {
    throw invalidPost([
      {
        field: 'authors',
        message: `no author has the slug ${unknown.map((s) => `"${s}"`).join(', ')}`,
      },
    ]);
  }
  await tx.query(`DELETE FROM "post_authors" WHERE "postId" = $1`, [postId]);
  await tx.query(
    `INSERT INTO "post_authors" ("postId", "authorId", "userId", "position")
      SELECT $1, p."id", p."userId", a."position" - 1
        FROM unnest($2::uuid[]) WITH ORDINALITY AS a("authorId", "position")
        JOIN "author_profiles" p ON p."id" = a."authorId"`,
    [postId, wanted.map((slug) => bySlug.get(slug) as string)],
  );
  return [...wanted];
}

/** Those of `slugs` that are an author's profile's, in their order. */
export async function existingAuthors(tx: Tx, slugs: readonly string[]): Promise<string[]> {
  const { rows } = await tx.query<{ slug: string }>(
    `SELECT "slug" FROM "author_profiles" WHERE "slug" = ANY($1)`,
    [slugs],
  );
  const known = new Set(rows.map((row) => row.slug));
  return slugs.filter((slug) => known.has(slug));
}

/**
 * The authors of every post that has some, by post id, in byline order, each with the profile
 * their page shows: what the site's bylines and authors' pages are made of.
 */
export async function readPostCredits(db: Pick<pg.Pool, 'query'>): Promise<Map<number, Author[]>> {
  const { rows } = await db.query<Author & { postId: number }>(
    `SELECT a."postId", p."slug", ${PROFILE_NAME_SQL} AS "name", p."bio", p."picture", p."links"
      FROM "post_authors" a
        JOIN "author_profiles" p ON p."id" = a."authorId"
        LEFT JOIN "users" u ON u."id" = p."userId"
      ORDER BY a."postId", a."position"`,
  );
  const credits = new Map<number, Author[]>();
  for (const { postId, ...author } of rows) {
    const list = credits.get(postId) ?? [];
    list.push(author);
    credits.set(postId, list);
  }
  return credits;
}

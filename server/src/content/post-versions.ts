import type pg from 'pg';
import { POST_VISIBILITIES, type PostJson, type PostVisibility } from '../../../contract/posts.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { POST_COLUMNS, postJson, postNotFound, readPostRow, type PostRow } from './post-row.js';
import { invalidPost } from './post-validation.js';

/**
 * A post's versions: every change names the version the writer saw (a stale one is refused with
 * the post as it is now), and keeps the version it replaces as a revision.
 */

export interface RevisionJson {
  version: number;
  savedAt: string;
  savedByEmail: string | null;
  title: string;
  status: string;
}

/**
 * Runs `change` in a transaction of its own on the post locked at `version` (lockAtVersion): a
 * change to the post the writer last read.
 */
export function changeAtVersion<T>(
  pool: pg.Pool,
  id: number,
  version: unknown,
  change: (tx: Tx, row: PostRow) => Promise<T>,
): Promise<T> {
  return withTransaction(pool, async (tx) => change(tx, await lockAtVersion(tx, id, version)));
}

/** The current post, locked for this transaction, or a 409 with it when `version` is stale. */
export async function lockAtVersion(tx: Tx, id: number, version: unknown): Promise<PostRow> {
  if (typeof version !== 'number' || !Number.isInteger(version)) {
    throw invalidPost([{ field: 'version', message: 'is required: the version you last read' }]);
  }
  const row = await readPostRow(tx, id, true);
  if (!row) throw postNotFound(id);
  if (row.version !== version) throw editConflict(postJson(row));
  return row;
}

/**
 * A save naming a version that is not the post's any more: a 409 with the post as it is now
 * beside the error, for the editor to compare with what it holds.
 */
const editConflict = (post: PostJson) =>
  new DomainError(
    409,
    'edit_conflict',
    `Someone saved this post since you read it (it is at version ${post.version} now): ` +
      'compare the two, then save again naming that version.',
    { post },
  );

/**
 * Keeps the post as it is now as a revision, before a save changes it: its row, and its authors'
 * slugs in byline order (`authors`), which a restore brings back.
 */
export async function keepRevision(tx: Tx, postId: number) {
  await tx.query(
    `INSERT INTO "post_revisions" ("postId", "version", "snapshot", "savedBy", "savedByEmail", "savedAt")
      SELECT "id", "version",
        to_jsonb(p) - 'createdBy' - 'updatedBy' || jsonb_build_object('authors', to_jsonb(ARRAY(
          SELECT ap."slug" FROM "post_authors" pa JOIN "author_profiles" ap ON ap."id" = pa."authorId"
            WHERE pa."postId" = p."id" ORDER BY pa."position"))),
        "updatedBy",
        (SELECT "email" FROM "users" WHERE "id" = p."updatedBy"), "updatedAt"
        FROM "posts" p WHERE "id" = $1
      ON CONFLICT ("postId", "version") DO NOTHING`,
    [postId],
  );
}

/** The saves before the current version, newest first. */
export async function listRevisions(pool: pg.Pool, id: number): Promise<RevisionJson[]> {
  if (!(await readPostRow(pool, id))) throw postNotFound(id);
  const { rows } = await pool.query<{
    version: number;
    savedAt: Date;
    savedByEmail: string | null;
    title: string;
    status: string;
  }>(
    `SELECT "version", "savedAt", "savedByEmail", "snapshot"->>'title' AS title,
        "snapshot"->>'status' AS status
      FROM "post_revisions" WHERE "postId" = $1 ORDER BY "version" DESC`,
    [id],
  );
  return rows.map((row) => ({ ...row, savedAt: row.savedAt.toISOString() }));
}

/** One earlier version whole, for the desk's comparison with the post as it is now. */
export interface RevisionDetailJson {
  version: number;
  savedAt: string;
  /** The address of the staff member who saved it, when known. */
  savedBy: string | null;
  status: string;
  post: PostJson;
}

/**
 * The post as it was at `version`: its snapshot read back as a row of `posts` (a column added
 * since reads as null), then as the post's JSON.
 */
export async function readRevision(
  pool: pg.Pool,
  id: number,
  version: number,
): Promise<RevisionDetailJson> {
  if (!(await readPostRow(pool, id))) throw postNotFound(id);
  const { rows } = await pool.query<
    PostRow & { savedAt: Date; savedByEmail: string | null; savedAuthors: unknown }
  >(
    `SELECT ${POST_COLUMNS}, "savedAt", "savedByEmail", "savedAuthors"
      FROM (SELECT p.*, r."savedAt", r."savedByEmail", r."snapshot"->'authors' AS "savedAuthors"
        FROM "post_revisions" r CROSS JOIN LATERAL jsonb_populate_record(NULL::"posts", r."snapshot") p
        WHERE r."postId" = $1 AND r."version" = $2) AS revision`,
    [id, version],
  );
  const row = rows[0];
  if (!row) {
    throw new DomainError(404, 'revision_not_found', `Post ${id} has no revision ${version}.`);
  }
  // Its authors then (a revision kept before authors were kept in it: as they are now).
  const savedAuthors = revisionAuthors({ authors: row.savedAuthors });
  if (savedAuthors) row.authors = savedAuthors;
  return {
    version,
    savedAt: row.savedAt.toISOString(),
    savedBy: row.savedByEmail,
    status: row.status,
    post: postJson(row),
  };
}

/** The authors' slugs a revision's snapshot kept, or null for one kept before they were. */
export function revisionAuthors(snapshot: Record<string, unknown>): string[] | null {
  const { authors } = snapshot;
  return Array.isArray(authors) && authors.every((slug) => typeof slug === 'string')
    ? (authors as string[])
    : null;
}

/**
 * Who a revision's snapshot let read the post: its visibility and, for `tiers`, those of its tiers
 * the site still has (held until the restore's transaction ends). A revision for tiers that are
 * all gone is for every paying member, failing closed (docs/decisions/0030-tiers-and-readers.md).
 */
export async function revisionReaders(
  tx: Tx,
  snapshot: Record<string, unknown>,
): Promise<{ visibility: PostVisibility; tierIds: number[] }> {
  const said = POST_VISIBILITIES.find((visibility) => visibility === snapshot.visibility);
  if (said !== 'tiers') return { visibility: said ?? 'public', tierIds: [] };
  const ids = Array.isArray(snapshot.tierIds)
    ? snapshot.tierIds.filter((id): id is number => Number.isInteger(id))
    : [];
  const { rows } = await tx.query<{ id: number }>(
    `SELECT "id" FROM "tiers" WHERE "id" = ANY($1::int[]) ORDER BY "position", "id" FOR KEY SHARE`,
    [ids],
  );
  return rows.length > 0
    ? { visibility: 'tiers', tierIds: rows.map((row) => row.id) }
    : { visibility: 'members', tierIds: [] };
}

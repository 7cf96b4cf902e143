import type pg from 'pg';
import type { PostListStatus } from '../../../contract/post-bulk.js';
import type { PostJson, PostKind } from '../../../contract/posts.js';
import { pageCursor } from '../db/page-cursor.js';
import { DomainError } from '../domain-error.js';
import { findNulCharacter, NUL_MESSAGE } from './find-nul.js';
import { POST_COLUMNS, postJson, postNotFound, readPostRow, type PostRow } from './post-row.js';

/** Which posts the desk's list shows (contract/post-bulk-api.ts's filter fields). */
export interface PostSelection {
  kind?: PostKind;
  /** `deleted`: the Trash; left out, every post not in it. */
  status?: PostListStatus;
  /** Words in the title, the slug or the body. */
  text?: string;
}

export interface PostFilter extends PostSelection {
  limit: number;
  /** Where the page starts: the `nextCursor` of the page before it. */
  cursor?: string;
}

/** One page of the desk's list, and where the next one starts (null: this is the last). */
export interface PostPage {
  posts: PostJson[];
  nextCursor: string | null;
  /** How many posts the filter finds in all (what "select all matching" would take). */
  total: number;
}

/** Where a page starts: after this post in the list's order (newest change first, then id). */
const POSTS_CURSOR = pageCursor('cursor', 'date', 'integer');

/**
 * The list's filter as SQL: its condition (over `$1`…`$4`) and those values. A word with NUL in it
 * is a 400: PostgreSQL cannot compare it.
 */
function filterClause(filter: PostSelection): { where: string; values: unknown[] } {
  const words = filter.text?.trim() ?? '';
  if (findNulCharacter(words) !== null) {
    throw new DomainError(400, 'invalid_request', `q: ${NUL_MESSAGE}`);
  }
  const trash = filter.status === 'deleted';
  return {
    where: `${trash ? '"deletedAt" IS NOT NULL' : '"deletedAt" IS NULL'}
        AND ($1::text IS NULL OR "kind" = $1)
        AND ($2::text IS NULL OR "status" = $2)
        AND ($3 = '' OR "title" ILIKE $4 OR "slug" ILIKE $4 OR "body" ILIKE $4)`,
    values: [
      filter.kind ?? null,
      trash ? null : (filter.status ?? null),
      words,
      `%${escapeLike(words)}%`,
    ],
  };
}

/**
 * One page of the posts the filter finds, newest change first, as the desk lists them (those in
 * the Trash with when each was deleted). The cursor is the last post shown (its change's time and
 * id): a post written meanwhile goes to the top, so the next page neither repeats nor skips one.
 */
export async function listPosts(pool: pg.Pool, filter: PostFilter): Promise<PostPage> {
  const { where, values } = filterClause(filter);
  const [afterTime, afterId] =
    filter.cursor === undefined ? [null, null] : POSTS_CURSOR.decode(filter.cursor);
  const [{ rows }, counted] = await Promise.all([
    pool.query<PostRow & { deletedAt: Date | null }>(
      `SELECT ${POST_COLUMNS}, "deletedAt" FROM "posts"
        WHERE ${where}
          AND ($6::timestamptz IS NULL OR ("updatedAt", "id") < ($6::timestamptz, $7::int))
        ORDER BY "updatedAt" DESC, "id" DESC
        LIMIT $5`,
      [...values, filter.limit + 1, afterTime, afterId],
    ),
    pool.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM "posts" WHERE ${where}`,
      values,
    ),
  ]);
  const page = rows.slice(0, filter.limit);
  const last = page.at(-1);
  return {
    posts: page.map(({ deletedAt, ...row }) => ({
      ...postJson(row),
      ...(deletedAt && { deletedAt: deletedAt.toISOString() }),
    })),
    nextCursor:
      rows.length > filter.limit && last ? POSTS_CURSOR.encode([last.updatedAt, last.id]) : null,
    total: counted.rows[0]?.total ?? 0,
  };
}

/**
 * The ids of every post the filter finds (a bulk action's selection), in the list's order, at
 * most `max`; `more` says whether the filter finds more than that.
 */
export async function findPostIds(
  pool: Pick<pg.Pool, 'query'>,
  filter: PostSelection,
  max: number,
): Promise<{ ids: number[]; more: boolean }> {
  const { where, values } = filterClause(filter);
  const { rows } = await pool.query<{ id: number }>(
    `SELECT "id" FROM "posts" WHERE ${where} ORDER BY "updatedAt" DESC, "id" DESC LIMIT $5`,
    [...values, max + 1],
  );
  return { ids: rows.slice(0, max).map((row) => row.id), more: rows.length > max };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function getPost(pool: Pick<pg.Pool, 'query'>, id: number): Promise<PostJson> {
  const row = await readPostRow(pool, id);
  if (!row) throw postNotFound(id);
  return postJson(row);
}

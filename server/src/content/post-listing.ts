import type pg from 'pg';
import type { PostJson, PostKind, PostStatus } from '../../../contract/posts.js';
import { pageCursor } from '../db/page-cursor.js';
import { DomainError } from '../domain-error.js';
import { findNulCharacter, NUL_MESSAGE } from './find-nul.js';
import { POST_COLUMNS, postJson, postNotFound, readPostRow, type PostRow } from './post-row.js';

export interface PostFilter {
  kind?: PostKind;
  status?: PostStatus;
  /** Words in the title, the slug or the body. */
  text?: string;
  limit: number;
  /** Where the page starts: the `nextCursor` of the page before it. */
  cursor?: string;
}

/** One page of the desk's list, and where the next one starts (null: this is the last). */
export interface PostPage {
  posts: PostJson[];
  nextCursor: string | null;
}

/** Where a page starts: after this post in the list's order (newest change first, then id). */
const POSTS_CURSOR = pageCursor('cursor', 'date', 'integer');

/**
 * One page of the posts not deleted, newest change first, as the desk lists them. The cursor is
 * the last post shown (its change's time and id): a post written meanwhile goes to the top, so
 * the next page neither repeats nor skips one.
 */
export async function listPosts(pool: pg.Pool, filter: PostFilter): Promise<PostPage> {
  const words = filter.text?.trim() ?? '';
  if (findNulCharacter(words) !== null) {
    throw new DomainError(400, 'invalid_request', `q: ${NUL_MESSAGE}`);
  }
  const [afterTime, afterId] =
    filter.cursor === undefined ? [null, null] : POSTS_CURSOR.decode(filter.cursor);
  const { rows } = await pool.query<PostRow>(
    `SELECT ${POST_COLUMNS} FROM "posts"
      WHERE "deletedAt" IS NULL
        AND ($1::text IS NULL OR "kind" = $1)
        AND ($2::text IS NULL OR "status" = $2)
        AND ($3 = '' OR "title" ILIKE $4 OR "slug" ILIKE $4 OR "body" ILIKE $4)
        AND ($6::timestamptz IS NULL OR ("updatedAt", "id") < ($6::timestamptz, $7::int))
      ORDER BY "updatedAt" DESC, "id" DESC
      LIMIT $5`,
    [
      filter.kind ?? null,
      filter.status ?? null,
      words,
      `%${escapeLike(words)}%`,
      filter.limit + 1,
      afterTime,
      afterId,
    ],
  );
  const page = rows.slice(0, filter.limit);
  const last = page.at(-1);
  return {
    posts: page.map(postJson),
    nextCursor:
      rows.length > filter.limit && last ? POSTS_CURSOR.encode([last.updatedAt, last.id]) : null,
  };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function getPost(pool: Pick<pg.Pool, 'query'>, id: number): Promise<PostJson> {
  const row = await readPostRow(pool, id);
  if (!row) throw postNotFound(id);
  return postJson(row);
}

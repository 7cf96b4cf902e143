import type pg from 'pg';
import type { PostJson, PostKind, PostStatus } from '../../../contract/posts.js';
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
interface Cursor {
  updatedAt: Date;
  id: number;
}

const encodeCursor = ({ updatedAt, id }: Cursor): string =>
  Buffer.from(JSON.stringify([updatedAt.toISOString(), id])).toString('base64url');

function decodeCursor(text: string): Cursor {
  const invalid = () =>
    new DomainError(
      400,
      'invalid_cursor',
      'cursor: that page link is not valid: start from the first page.',
    );
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(value) || value.length !== 2) throw invalid();
  const [at, id] = value as unknown[];
  const updatedAt = typeof at === 'string' ? new Date(at) : new Date(Number.NaN);
  if (Number.isNaN(updatedAt.getTime()) || !Number.isSafeInteger(id) || Number(id) < 1) {
    throw invalid();
  }
  return { updatedAt, id: Number(id) };
}

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
  const after = filter.cursor === undefined ? null : decodeCursor(filter.cursor);
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
      after?.updatedAt ?? null,
      after?.id ?? null,
    ],
  );
  const page = rows.slice(0, filter.limit);
  const last = page.at(-1);
  return {
    posts: page.map(postJson),
    nextCursor: rows.length > filter.limit && last ? encodeCursor(last) : null,
  };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function getPost(pool: Pick<pg.Pool, 'query'>, id: number): Promise<PostJson> {
  const row = await readPostRow(pool, id);
  if (!row) throw postNotFound(id);
  return postJson(row);
}

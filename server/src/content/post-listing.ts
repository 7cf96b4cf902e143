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
}

/** Every post not deleted, newest change first, as the desk lists them. */
export async function listPosts(pool: pg.Pool, filter: PostFilter): Promise<PostJson[]> {
  const words = filter.text?.trim() ?? '';
  if (findNulCharacter(words) !== null) {
    throw new DomainError(400, 'invalid_request', `q: ${NUL_MESSAGE}`);
  }
  const { rows } = await pool.query<PostRow>(
    `SELECT ${POST_COLUMNS} FROM "posts"
      WHERE "deletedAt" IS NULL
        AND ($1::text IS NULL OR "kind" = $1)
        AND ($2::text IS NULL OR "status" = $2)
        AND ($3 = '' OR "title" ILIKE $4 OR "slug" ILIKE $4 OR "body" ILIKE $4)
      ORDER BY "updatedAt" DESC, "id" DESC
      LIMIT $5`,
    [filter.kind ?? null, filter.status ?? null, words, `%${escapeLike(words)}%`, filter.limit],
  );
  return rows.map(postJson);
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function getPost(pool: Pick<pg.Pool, 'query'>, id: number): Promise<PostJson> {
  const row = await readPostRow(pool, id);
  if (!row) throw postNotFound(id);
  return postJson(row);
}

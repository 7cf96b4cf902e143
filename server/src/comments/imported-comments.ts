import { randomUUID } from 'node:crypto';
import { COMMENT_MAX_LENGTH, COMMENTER_NAME_MAX } from '../../../contract/comments.js';
import { cleanLine } from '../../../contract/text-hygiene.js';
import type { Tx } from '../db/transaction.js';
import { commentsChanged } from './comment-store.js';
import { renderImportedCommentHtml } from './render-comment.js';

/** Comments an import brings (docs/migrating.md): a WordPress guest's, with its date and thread. */

export interface ImportedComment {
  postId: number;
  /** Where it comes from, unique across imports (`wordpress:<site>:<comment id>`). */
  sourceId: string;
  /** The source id of the comment it answers, imported before it; null for a top comment. */
  parentSourceId: string | null;
  guestName: string;
  /** Markdown (the importer converts the source's HTML). */
  body: string;
  createdAt: Date;
}

/**
 * Stores a comment an import brought (a WordPress guest's), with its date and thread, visible; one
 * nested too deep to draw is stored with its text shown as it is (renderImportedCommentHtml).
 * Idempotent by `sourceId`: importing the same file again stores nothing more and answers the
 * comment stored the first time. A parent not imported (yet) makes it a top comment.
 */
export async function storeImportedComment(
  tx: Tx,
  comment: ImportedComment,
): Promise<{ id: string; created: boolean }> {
  const { rows: existing } = await tx.query<{ id: string }>(
    `SELECT "id" FROM "comments" WHERE "importSource" = $1`,
    [comment.sourceId],
  );
  if (existing[0]) return { id: existing[0].id, created: false };
  let threadId: string | null = null;
  if (comment.parentSourceId) {
    const { rows } = await tx.query<{ id: string; parentId: string | null }>(
      `SELECT "id", "parentId" FROM "comments" WHERE "importSource" = $1 AND "postId" = $2`,
      [comment.parentSourceId, comment.postId],
    );
    threadId = rows[0] ? (rows[0].parentId ?? rows[0].id) : null;
  }
  const body = comment.body.trim().slice(0, COMMENT_MAX_LENGTH * 4);
  // The site's one rule for names (contract/text-hygiene.ts), cut to a commenter name's length.
  const name = [...cleanLine(comment.guestName)].slice(0, COMMENTER_NAME_MAX).join('').trim();
  const id = randomUUID();
  const { rowCount } = await tx.query(
    `INSERT INTO "comments" ("id", "postId", "parentId", "guestName", "body", "html", "createdAt", "importSource")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT ("importSource") DO NOTHING`,
    [
      id,
      comment.postId,
      threadId,
      name || 'A guest',
      body,
      renderImportedCommentHtml(body),
      comment.createdAt,
      comment.sourceId,
    ],
  );
  if (!rowCount) {
    const { rows } = await tx.query<{ id: string }>(
      `SELECT "id" FROM "comments" WHERE "importSource" = $1`,
      [comment.sourceId],
    );
    return { id: rows[0]?.id ?? id, created: false };
  }
  await commentsChanged(tx, comment.postId);
  return { id, created: true };
}

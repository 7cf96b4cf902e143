import { randomUUID } from 'node:crypto';
import type { Tx } from '../db/transaction.js';

export type CommentMailKind = 'reply' | 'staff';

/**
 * Writes the mails a visible comment owes, as `comment_mails` rows in the comment's own
 * transaction: one to the author of the comment it answers (an account, not the commenter, who has
 * not stopped reply mails), one to each staff member who chose every comment. One row per comment
 * and recipient (a unique key): written twice, still one. Answers the new rows' ids, which the job
 * queue (comment-mail.ts) is given once the transaction has committed.
 */
export async function queueCommentMails(
  tx: Tx,
  comment: {
    commentId: string;
    /** The comment it answers (a reply's parent as the reader chose it), or null. */
    answeredId: string | null;
    authorId: string | null;
    /** Owners' and editors' addresses: only they get the mail of every comment. */
    staffEmails: readonly string[];
  },
): Promise<string[]> {
  const recipients: { userId: string; kind: CommentMailKind }[] = [];
  if (comment.answeredId) {
    const { rows } = await tx.query<{ userId: string }>(
      `SELECT c."userId" FROM "comments" c
         JOIN "users" u ON u."id" = c."userId"
         LEFT JOIN "comment_mail_choices" m ON m."userId" = c."userId"
        WHERE c."id" = $1 AND c."userId" IS DISTINCT FROM $2 AND u."email" IS NOT NULL
          AND COALESCE(m."replyMails", true)`,
      [comment.answeredId, comment.authorId],
    );
    if (rows[0]) recipients.push({ userId: rows[0].userId, kind: 'reply' });
  }
  if (comment.staffEmails.length > 0) {
    const { rows } = await tx.query<{ userId: string }>(
      `SELECT m."userId" FROM "comment_mail_choices" m JOIN "users" u ON u."id" = m."userId"
        WHERE m."everyComment" AND u."email" = ANY($1) AND u."id" IS DISTINCT FROM $2`,
      [comment.staffEmails, comment.authorId],
    );
    for (const row of rows) recipients.push({ userId: row.userId, kind: 'staff' });
  }
  const ids: string[] = [];
  for (const recipient of recipients) {
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO "comment_mails" ("id", "commentId", "userId", "kind") VALUES ($1, $2, $3, $4)
       ON CONFLICT ("commentId", "userId") DO NOTHING RETURNING "id"`,
      [randomUUID(), comment.commentId, recipient.userId, recipient.kind],
    );
    if (rows[0]) ids.push(rows[0].id);
  }
  return ids;
}

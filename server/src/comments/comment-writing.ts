import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import {
  COMMENT_MAX_LENGTH,
  COMMENTER_NAME_MAX,
  type Comment,
  type CommentLikes,
} from '../../../contract/comments.js';
import { cleanLine } from '../../../contract/text-hygiene.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { queueCommentMails } from './comment-mail-rows.js';
import { checkPace, countRefusedComment } from './comment-pace.js';
import { commentNotFound, commentsChanged, readComment, SEEN_BY_VIEWER } from './comment-store.js';
import {
  readablePost,
  requireCommenter,
  type CommentReader,
  type CommentRules,
} from './comments.js';
import { hasLink, renderCommentHtml } from './render-comment.js';

/**
 * What a reader does to comments (docs/comments.md#writing): posts, replies, edits and deletes
 * their own, likes, reports, and names themselves. Each action but deleting one's own asks the one
 * rule of who may (requireCommenter in comments.ts) first.
 */

/** The body as stored: trimmed, within the limit, or a 400 saying what is wrong. */
function checkedBody(body: string): string {
  const text = body.trim();
  if (text === '') throw new DomainError(400, 'comment_empty', 'Write something first.');
  if ([...text].length > COMMENT_MAX_LENGTH) {
    throw new DomainError(
      400,
      'comment_too_long',
      `A comment can be ${COMMENT_MAX_LENGTH.toLocaleString('en')} characters at most.`,
    );
  }
  return text;
}

/** The comment's HTML, or the 400 saying why it cannot be drawn (nested too deep). */
function rendered(body: string): { html: string } | { refusal: DomainError } {
  try {
    return { html: renderCommentHtml(body) };
  } catch (error) {
    if (error instanceof DomainError) return { refusal: error };
    throw error;
  }
}

export interface NewComment {
  postId: number;
  body: string;
  parentId?: string | undefined;
}

/**
 * Posts `reader`'s comment, or says why not. In one transaction under the account's lock: no name
 * yet, too fast, the same text as their last comment, a parent from elsewhere are refused; then it
 * is drawn, only now, so that drawing is paid for by the pace, and a comment nested too deep is
 * refused and counted against it. The mails it owes are written as rows with it (sent by the job
 * queue once it has committed: answered as `mailIds`).
 */
export async function postComment(
  pool: pg.Pool,
  rules: CommentRules,
  reader: CommentReader,
  input: NewComment,
  now = new Date(),
): Promise<{ comment: Comment; mailIds: string[] }> {
  const userId = await requireCommenter(pool, rules, reader, 'write');
  const body = checkedBody(input.body);
  const post = await readablePost(pool, input.postId, reader);
  const id = randomUUID();
  const outcome = await withTransaction(pool, async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('comments:' || $1))`, [userId]);
    const { rows: accounts } = await tx.query<{
      name: string | null;
      earlier: boolean;
      last: string | null;
    }>(
      `SELECT u."name",
              EXISTS (SELECT 1 FROM "comments" c WHERE c."userId" = u."id" AND c."status" = 'visible') AS earlier,
              (SELECT c."body" FROM "comments" c WHERE c."userId" = u."id"
                ORDER BY c."createdAt" DESC LIMIT 1) AS last
         FROM "users" u WHERE u."id" = $1`,
      [userId],
    );
    const account = accounts[0];
    if (!account) throw new DomainError(401, 'unauthenticated', 'Sign in to comment.');
    if (!account.name?.trim()) {
      throw new DomainError(
        409,
        'name_required',
        'Choose the name your comments are shown with first.',
      );
    }
    await checkPace(tx, userId, now);
    if (account.last === body) {
      throw new DomainError(
        400,
        'duplicate_comment',
        'You have just posted this same comment: it is already there.',
      );
    }
    const thread = input.parentId ? await threadOf(tx, input.parentId, post.id, userId) : null;
    const drawn = rendered(body);
    if ('refusal' in drawn) {
      await countRefusedComment(tx, userId, now);
      return { refusal: drawn.refusal };
    }
    const held = rules.holdFirstLink && !reader.isStaff && !account.earlier && hasLink(body);
    await tx.query(
      `INSERT INTO "comments" ("id", "postId", "parentId", "userId", "body", "html", "status", "createdAt")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        id,
        post.id,
        thread?.id ?? null,
        userId,
        body,
        drawn.html,
        held ? 'pending' : 'visible',
        now,
      ],
    );
    await commentsChanged(tx, post.id);
    if (held) return { mailIds: [] };
    return {
      mailIds: await queueCommentMails(tx, {
        commentId: id,
        answeredId: thread?.answeredId ?? null,
        authorId: userId,
        staffEmails: rules.staffEmails,
      }),
    };
  });
  // Thrown once the transaction has committed: the refused comment stays counted.
  if ('refusal' in outcome) throw outcome.refusal;
  return { comment: await readComment(pool, id, userId), mailIds: outcome.mailIds };
}

/**
 * The thread a reply joins and the comment it answers. Replies nest one level: a reply to a reply
 * joins its thread. A parent the author cannot see under this post is a 400.
 */
async function threadOf(tx: Tx, parentId: string, postId: number, userId: string) {
  const { rows } = await tx.query<{ id: string; parentId: string | null }>(
    `SELECT c."id", c."parentId" FROM "comments" c
      WHERE c."id" = $1 AND c."postId" = $2 AND ${SEEN_BY_VIEWER('$3')}`,
    [parentId, postId, userId],
  );
  const parent = rows[0];
  if (!parent) {
    throw new DomainError(
      400,
      'invalid_parent',
      'The comment you are answering is not under this post (it may have been removed).',
    );
  }
  return { id: parent.parentId ?? parent.id, answeredId: parent.id };
}

/** The reader's own comment, not deleted, or a 404 (another's is as good as not there). */
async function ownComment(tx: Tx, commentId: string, userId: string) {
  const { rows } = await tx.query<{ postId: number; parentId: string | null }>(
    `SELECT "postId", "parentId" FROM "comments"
      WHERE "id" = $1 AND "userId" = $2 AND "deletedAt" IS NULL FOR UPDATE`,
    [commentId, userId],
  );
  const row = rows[0];
  if (!row) throw commentNotFound();
  return row;
}

/** The author edits their comment: new text, marked edited. */
export async function editComment(
  pool: pg.Pool,
  rules: CommentRules,
  reader: CommentReader,
  commentId: string,
  newBody: string,
): Promise<Comment> {
  const userId = await requireCommenter(pool, rules, reader, 'edit');
  const body = checkedBody(newBody);
  await withTransaction(pool, async (tx) => {
    const { postId } = await ownComment(tx, commentId, userId);
    await tx.query(
      `UPDATE "comments" SET "body" = $2, "html" = $3, "editedAt" = now() WHERE "id" = $1`,
      [commentId, body, renderCommentHtml(body)],
    );
    await commentsChanged(tx, postId);
  });
  return readComment(pool, commentId, userId);
}

/**
 * The author deletes their comment: gone, unless replies hang under it, when it stays as a
 * placeholder without its text or name. Blocked or not: taking one's words down is always theirs.
 */
export async function deleteComment(
  pool: pg.Pool,
  reader: CommentReader,
  commentId: string,
): Promise<void> {
  if (!reader.userId) throw new DomainError(401, 'unauthenticated', 'Sign in first.');
  const userId = reader.userId;
  await withTransaction(pool, async (tx) => {
    const { postId } = await ownComment(tx, commentId, userId);
    const { rows } = await tx.query<{ replies: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM "comments" WHERE "parentId" = $1) AS replies`,
      [commentId],
    );
    if (rows[0]?.replies) {
      await tx.query(
        `UPDATE "comments" SET "deletedAt" = now(), "body" = '', "html" = '', "pinned" = false
          WHERE "id" = $1`,
        [commentId],
      );
    } else {
      await tx.query(`DELETE FROM "comments" WHERE "id" = $1`, [commentId]);
    }
    await commentsChanged(tx, postId);
  });
}

/** A comment `reader` sees under a post they may read, or a 404. */
async function seenComment(tx: Tx, reader: CommentReader, commentId: string) {
  const { rows } = await tx.query<{ postId: number }>(
    `SELECT c."postId" FROM "comments" c
      WHERE c."id" = $1 AND c."deletedAt" IS NULL AND ${SEEN_BY_VIEWER('$2')} FOR UPDATE`,
    [commentId, reader.userId],
  );
  const row = rows[0];
  if (!row) throw commentNotFound();
  await readablePost(tx, row.postId, reader);
  return row;
}

/** Likes (`like`) or takes back the like; once per account, however often it is asked. */
export async function setLike(
  pool: pg.Pool,
  rules: CommentRules,
  reader: CommentReader,
  commentId: string,
  like: boolean,
): Promise<CommentLikes> {
  const userId = await requireCommenter(pool, rules, reader, 'write');
  return withTransaction(pool, async (tx) => {
    const { postId } = await seenComment(tx, reader, commentId);
    const { rowCount } = like
      ? await tx.query(
          `INSERT INTO "comment_likes" ("commentId", "userId") VALUES ($1, $2) ON CONFLICT DO NOTHING`,
          [commentId, userId],
        )
      : await tx.query(`DELETE FROM "comment_likes" WHERE "commentId" = $1 AND "userId" = $2`, [
          commentId,
          userId,
        ]);
    if (rowCount) {
      await tx.query(`UPDATE "comments" SET "likes" = "likes" + $2 WHERE "id" = $1`, [
        commentId,
        like ? 1 : -1,
      ]);
      await commentsChanged(tx, postId);
    }
    const { rows } = await tx.query<{ likes: number }>(
      `SELECT "likes" FROM "comments" WHERE "id" = $1`,
      [commentId],
    );
    return { likes: rows[0]?.likes ?? 0, likedByMe: like };
  });
}

/** A reader who may comment reports a comment; their later report replaces their reason. */
export async function reportComment(
  pool: pg.Pool,
  rules: CommentRules,
  reader: CommentReader,
  commentId: string,
  reason: string,
): Promise<void> {
  const userId = await requireCommenter(pool, rules, reader, 'write');
  const text = reason.trim();
  if (text === '') throw new DomainError(400, 'reason_required', 'Say what is wrong with it.');
  await withTransaction(pool, async (tx) => {
    await seenComment(tx, reader, commentId);
    await tx.query(
      `INSERT INTO "comment_reports" ("commentId", "reporterId", "reason") VALUES ($1, $2, $3)
       ON CONFLICT ("commentId", "reporterId")
       DO UPDATE SET "reason" = EXCLUDED."reason", "createdAt" = now()`,
      [commentId, userId, text],
    );
  });
}

/**
 * The name an account's comments are shown with, cleaned by the site's one rule for names
 * (cleanLine: no direction overrides, invisible or control characters, one line): 1–60
 * characters left of it, or a 400.
 */
export async function setCommenterName(
  pool: pg.Pool,
  reader: CommentReader,
  name: string,
): Promise<{ name: string }> {
  if (!reader.userId) throw new DomainError(401, 'unauthenticated', 'Sign in first.');
  const text = cleanLine(name);
  if (text === '' || [...text].length > COMMENTER_NAME_MAX) {
    throw new DomainError(
      400,
      'invalid_name',
      `A name is 1 to ${COMMENTER_NAME_MAX} characters of text.`,
    );
  }
  const userId = reader.userId;
  await withTransaction(pool, async (tx) => {
    const { rowCount } = await tx.query(
      `UPDATE "users" SET "name" = $2, "updatedAt" = now() WHERE "id" = $1`,
      [userId, text],
    );
    if (!rowCount) throw new DomainError(401, 'unauthenticated', 'Sign in first.');
    // Pages that show the account's comments show the new name.
    const { rows } = await tx.query<{ postId: number }>(
      `SELECT DISTINCT "postId" FROM "comments" WHERE "userId" = $1`,
      [userId],
    );
    for (const row of rows) await commentsChanged(tx, row.postId);
  });
  return { name: text };
}

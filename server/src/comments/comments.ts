import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import {
  COMMENT_MAX_LENGTH,
  COMMENTER_NAME_MAX,
  COMMENTS_PAGE_SIZE,
  COMMENTS_PER_DAY,
  COMMENTS_PER_MINUTE,
  type Comment,
  type CommentLikes,
  type CommentList,
  type CommentSort,
} from '../../../contract/comments.js';
import { UUID_PATTERN } from '../../../contract/constants.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { queueCommentMails } from './comment-mail-rows.js';
import {
  commentColumns,
  commentNotFound,
  commentsChanged,
  findLivePost,
  postNotFound,
  readComment,
  SEEN_BY_VIEWER,
  toComment,
  type CommentRow,
  type Db,
} from './comment-store.js';
import { hasLink, renderCommentHtml } from './render-comment.js';

/**
 * Comments under posts (docs/comments.md): who may read and write them, and every change a reader
 * makes. Moderation is in moderation.ts, mail in comment-mail.ts.
 *
 * For the page renderer and the API alike:
 *   listPostComments(db, { postId, viewerUserId: string | null, sort?, cursor?, limit? })
 *     → { count, comments, nextCursor }   (the caller has checked the reader may read the post:
 *                                          mayReadComments)
 *   readCommentsVersion(db, postId) → number   (comment-store.ts: key a drawn page's comments on it)
 * For the WordPress import: storeImportedComment in imported-comments.ts.
 */

export type CommentsMode = 'members' | 'everyone' | 'off';

export interface CommentRules {
  who: CommentsMode;
  /** A new account's first comment with a link waits for approval. */
  holdFirstLink: boolean;
  /** The staff's addresses (owners and editors): who may get a mail on every comment. */
  staffEmails: readonly string[];
}

/** The reader behind a request, as far as comments care. */
export interface CommentReader {
  /** A registered account's id; null for a visitor. */
  userId: string | null;
  emailVerified: boolean;
  /** Their membership gives access now (active, paid, comped, gifted, a seat). */
  isMember: boolean;
  /** On the desk's staff lists: reads every post, comments whatever COMMENTS says but off. */
  isStaff: boolean;
}

/** Whether `reader` may read the post's body, and so its comments. */
export function mayReadComments(
  post: { membersOnly: boolean },
  reader: Pick<CommentReader, 'isMember' | 'isStaff'>,
) {
  return !post.membersOnly || reader.isMember || reader.isStaff;
}

/** Why `reader` may not write a comment (or like, or report), or null when they may. */
export function refusalToComment(rules: CommentRules, reader: CommentReader): DomainError | null {
  if (rules.who === 'off') {
    return new DomainError(403, 'comments_off', 'Comments are turned off on this site.');
  }
  if (!reader.userId) {
    return new DomainError(401, 'unauthenticated', 'Sign in to comment.');
  }
  if (!reader.emailVerified) {
    return new DomainError(
      403,
      'unproven_address',
      'Prove your address first: sign in with a link we mail to it.',
    );
  }
  if (rules.who === 'members' && !reader.isMember && !reader.isStaff) {
    return new DomainError(403, 'not_a_member', 'Only members can comment here: become one.');
  }
  return null;
}

function requireMayComment(rules: CommentRules, reader: CommentReader): string {
  const refusal = refusalToComment(rules, reader);
  if (refusal) throw refusal;
  return reader.userId as string;
}

/** The post, when `reader` may read its comments; else a 404. */
async function readablePost(db: Db, postId: number, reader: CommentReader) {
  const post = await findLivePost(db, postId);
  if (!post || !mayReadComments(post, reader)) throw postNotFound();
  return post;
}

// ---- Reading ----

type Cursor = { likes: number; createdAt: Date; id: string };

const encodeCursor = (row: Pick<CommentRow, 'likes' | 'createdAt' | 'id'>) =>
  Buffer.from(JSON.stringify([row.likes, row.createdAt.toISOString(), row.id])).toString(
    'base64url',
  );

function decodeCursor(cursor: string): Cursor {
  const wrong = () =>
    new DomainError(400, 'invalid_cursor', 'This cursor is not one the site gave: start again.');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw wrong();
  }
  if (!Array.isArray(value) || value.length !== 3) throw wrong();
  const [likes, createdAt, id] = value as unknown[];
  const date = typeof createdAt === 'string' ? new Date(createdAt) : null;
  if (
    !Number.isInteger(likes) ||
    !date ||
    Number.isNaN(date.getTime()) ||
    typeof id !== 'string' ||
    !UUID_PATTERN.test(id)
  ) {
    throw wrong();
  }
  return { likes: likes as number, createdAt: date, id };
}

/** Each sort's order of top comments, and the condition and values for those after a cursor's. */
const ORDERS: Record<
  CommentSort,
  { order: string; after: string; values: (cursor: Cursor) => unknown[] }
> = {
  newest: {
    order: `c."createdAt" DESC, c."id" DESC`,
    after: `(c."createdAt", c."id") < ($4::timestamptz, $5::uuid)`,
    values: (cursor) => [cursor.createdAt, cursor.id],
  },
  oldest: {
    order: `c."createdAt", c."id"`,
    after: `(c."createdAt", c."id") > ($4::timestamptz, $5::uuid)`,
    values: (cursor) => [cursor.createdAt, cursor.id],
  },
  best: {
    order: `c."likes" DESC, c."createdAt" DESC, c."id" DESC`,
    after: `(c."likes", c."createdAt", c."id") < ($4::int, $5::timestamptz, $6::uuid)`,
    values: (cursor) => [cursor.likes, cursor.createdAt, cursor.id],
  },
};

/**
 * A page of a post's top comments as `viewerUserId` sees them, each with its replies (oldest
 * first), and the post's count. Pinned comments come first, on the first page only; the rest
 * page by `sort` with a keyset cursor (an index scan however deep the page: tests/bench/comments.ts).
 * A deleted top comment is a placeholder while a reply the viewer sees hangs under it.
 */
export async function listPostComments(
  db: Db,
  options: {
    postId: number;
    viewerUserId: string | null;
    sort?: CommentSort;
    cursor?: string | null;
    limit?: number;
  },
): Promise<Omit<CommentList, 'viewer'>> {
  const { postId, viewerUserId: viewer } = options;
  const sort = options.sort ?? 'newest';
  const limit = options.limit ?? COMMENTS_PAGE_SIZE;
  const cursor = options.cursor ? decodeCursor(options.cursor) : null;
  const { order, after, values } = ORDERS[sort];
  const shown = `c."postId" = $1 AND c."parentId" IS NULL AND ${SEEN_BY_VIEWER('$2')}
    AND (c."deletedAt" IS NULL OR EXISTS (SELECT 1 FROM "comments" r
          WHERE r."parentId" = c."id" AND r."deletedAt" IS NULL AND ${SEEN_BY_VIEWER('$2', 'r')}))`;
  const columns = commentColumns('$2::uuid');
  // One statement: the pinned (first page only), a page of top comments and their replies, each
  // row with its part (0 pinned, 1 the page, 2 a reply) and place in it.
  const [rows, count] = await Promise.all([
    db.query<CommentRow & { part: number; place: string }>(
      `WITH top AS (
         (SELECT c."id", 0 AS part, row_number() OVER (ORDER BY c."createdAt" DESC, c."id" DESC) AS place
            FROM "comments" c WHERE ${shown} AND c."pinned" AND ${cursor ? 'false' : 'true'})
         UNION ALL
         (SELECT c."id", 1, row_number() OVER (ORDER BY ${order})
            FROM "comments" c WHERE ${shown} AND NOT c."pinned" AND ${cursor ? after : 'true'}
           ORDER BY ${order} LIMIT $3))
       SELECT ${columns}, t.part, t.place
         FROM top t JOIN "comments" c ON c."id" = t."id" LEFT JOIN "users" u ON u."id" = c."userId"
       UNION ALL
       SELECT ${columns}, 2, row_number() OVER (ORDER BY c."createdAt", c."id")
         FROM "comments" c LEFT JOIN "users" u ON u."id" = c."userId"
        WHERE c."postId" = $1 AND c."parentId" IN (SELECT "id" FROM top) AND c."deletedAt" IS NULL
          AND ${SEEN_BY_VIEWER('$2')}`,
      [postId, viewer, limit + 1, ...(cursor ? values(cursor) : [])],
    ),
    db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM "comments"
        WHERE "postId" = $1 AND "status" = 'visible' AND "deletedAt" IS NULL`,
      [postId],
    ),
  ]);
  const inPart = (part: number) =>
    rows.rows.filter((row) => row.part === part).sort((a, b) => Number(a.place) - Number(b.place));
  const page = inPart(1);
  const more = page.length > limit;
  const tops = [...inPart(0), ...page.slice(0, limit)];
  const last = page[limit - 1];
  const repliesOf = new Map<string, Comment['replies']>();
  for (const reply of inPart(2)) {
    const list = repliesOf.get(reply.parentId ?? '') ?? [];
    list.push(toComment(reply) as Comment['replies'][number]);
    repliesOf.set(reply.parentId ?? '', list);
  }
  return {
    count: count.rows[0]?.count ?? 0,
    comments: tops.map((top) => toComment(top, repliesOf.get(top.id) ?? [])),
    nextCursor: more && last ? encodeCursor(last) : null,
  };
}

/**
 * The comments of a post for `reader`, after checking they may read them (the API's GET). Both
 * are asked at once: a list for a post the reader may not read is dropped unread.
 */
export async function listReadableComments(
  db: Db,
  reader: CommentReader,
  options: { postId: number; sort?: CommentSort; cursor?: string | null },
) {
  const [, list] = await Promise.all([
    readablePost(db, options.postId, reader),
    listPostComments(db, { ...options, viewerUserId: reader.userId }),
  ]);
  return list;
}

// ---- Writing ----

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

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * 5 comments a minute and 50 a day per account, counted from the comments table under the
 * account's lock: the same count on every app server, and two requests at once cannot both pass.
 */
async function checkPace(tx: Tx, userId: string, now: Date): Promise<void> {
  const { rows } = await tx.query<{ createdAt: Date }>(
    `SELECT "createdAt" FROM "comments"
      WHERE "userId" = $1 AND "createdAt" > $2 AND "importSource" IS NULL
      ORDER BY "createdAt" DESC`,
    [userId, new Date(now.getTime() - DAY_MS)],
  );
  const refuse = (oldest: Date | undefined, windowMs: number, what: string) => {
    const wait = Math.max(
      1,
      Math.ceil(((oldest?.getTime() ?? 0) + windowMs - now.getTime()) / 1000),
    );
    throw new DomainError(
      429,
      'too_many_comments',
      `You have posted ${what}: wait a little before the next one.`,
      {},
      wait,
    );
  };
  if (rows.length >= COMMENTS_PER_DAY)
    refuse(rows[COMMENTS_PER_DAY - 1]?.createdAt, DAY_MS, `${COMMENTS_PER_DAY} comments today`);
  const lastMinute = rows.filter((row) => row.createdAt.getTime() > now.getTime() - MINUTE_MS);
  if (lastMinute.length >= COMMENTS_PER_MINUTE) {
    refuse(
      lastMinute[COMMENTS_PER_MINUTE - 1]?.createdAt,
      MINUTE_MS,
      `${COMMENTS_PER_MINUTE} comments in a minute`,
    );
  }
}

export interface NewComment {
  postId: number;
  body: string;
  parentId?: string | undefined;
}

/**
 * Posts `reader`'s comment, or says why not. In one transaction under the account's lock: blocked,
 * no name yet, too fast, the same text as their last comment, a parent from elsewhere are refused;
 * the mails it owes are written as rows with it (sent by the job queue once it has committed:
 * answered as `mailIds`).
 */
export async function postComment(
  pool: pg.Pool,
  rules: CommentRules,
  reader: CommentReader,
  input: NewComment,
  now = new Date(),
): Promise<{ comment: Comment; mailIds: string[] }> {
  const userId = requireMayComment(rules, reader);
  const body = checkedBody(input.body);
  const post = await readablePost(pool, input.postId, reader);
  const html = renderCommentHtml(body);
  const id = randomUUID();
  const mailIds = await withTransaction(pool, async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('comments:' || $1))`, [userId]);
    const { rows: accounts } = await tx.query<{
      name: string | null;
      blocked: boolean;
      earlier: boolean;
      last: string | null;
    }>(
      `SELECT u."name",
              EXISTS (SELECT 1 FROM "comment_blocks" b WHERE b."userId" = u."id") AS blocked,
              EXISTS (SELECT 1 FROM "comments" c WHERE c."userId" = u."id" AND c."status" = 'visible') AS earlier,
              (SELECT c."body" FROM "comments" c WHERE c."userId" = u."id"
                ORDER BY c."createdAt" DESC LIMIT 1) AS last
         FROM "users" u WHERE u."id" = $1`,
      [userId],
    );
    const account = accounts[0];
    if (!account) throw new DomainError(401, 'unauthenticated', 'Sign in to comment.');
    if (account.blocked) {
      throw new DomainError(403, 'blocked', 'You can no longer comment on this site.');
    }
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
    let threadId: string | null = null;
    let answeredId: string | null = null;
    if (input.parentId) {
      const { rows } = await tx.query<{ id: string; parentId: string | null }>(
        `SELECT c."id", c."parentId" FROM "comments" c
          WHERE c."id" = $1 AND c."postId" = $2 AND ${SEEN_BY_VIEWER('$3')}`,
        [input.parentId, post.id, userId],
      );
      const parent = rows[0];
      if (!parent) {
        throw new DomainError(
          400,
          'invalid_parent',
          'The comment you are answering is not under this post (it may have been removed).',
        );
      }
      // Replies nest one level: a reply to a reply joins its thread.
      threadId = parent.parentId ?? parent.id;
      answeredId = parent.id;
    }
    const held = rules.holdFirstLink && !reader.isStaff && !account.earlier && hasLink(body);
    await tx.query(
      `INSERT INTO "comments" ("id", "postId", "parentId", "userId", "body", "html", "status", "createdAt")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [id, post.id, threadId, userId, body, html, held ? 'pending' : 'visible', now],
    );
    await commentsChanged(tx, post.id);
    return held
      ? []
      : queueCommentMails(tx, {
          commentId: id,
          answeredId,
          authorId: userId,
          staffEmails: rules.staffEmails,
        });
  });
  return { comment: await readComment(pool, id, userId), mailIds };
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
  reader: CommentReader,
  commentId: string,
  newBody: string,
): Promise<Comment> {
  if (!reader.userId) throw new DomainError(401, 'unauthenticated', 'Sign in first.');
  const userId = reader.userId;
  const body = checkedBody(newBody);
  const html = renderCommentHtml(body);
  await withTransaction(pool, async (tx) => {
    const { postId } = await ownComment(tx, commentId, userId);
    // A blocked commenter cannot rewrite what they wrote either (deleting it stays theirs).
    const { rows } = await tx.query(`SELECT 1 FROM "comment_blocks" WHERE "userId" = $1`, [userId]);
    if (rows.length > 0) {
      throw new DomainError(403, 'blocked', 'You can no longer comment on this site.');
    }
    await tx.query(
      `UPDATE "comments" SET "body" = $2, "html" = $3, "editedAt" = now() WHERE "id" = $1`,
      [commentId, body, html],
    );
    await commentsChanged(tx, postId);
  });
  return readComment(pool, commentId, userId);
}

/**
 * The author deletes their comment: gone, unless replies hang under it, when it stays as a
 * placeholder without its text or name.
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
  const userId = requireMayComment(rules, reader);
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
  const userId = requireMayComment(rules, reader);
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

/** The name an account's comments are shown with: 1–60 characters, no control characters. */
export async function setCommenterName(
  pool: pg.Pool,
  reader: CommentReader,
  name: string,
): Promise<{ name: string }> {
  if (!reader.userId) throw new DomainError(401, 'unauthenticated', 'Sign in first.');
  const text = name.trim().replace(/\s+/g, ' ');
  // eslint-disable-next-line no-control-regex
  if (text === '' || [...text].length > COMMENTER_NAME_MAX || /[\u0000-\u001f\u007f]/.test(text)) {
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

import { createHmac, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import { commentAnchor } from '../../../contract/comments.js';
import { UUID_PATTERN } from '../../../contract/constants.js';
import type { JobQueue } from '../jobs/job-queue.js';
import type { Mailer } from '../mail/mailer.js';
import type { CommentMailKind } from './comment-mail-rows.js';
import { postPaths } from './comment-store.js';

/**
 * The mails comments owe (docs/comments.md#mail), sent through the job queue in PostgreSQL
 * (jobs/job-queue.ts, as scheduled posts and newsletters are: decision 11). A comment writes a
 * `comment_mails` row per recipient in its own transaction; once it has committed, each row gets a
 * job whose id is the row's, so a row queued twice (after a restart, by two servers) is still one
 * job. The job claims its row (`queued` → `sending`) before it mails and marks it `sent` after: a
 * job run again, or by another server, finds the row taken and mails nothing. A failed send puts
 * the row back to `queued` and the job is retried.
 */

export const COMMENT_MAIL_QUEUE = 'comment-mails';
/** Where a reply mail's one-click stop goes (POST, RFC 8058) and its page (GET). */
export const STOP_REPLY_MAILS_PATH = '/api/comments/reply-mails/stop';

export interface CommentMailDeps {
  pool: pg.Pool;
  mailer: Mailer;
  siteUrl: string;
  siteName: string;
  tokens: CommentMailTokens;
}

export interface CommentMailQueue {
  /** Jobs for these rows (just committed); starts the queue's worker if it is not running. */
  enqueue(mailIds: string[]): Promise<void>;
  /** Puts every row still queued on the queue (at start: rows whose jobs a crash lost). */
  start(): Promise<void>;
  /** Queues nothing more; the job queue's own stop waits for a mail in hand. */
  stop(): void;
}

/**
 * The token of a stop link: the account, the kind of mail, and an HMAC of both under a key derived
 * from SESSION_SECRET. It never expires and needs no row, as the newsletter's unsubscribe token.
 */
export interface CommentMailTokens {
  sign(userId: string, kind: CommentMailKind): string;
  verify(token: string): { userId: string; kind: CommentMailKind } | null;
}

export function createCommentMailTokens(secret: string): CommentMailTokens {
  const key = createHmac('sha256', secret).update('cohort comment mails').digest();
  const mac = (text: string) =>
    createHmac('sha256', key).update(text).digest().subarray(0, 18).toString('base64url');
  return {
    sign: (userId, kind) => `${userId}.${kind}.${mac(`${userId}.${kind}`)}`,
    verify(token) {
      const [userId, kind, signature, ...rest] = token.split('.');
      if (!userId || !signature || rest.length > 0 || !UUID_PATTERN.test(userId)) return null;
      if (kind !== 'reply' && kind !== 'staff') return null;
      const expected = Buffer.from(mac(`${userId}.${kind}`));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      return { userId, kind };
    },
  };
}

/** Stops the mails a token's link is about: replies to the account's comments, or every comment. */
export async function stopCommentMails(
  pool: Pick<pg.Pool, 'query'>,
  stop: { userId: string; kind: CommentMailKind },
): Promise<void> {
  const column = stop.kind === 'reply' ? '"replyMails"' : '"everyComment"';
  await pool.query(
    `INSERT INTO "comment_mail_choices" ("userId", ${column}, "updatedAt")
     SELECT "id", false, now() FROM "users" WHERE "id" = $1
     ON CONFLICT ("userId") DO UPDATE SET ${column} = false, "updatedAt" = now()`,
    [stop.userId],
  );
}

interface MailRow {
  id: string;
  kind: CommentMailKind;
  userId: string;
  email: string | null;
  commentId: string;
  postId: number;
  postTitle: string;
  authorName: string;
  body: string;
  stillWanted: boolean;
}

/** Sends the mail of one row, once; answers what happened. */
export async function deliverCommentMail(
  deps: CommentMailDeps,
  mailId: string,
): Promise<'sent' | 'skipped' | 'taken'> {
  const { pool } = deps;
  const { rows } = await pool.query<MailRow>(
    `UPDATE "comment_mails" m SET "state" = 'sending'
       FROM "comments" c
       JOIN "posts" p ON p."id" = c."postId"
       LEFT JOIN "users" a ON a."id" = c."userId",
       "users" u
       LEFT JOIN "comment_mail_choices" ch ON ch."userId" = u."id"
      WHERE m."id" = $1 AND m."state" = 'queued' AND c."id" = m."commentId" AND u."id" = m."userId"
      RETURNING m."id", m."kind", m."userId", u."email", c."id" AS "commentId", c."postId",
                p."title" AS "postTitle",
                COALESCE(NULLIF(a."name", ''), c."guestName", 'A member') AS "authorName",
                c."body",
                (c."status" = 'visible' AND c."deletedAt" IS NULL AND p."deletedAt" IS NULL
                  AND CASE m."kind" WHEN 'reply' THEN COALESCE(ch."replyMails", true)
                                    ELSE COALESCE(ch."everyComment", false) END) AS "stillWanted"`,
    [mailId],
  );
  const row = rows[0];
  if (!row) return 'taken';
  if (!row.email || !row.stillWanted) {
    await pool.query(`UPDATE "comment_mails" SET "state" = 'skipped' WHERE "id" = $1`, [mailId]);
    return 'skipped';
  }
  const path = (await postPaths(pool, [row.postId])).get(row.postId) ?? '/';
  try {
    await deps.mailer.send(commentMail(deps, row, path));
  } catch (error) {
    // Not sent: back on the queue for the job's retry.
    await pool.query(`UPDATE "comment_mails" SET "state" = 'queued' WHERE "id" = $1`, [mailId]);
    throw error;
  }
  await pool.query(
    `UPDATE "comment_mails" SET "state" = 'sent', "sentAt" = now() WHERE "id" = $1`,
    [mailId],
  );
  return 'sent';
}

function commentMail(deps: CommentMailDeps, row: MailRow & { email: string | null }, path: string) {
  const link = `${deps.siteUrl}${path}#${commentAnchor(row.commentId)}`;
  const stopUrl = `${deps.siteUrl}${STOP_REPLY_MAILS_PATH}?token=${encodeURIComponent(
    deps.tokens.sign(row.userId, row.kind),
  )}`;
  const quoted = row.body
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
  const reply = row.kind === 'reply';
  return {
    to: row.email ?? '',
    subject: reply
      ? `${row.authorName} replied to your comment on “${row.postTitle}”`
      : `New comment on “${row.postTitle}” from ${row.authorName}`,
    text: [
      reply
        ? `${row.authorName} replied to your comment on “${row.postTitle}”:`
        : `${row.authorName} commented on “${row.postTitle}”:`,
      '',
      quoted,
      '',
      `Read it and answer: ${link}`,
      '',
      reply
        ? `No more mails about replies to your comments: ${stopUrl}`
        : `No more mails about every new comment: ${stopUrl}`,
      '',
      `— ${deps.siteName}`,
    ].join('\n'),
    headers: {
      'List-Unsubscribe': `<${stopUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/**
 * The queue and its worker. The worker starts with the first mail (or at start when rows are
 * waiting), so a site whose comments never mail runs none.
 */
export function createCommentMailQueue(deps: CommentMailDeps, jobs: JobQueue): CommentMailQueue {
  const { pool } = deps;
  let stopped = false;
  const queue = jobs.define<{ mailId: string }>({
    name: COMMENT_MAIL_QUEUE,
    policy: { retryLimit: 5, retryDelaySeconds: 30, expireSeconds: 60 },
    work: {
      pollingIntervalSeconds: 2,
      async handle(mails) {
        for (const job of mails) await deliverCommentMail(deps, job.data.mailId);
      },
    },
  });

  async function enqueue(mailIds: string[]) {
    if (mailIds.length === 0 || stopped) return;
    // The row's id is the job's: pg-boss inserts a job whose id exists already as nothing.
    await queue.insert(mailIds.map((id) => ({ id, data: { mailId: id } })));
  }

  return {
    enqueue,
    async start() {
      const { rows } = await pool.query<{ id: string }>(
        `SELECT "id" FROM "comment_mails" WHERE "state" = 'queued' ORDER BY "createdAt" LIMIT 1000`,
      );
      await enqueue(rows.map((row) => row.id));
    },
    stop() {
      stopped = true;
    },
  };
}

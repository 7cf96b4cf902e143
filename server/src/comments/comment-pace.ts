import { COMMENTS_PER_DAY, COMMENTS_PER_MINUTE } from '../../../contract/comments.js';
import type { Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';

/**
 * How fast an account may comment (docs/comments.md#abuse): 5 comments a minute and 50 a day,
 * refused ones included, counted from the comments table and the refusals' (`comment_refusals`:
 * a row for each comment refused before it was written, nested too deep to draw) under the
 * account's lock (taken by the caller's transaction): the same count on every app server, and two
 * requests at once cannot both pass.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** Refuses (429 with Retry-After) a comment past the account's pace; call under its lock. */
export async function checkPace(tx: Tx, userId: string, now: Date): Promise<void> {
  const { rows } = await tx.query<{ createdAt: Date }>(
    `SELECT "createdAt" FROM "comments"
      WHERE "userId" = $1 AND "createdAt" > $2 AND "importSource" IS NULL
     UNION ALL
     SELECT "createdAt" FROM "comment_refusals" WHERE "userId" = $1 AND "createdAt" > $2
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

/** Counts a refused comment against the account's pace; call under its lock, past checkPace. */
export async function countRefusedComment(tx: Tx, userId: string, at: Date): Promise<void> {
  await tx.query(`INSERT INTO "comment_refusals" ("userId", "createdAt") VALUES ($1, $2)`, [
    userId,
    at,
  ]);
  await tx.query(`DELETE FROM "comment_refusals" WHERE "userId" = $1 AND "createdAt" <= $2`, [
    userId,
    new Date(at.getTime() - DAY_MS),
  ]);
}

import { createHash } from 'node:crypto';
import type pg from 'pg';
import { TRASH_DAYS } from '../../../contract/post-bulk.js';
import type { PostJson, PostStatus } from '../../../contract/posts.js';
import { withTransaction } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { recordPostEvent } from '../outbox/webhook-events.js';
import { contentChanged } from './content-changes.js';
import { auditPostChange, type Actor } from './post-actors.js';
import { POST_COLUMNS, postJson, type PostRow } from './post-row.js';
import { checkCandidate, merge } from './post-validation.js';

/**
 * The Trash (docs/desk.md): a deleted post (post-editing.ts's deletePost) keeps its row, its
 * revisions and the status it had; its address answers 410 Gone (post-addresses.ts). For
 * TRASH_DAYS it can be restored, as it was; then a job on the one job queue purges it for good,
 * and its address answers 404 like any unknown one.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export interface RestoredPost {
  post: PostJson;
  /** For a post back to scheduled: when it goes live (the job queue makes it live then). */
  scheduledFor: Date | null;
  generation: number;
}

/**
 * Brings a post back from the Trash as it was: a published post published again (at its address,
 * with its date), a scheduled one scheduled again while its time is still ahead, anything else a
 * draft. A post that cannot go live as it is now (its section was deleted meanwhile, say) comes
 * back a draft, which the editor says what it lacks of. Audited; a post back live is told to the
 * webhooks as published.
 */
export async function restorePost(pool: pg.Pool, actor: Actor, id: number): Promise<RestoredPost> {
  return withTransaction(pool, async (tx) => {
    const { rows } = await tx.query<PostRow & { deletedStatus: PostStatus | null }>(
      `SELECT ${POST_COLUMNS}, "deletedStatus" FROM "posts"
        WHERE "id" = $1 AND "deletedAt" IS NOT NULL FOR UPDATE`,
      [id],
    );
    const row = rows[0];
    if (!row) throw new DomainError(404, 'not_in_trash', `Post ${id} is not in the Trash.`);
    const ahead = (row.publishedAt?.getTime() ?? 0) > Date.now();
    let status: PostStatus =
      row.deletedStatus === 'published' || (row.deletedStatus === 'scheduled' && ahead)
        ? row.deletedStatus
        : 'draft';
    if (status !== 'draft') {
      const candidate = merge(row.kind, row, { common: {}, fields: {} });
      const whole = await checkCandidate(tx, candidate, id, true).then(
        () => true,
        (error: unknown) => {
          if (error instanceof DomainError) return false;
          throw error;
        },
      );
      if (!whole) status = 'draft';
    }
    const { rows: restored } = await tx.query<PostRow>(
      `UPDATE "posts" SET "deletedAt" = NULL, "deletedStatus" = NULL, "status" = $2,
          "unpublishedAt" = CASE WHEN $2 = 'draft' THEN "unpublishedAt" END,
          "updatedBy" = $3, "version" = "version" + 1, "updatedAt" = now()
        WHERE "id" = $1 RETURNING ${POST_COLUMNS}`,
      [id, status, actor.userId],
    );
    const post = postJson(restored[0] as PostRow);
    await auditPostChange(tx, actor, 'post_untrash', postJson(row), post);
    if (status === 'published') await recordPostEvent(tx, 'post.published', row);
    return {
      post,
      scheduledFor: status === 'scheduled' ? row.publishedAt : null,
      generation: await contentChanged(tx),
    };
  });
}

export interface PurgeResult {
  purged: number;
  /** When the next post in the Trash is due to be purged; null: the Trash is empty. */
  nextDue: Date | null;
}

/**
 * Deletes for good every post in the Trash for TRASH_DAYS or more as of `now`, with its revisions,
 * old addresses, bylines and comments (their foreign keys cascade); analytics keep their counts by
 * id. Idempotent: a second run, or another server's at once, purges nothing more.
 */
export async function purgeTrashedPosts(pool: pg.Pool, now: Date): Promise<PurgeResult> {
  const before = new Date(now.getTime() - TRASH_DAYS * DAY_MS);
  return withTransaction(pool, async (tx) => {
    const { rowCount } = await tx.query(
      `DELETE FROM "posts" WHERE "deletedAt" IS NOT NULL AND "deletedAt" <= $1`,
      [before],
    );
    // Their addresses stop answering 410.
    if (rowCount) await contentChanged(tx);
    const { rows } = await tx.query<{ oldest: Date | null }>(
      `SELECT min("deletedAt") AS oldest FROM "posts" WHERE "deletedAt" IS NOT NULL`,
    );
    const oldest = rows[0]?.oldest ?? null;
    return {
      purged: rowCount ?? 0,
      nextDue: oldest && new Date(oldest.getTime() + TRASH_DAYS * DAY_MS),
    };
  });
}

/** The queue whose jobs purge the Trash (on the one job queue, as scheduled posts'). */
export const PURGE_QUEUE = 'purge-trashed-posts';

export interface TrashPurge {
  /** A job that purges the posts deleted at `deletedAt` once their time in the Trash is up. */
  purgeLater(deletedAt: Date): Promise<void>;
  /** Purges what is due as of `now` and puts a job on the queue for the next one due. */
  purge(now?: Date): Promise<PurgeResult>;
  /** Purges what a stopped site left due, and makes sure the next one due has its job. */
  start(): Promise<void>;
  stop(): void;
}

/** Job ids are UUIDs: one for each hour a purge is due, so deletions in that hour share a job. */
function purgeJobId(due: Date): string {
  const hex = createHash('sha256').update(`${PURGE_QUEUE}:${due.toISOString()}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The hour after `at` (a post is purged at most an hour after its time is up, never before). */
const nextHour = (at: Date) => new Date(Math.ceil(at.getTime() / 3_600_000) * 3_600_000);

/**
 * The Trash's purge on the job queue (pg-boss in PostgreSQL, decision 11): each deletion puts a
 * job on it for the hour its posts' time is up, one job an hour however many posts (the job's id
 * is the hour's: a second is not added), and each purge puts one there for the next post due, so
 * a post deleted before the Trash existed is purged too. Every server works the queue; a purge is
 * idempotent. The queue starts only once something is in the Trash.
 */
export function createTrashPurge(
  pool: pg.Pool,
  jobs: JobQueue,
  hooks: { onPurged: () => void; log: (error: unknown) => void },
): TrashPurge {
  let stopped = false;
  const queue = jobs.define<{ due: string }>({
    name: PURGE_QUEUE,
    work: {
      pollingIntervalSeconds: 60,
      async handle() {
        await purge(new Date());
      },
    },
  });

  async function schedule(due: Date) {
    if (stopped) return;
    const at = nextHour(due);
    await queue.insert([{ id: purgeJobId(at), data: { due: at.toISOString() }, startAfter: at }]);
  }

  async function purge(now = new Date()): Promise<PurgeResult> {
    const result = await purgeTrashedPosts(pool, now);
    if (result.purged > 0) hooks.onPurged();
    if (result.nextDue) await schedule(result.nextDue);
    return result;
  }

  return {
    async purgeLater(deletedAt) {
      await schedule(new Date(deletedAt.getTime() + TRASH_DAYS * DAY_MS));
    },
    purge,
    async start() {
      const { rows } = await pool.query(
        `SELECT 1 FROM "posts" WHERE "deletedAt" IS NOT NULL LIMIT 1`,
      );
      if (rows.length > 0 && !stopped) await purge().catch(hooks.log);
    },
    stop() {
      stopped = true;
    },
  };
}

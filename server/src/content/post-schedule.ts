import type pg from 'pg';
import type { JobQueue } from '../jobs/job-queue.js';
import { publishDuePosts } from './post-publishing.js';

/** The queue whose jobs make scheduled posts live (on the one job queue, as the newsletter's). */
export const PUBLISH_QUEUE = 'publish-scheduled-posts';

export interface PostSchedule {
  /** A job that makes the post live at `at`: it outlives a restart (it is a row in PostgreSQL). */
  publishAt(postId: number, at: Date): Promise<void>;
  /** Starts working the queue if any post is scheduled, and makes live what is due already. */
  start(): Promise<void>;
  /** Starts nothing more; the job queue's own stop waits for a job in hand. */
  stop(): void;
}

/**
 * Scheduled posts on the job queue (pg-boss in PostgreSQL, decision 11): each scheduling adds a
 * job for its time; every app server works the queue, and the job's work is idempotent
 * (publishDuePosts: whatever is due, once), so a job run twice, or by two servers, or for a post
 * rescheduled since, changes nothing more. The queue's worker starts only once a post is
 * scheduled, so a site that never schedules runs none.
 */
export function createPostSchedule(
  pool: pg.Pool,
  jobs: JobQueue,
  hooks: { onPublished: () => void },
): PostSchedule {
  let stopped = false;
  const queue = jobs.define<{ postId: number }>({
    name: PUBLISH_QUEUE,
    work: {
      pollingIntervalSeconds: 2,
      async handle() {
        if ((await publishDuePosts(pool)) > 0) hooks.onPublished();
      },
    },
  });

  return {
    async publishAt(postId, at) {
      await queue.send({ postId }, { startAfter: at, retryLimit: 10 });
    },
    async start() {
      if ((await publishDuePosts(pool)) > 0) hooks.onPublished();
      const { rows } = await pool.query(
        `SELECT 1 FROM "posts" WHERE "status" = 'scheduled' AND "deletedAt" IS NULL LIMIT 1`,
      );
      if (rows.length > 0 && !stopped) await queue.start();
    },
    stop() {
      stopped = true;
    },
  };
}

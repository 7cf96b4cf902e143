import type pg from 'pg';
import PgBoss from 'pg-boss';
import { publishDuePosts } from './post-publishing.js';

/** The queue whose jobs make scheduled posts live (pg-boss, as the newsletter's deliveries). */
export const PUBLISH_QUEUE = 'publish-scheduled-posts';

export interface PostSchedule {
  /** A job that makes the post live at `at`: it outlives a restart (it is a row in PostgreSQL). */
  publishAt(postId: number, at: Date): Promise<void>;
  /** Starts working the queue if any post is scheduled, and makes live what is due already. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Scheduled posts on the job queue the newsletter uses (pg-boss in PostgreSQL, decision 11): each
 * scheduling adds a job for its time; every app server works the queue, and the job's work is
 * idempotent (publishDuePosts: whatever is due, once), so a job run twice, or by two servers, or
 * for a post rescheduled since, changes nothing more. pg-boss starts only once a post is
 * scheduled, so a site that never schedules runs no worker.
 */
export function createPostSchedule(
  pool: pg.Pool,
  hooks: { onPublished: () => void; log: (error: unknown) => void },
): PostSchedule {
  let boss: Promise<PgBoss> | null = null;
  let stopped = false;

  function startBoss(): Promise<PgBoss> {
    boss ??= (async () => {
      const started = new PgBoss({
        db: { executeSql: (text, values) => pool.query(text, values) },
        schema: 'pgboss',
        schedule: false,
        supervise: true,
        maintenanceIntervalSeconds: 30,
      });
      started.on('error', hooks.log);
      await started.start();
      if (!(await started.getQueue(PUBLISH_QUEUE))) {
        await started.createQueue(PUBLISH_QUEUE).catch(async (error: unknown) => {
          // Another server made it first.
          if (!(await started.getQueue(PUBLISH_QUEUE))) throw error;
        });
      }
      await started.work(PUBLISH_QUEUE, { pollingIntervalSeconds: 2 }, async () => {
        if ((await publishDuePosts(pool)) > 0) hooks.onPublished();
      });
      return started;
    })();
    return boss;
  }

  return {
    async publishAt(postId, at) {
      const queue = await startBoss();
      await queue.send(PUBLISH_QUEUE, { postId }, { startAfter: at, retryLimit: 10 });
    },
    async start() {
      if ((await publishDuePosts(pool)) > 0) hooks.onPublished();
      const { rows } = await pool.query(
        `SELECT 1 FROM "posts" WHERE "status" = 'scheduled' AND "deletedAt" IS NULL LIMIT 1`,
      );
      if (rows.length > 0 && !stopped) await startBoss();
    },
    async stop() {
      stopped = true;
      const running = await boss?.catch(() => null);
      await running?.stop({ graceful: true, wait: true, close: false, timeout: 5_000 });
    },
  };
}

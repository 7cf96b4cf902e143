import type pg from 'pg';
import PgBoss from 'pg-boss';
import type { Tx } from '../db/transaction.js';

/**
 * The one job queue (pg-boss 10 in PostgreSQL, schema `pgboss`: decision 11). Each area
 * defines its queue here (a name, how its jobs are retried, its workers) and sends through it;
 * nothing else constructs pg-boss. pg-boss runs on the pool it is given, so on the embedded PGlite
 * too, and starts with the first queue that is used: after the migrations (the app's areas use
 * theirs from `onReady` on, or at their first job), and never on a site whose areas have no job.
 * An operator's command that needs one outside the app (`npm run newsletter:send`) makes its own
 * here, with the same options.
 */

/** How often the supervisor puts expired jobs back and archives finished ones. */
const MAINTENANCE_SECONDS = 10;

/** A job as a worker or `fetch` gets it, with its retry count and limit. */
export type Job<T> = PgBoss.JobWithMetadata<T>;

/** Whether a failure of this job is its last: no retry follows. */
export const isLastTry = (job: Job<unknown>) => job.retryCount >= job.retryLimit;

export interface QueuePolicy {
  /** Tries after the first; the waits double from `retryDelaySeconds` (with jitter). */
  retryLimit: number;
  retryDelaySeconds: number;
  /** A job still running after this long is taken as its worker's death, and tried again. */
  expireSeconds: number;
}

export interface QueueDefinition<T extends object> {
  name: string;
  /** Set when the queue is made (the first server to use it); pg-boss's defaults without. */
  policy?: QueuePolicy;
  /**
   * The workers that handle its jobs, started with the queue. Without them the area fetches and
   * completes its jobs itself (the newsletter's sender).
   */
  work?: {
    handle(jobs: Job<T>[]): Promise<void>;
    /** pg-boss 10 works one batch at a time per worker: several workers, several at once. */
    workers?: number;
    batchSize?: number;
    pollingIntervalSeconds: number;
  };
}

export interface Queue<T extends object> {
  readonly name: string;
  /** Starts pg-boss if need be, makes the queue and starts its workers: once, whoever asks. */
  start(): Promise<void>;
  send(data: T, options?: { startAfter?: Date; retryLimit?: number }): Promise<void>;
  /**
   * Jobs whose ids are the caller's (a job whose id exists already is not added again), inside
   * `tx` when given, so that they commit, or not, with the rows they stand for; each from
   * `startAfter` when it says.
   */
  insert(jobs: { id: string; data: T; startAfter?: Date }[], tx?: Tx): Promise<void>;
  fetch(batchSize: number): Promise<Job<T>[]>;
  complete(ids: string[]): Promise<void>;
  /** Back on the queue for its retry (or failed for good after the last). */
  fail(id: string, message: string): Promise<void>;
}

export interface JobQueue {
  define<T extends object>(definition: QueueDefinition<T>): Queue<T>;
  /**
   * Stops the workers; `graceful` (the default) waits up to 5 s for the jobs they hold, else those
   * are failed at once (to be retried). The pool is left open: its owner closes it after.
   */
  stop(options?: { graceful?: boolean }): Promise<void>;
}

export interface JobQueueOptions {
  log(error: unknown): void;
  maintenanceSeconds?: number;
}

class JobQueueStoppedError extends Error {
  constructor() {
    super('The job queue is stopped');
    this.name = 'JobQueueStoppedError';
  }
}

export function createJobQueue(pool: pg.Pool, options: JobQueueOptions): JobQueue {
  let boss: Promise<PgBoss> | null = null;
  let stopped = false;
  const starting = new Set<Promise<unknown>>();

  function startBoss(): Promise<PgBoss> {
    boss ??= (async () => {
      const started = new PgBoss({
        db: { executeSql: (text, values) => pool.query(text, values) },
        schema: 'pgboss',
        schedule: false,
        supervise: true,
        maintenanceIntervalSeconds: options.maintenanceSeconds ?? MAINTENANCE_SECONDS,
      });
      started.on('error', options.log);
      await started.start();
      return started;
    })().catch((error: unknown) => {
      // Tried again by the next job (a database away for a moment is not the end of the queue).
      boss = null;
      throw error;
    });
    return boss;
  }

  async function makeQueue<T extends object>(
    started: PgBoss,
    { name, policy, work }: QueueDefinition<T>,
  ): Promise<void> {
    if (!(await started.getQueue(name))) {
      const settings = policy && {
        retryLimit: policy.retryLimit,
        retryDelay: policy.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: policy.expireSeconds,
      };
      await started.createQueue(name, { name, ...settings }).catch(async (error: unknown) => {
        // Made by another server (or process) at the same moment.
        if (!(await started.getQueue(name))) throw error;
      });
    }
    if (!work) return;
    for (let worker = 0; worker < (work.workers ?? 1); worker += 1) {
      await started.work<T>(
        name,
        {
          pollingIntervalSeconds: work.pollingIntervalSeconds,
          includeMetadata: true,
          ...(work.batchSize && { batchSize: work.batchSize }),
        },
        (jobs) => work.handle(jobs),
      );
    }
  }

  return {
    define<T extends object>(definition: QueueDefinition<T>): Queue<T> {
      const { name } = definition;
      let ready: Promise<PgBoss> | null = null;
      function start(): Promise<PgBoss> {
        if (stopped) return Promise.reject(new JobQueueStoppedError());
        if (!ready) {
          const made: Promise<PgBoss> = (async () => {
            const started = await startBoss();
            await makeQueue(started, definition);
            return started;
          })().catch((error: unknown) => {
            if (ready === made) ready = null;
            throw error;
          });
          ready = made;
          starting.add(made);
          const settled = () => starting.delete(made);
          void made.then(settled, settled);
        }
        return ready;
      }
      return {
        name,
        async start() {
          await start();
        },
        async send(data, sendOptions = {}) {
          await (await start()).send(name, data, sendOptions);
        },
        async insert(jobs, tx) {
          if (jobs.length === 0) return;
          const rows = jobs.map(({ id, data, startAfter }) => ({ id, name, data, startAfter }));
          const started = await start();
          if (!tx) await started.insert(rows);
          else {
            const db = { executeSql: (text: string, values: unknown[]) => tx.query(text, values) };
            await started.insert(rows, { db });
          }
        },
        async fetch(batchSize) {
          return (await start()).fetch<T>(name, { batchSize, includeMetadata: true });
        },
        async complete(ids) {
          await (await start()).complete(name, ids);
        },
        async fail(id, message) {
          await (await start()).fail(name, id, { message });
        },
      };
    },

    async stop({ graceful = true } = {}) {
      stopped = true;
      // No worker starts after this: the queues being made are made first.
      await Promise.allSettled([...starting]);
      const running = await boss?.catch(() => null);
      await running?.stop({ graceful, wait: true, close: false, timeout: 5_000 });
    },
  };
}

import type pg from 'pg';
import type { Database } from '../db/database.js';
import { createJobQueue, type JobQueue } from '../jobs/job-queue.js';
import type { Mailer } from '../mail/mailer.js';
import {
  countDeliveries,
  issueQueue,
  queueIssue,
  requeueOrphans,
  workIssueQueue,
  type DeliveryCounts,
  type QueueTimings,
} from './delivery-queue.js';
import type { NewsletterIssue } from '../../../contract/newsletters.js';
import { EVERYONE_RESOLVED, recordSendAudience, type ResolvedAudience } from './audience.js';
import { createIssueRenderer, publicIssue, type MailedIssue } from './issue-versions.js';
import type { IssueMailSite } from './render-issue.js';
import type { UnsubscribeTokens } from './tokens.js';

export interface SendOptions {
  database: Database;
  /**
   * The app's job queue (the desk's "Send"). A process outside the app (`newsletter:send`) leaves
   * it out: the send then makes its own, through the same module, for as long as it runs.
   */
  jobs?: JobQueue;
  /** False on the embedded database, which one process opens at a time anyway. */
  lockable: boolean;
  mailer: Mailer;
  site: IssueMailSite;
  tokens: UnsubscribeTokens;
  /** The whole issue. */
  issue: NewsletterIssue & { path?: string };
  /**
   * Who may read it whole, and what the others get (issue-versions.ts); left out, everyone reads
   * it whole.
   */
  reading?: Omit<MailedIssue, 'issue'>;
  /**
   * Who it goes to (audience.ts); left out, every confirmed subscriber. Kept with the send: a
   * send started again without saying takes it (readSendAudience).
   */
  audience?: ResolvedAudience;
  timings: QueueTimings;
  concurrency: number;
  /** Called about once a second, and once at the end. */
  onProgress?: (progress: SendProgress) => void;
  progressIntervalMs?: number;
  signal?: AbortSignal;
}

export interface SendProgress {
  counts: DeliveryCounts;
  /** Mails this process sent per second since it started sending. */
  rate: number;
  /** Queued now by this run (the rest were queued by an earlier one). */
  newlyQueued: number;
  resumed: number;
  done: boolean;
}

export class SendLockedError extends Error {
  constructor(slug: string) {
    super(`"${slug}" is being sent by another process right now: wait for it, or stop it first.`);
    this.name = 'SendLockedError';
  }
}

/** The advisory lock one sender of an issue holds for the whole send (released if it dies). */
async function lockIssue(pool: pg.Pool, slug: string): Promise<pg.PoolClient> {
  const client = await pool.connect();
  const { rows } = await client.query<{ locked: boolean }>(
    `SELECT pg_try_advisory_lock(hashtext('cohort-newsletter'), hashtext($1)) AS locked`,
    [slug],
  );
  if (!rows[0]?.locked) {
    client.release();
    throw new SendLockedError(slug);
  }
  return client;
}

/**
 * Sends an issue to every confirmed subscriber of the audience it has not reached: keeps the
 * audience, queues the missing deliveries, puts a crashed sender's unfinished ones back, and works
 * the queue until none is left, each mail drawn as its reader may read the issue then. Started
 * again after any stop, it carries on where the last one ended: no one gets the issue twice.
 */
export async function sendIssue(options: SendOptions): Promise<SendProgress> {
  const { database, issue } = options;
  const pool = database.pool;
  const lock = options.lockable ? await lockIssue(pool, issue.slug) : null;
  const jobs =
    options.jobs ??
    createJobQueue(pool, { log: () => {}, maintenanceSeconds: options.timings.maintenanceSeconds });
  try {
    const queue = issueQueue(jobs, issue.slug, options.timings);
    await queue.start();
    // Holding the issue's lock, we are its only sender: any job still "active" lost its worker.
    const resumed = await requeueOrphans(pool, issue.slug);
    const audience = options.audience ?? EVERYONE_RESOLVED;
    await recordSendAudience(pool, issue.slug, audience);
    const newlyQueued = await queueIssue({ db: database }, queue, issue.slug, audience);
    const mailed = options.reading ? { issue, ...options.reading } : publicIssue(issue);
    const started = Date.now();
    let sentHere = 0;
    const progress = async (done: boolean): Promise<SendProgress> => {
      const seconds = (Date.now() - started) / 1000;
      return {
        counts: await countDeliveries(pool, issue.slug),
        rate: seconds > 0 ? sentHere / seconds : 0,
        newlyQueued,
        resumed,
        done,
      };
    };
    const timer = setInterval(() => {
      void progress(false).then(options.onProgress, () => {});
    }, options.progressIntervalMs ?? 1000);
    try {
      await workIssueQueue(
        pool,
        queue,
        issue.slug,
        {
          mailer: options.mailer,
          site: options.site,
          renderFor: createIssueRenderer(mailed, options.site),
          tokens: options.tokens,
          concurrency: options.concurrency,
          onOutcome: (outcome) => {
            if (outcome === 'sent') sentHere += 1;
          },
        },
        options.signal,
      );
    } finally {
      clearInterval(timer);
    }
    const final = await progress(true);
    options.onProgress?.(final);
    return final;
  } finally {
    // Its own queue only: the app's stops with the app.
    if (jobs !== options.jobs) await jobs.stop({ graceful: false }).catch(() => {});
    if (lock) {
      await lock
        .query(`SELECT pg_advisory_unlock(hashtext('cohort-newsletter'), hashtext($1))`, [
          issue.slug,
        ])
        .catch(() => {});
      lock.release();
    }
  }
}

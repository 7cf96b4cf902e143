import type pg from 'pg';
import { withTransaction } from '../db/transaction.js';
import {
  isLastTry,
  type Job,
  type JobQueue,
  type Queue,
  type QueuePolicy,
} from '../jobs/job-queue.js';
import type { Reader } from '../../../contract/reading.js';
import { isMembershipActive } from '../memberships/memberships.js';
import { classifySmtpFailure, type Mailer } from '../mail/mailer.js';
import type { Services } from '../services.js';
import {
  ACCESS_JOIN,
  EVERYONE_RESOLVED,
  IN_AUDIENCE,
  audienceParams,
  type ResolvedAudience,
} from './audience.js';
import { issueMailFor, type IssueMailSite, type RenderedIssue } from './render-issue.js';
import type { UnsubscribeTokens } from './tokens.js';

/**
 * Newsletter deliveries on the durable job queue in PostgreSQL (jobs/job-queue.ts): one job
 * per (issue, subscriber), whose id is the id of the delivery row that records what happened.
 * The row, not the job, is the truth: a job that runs again after a crash finds its row `sent`
 * and does nothing. See docs/decisions/0011-newsletter-queue.md.
 */

/** After 3 permanent refusals in a row an address is `bouncing` and gets no more mail. */
export const BOUNCE_AFTER = 3;

/**
 * The issue queue's policy (retries for a temporary (4xx) failure; the expiry after which a crashed
 * worker's deliveries resume, within a minute even when no sender restarts) and how often the job
 * queue looks for expired jobs.
 */
export interface QueueTimings extends QueuePolicy {
  maintenanceSeconds: number;
}

export const DEFAULT_TIMINGS: QueueTimings = {
  retryLimit: 5,
  retryDelaySeconds: 30,
  expireSeconds: 30,
  maintenanceSeconds: 10,
};

export const queueName = (slug: string) => `newsletter-${slug}`;

export interface DeliveryJob {
  deliveryId: string;
}

/** The issue's queue, with the timings' retries and expiry; its jobs are fetched by the sender. */
export function issueQueue(
  jobs: JobQueue,
  slug: string,
  timings: QueueTimings,
): Queue<DeliveryJob> {
  return jobs.define<DeliveryJob>({ name: queueName(slug), policy: timings });
}

/**
 * Who an issue goes to, for `s` a newsletter_subscribers row joined by ACCESS_JOIN: a confirmed
 * address of the audience (audience.ts). One condition for the send and for its dry run, so
 * `--dry-run` counts who the send would mail.
 */
const IS_RECIPIENT = `s."state" = 'confirmed' AND ${IN_AUDIENCE}`;

/**
 * A delivery row and a job for every confirmed subscriber of the audience the issue has not been
 * queued for, both in one transaction per chunk: no row without its job, no job without its row.
 * Queueing again adds only the addresses confirmed (or come into the audience) since.
 */
export async function queueIssue(
  { db }: Pick<Services, 'db'>,
  queue: Queue<DeliveryJob>,
  slug: string,
  audience: ResolvedAudience = EVERYONE_RESOLVED,
): Promise<number> {
  // Before the transactions: on the embedded database a transaction holds the one connection.
  await queue.start();
  let queued = 0;
  for (;;) {
    const added = await withTransaction(db.pool, async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO newsletter_deliveries ("id", "issueSlug", "subscriberId", "updatedAt")
         SELECT gen_random_uuid(), $1, s."id", now()
           FROM newsletter_subscribers s
           ${ACCESS_JOIN}
          WHERE ${IS_RECIPIENT}
            AND NOT EXISTS (SELECT 1 FROM newsletter_deliveries d
                             WHERE d."issueSlug" = $1 AND d."subscriberId" = s."id")
          ORDER BY s."id"
          LIMIT 5000
         ON CONFLICT ("issueSlug", "subscriberId") DO NOTHING
         RETURNING "id"`,
        [slug, ...audienceParams(audience)],
      );
      await queue.insert(
        rows.map((row) => ({ id: row.id, data: { deliveryId: row.id } })),
        tx,
      );
      return rows.length;
    });
    queued += added;
    if (added < 5000) return queued;
  }
}

/**
 * Jobs still marked running for this issue when no sender holds its lock: their worker died. They
 * go back on the queue at once, instead of waiting out their expiry.
 */
export async function requeueOrphans(pool: pg.Pool, slug: string): Promise<number> {
  const { rowCount } = await pool.query(
    `UPDATE pgboss.job SET state = 'retry', start_after = now()
      WHERE name = $1 AND state = 'active'`,
    [queueName(slug)],
  );
  return rowCount ?? 0;
}

export interface DeliveryCounts {
  queued: number;
  sent: number;
  failed: number;
  skipped: number;
  /** Failed deliveries whose address is now bouncing. */
  bounced: number;
}

export async function countDeliveries(pool: pg.Pool, slug: string): Promise<DeliveryCounts> {
  const { rows } = await pool.query<{ state: keyof DeliveryCounts; bouncing: boolean; n: number }>(
    `SELECT d."state", s."state" = 'bouncing' AS bouncing, count(*)::int AS n
       FROM newsletter_deliveries d JOIN newsletter_subscribers s ON s."id" = d."subscriberId"
      WHERE d."issueSlug" = $1
      GROUP BY 1, 2`,
    [slug],
  );
  const counts: DeliveryCounts = { queued: 0, sent: 0, failed: 0, skipped: 0, bounced: 0 };
  for (const row of rows) {
    counts[row.state] += row.n;
    if (row.state === 'failed' && row.bouncing) counts.bounced += row.n;
  }
  return counts;
}

export interface Worker {
  mailer: Mailer;
  site: IssueMailSite;
  /** The issue as this reader may read it (issue-versions.ts): the whole, or its opening. */
  renderFor: (reader: Reader) => RenderedIssue;
  tokens: UnsubscribeTokens;
  /** Mails in flight at once. */
  concurrency: number;
  /** Called after each delivery's outcome is recorded. */
  onOutcome?: (outcome: 'sent' | 'failed' | 'retry' | 'skipped') => void;
}

type Outcome = 'sent' | 'failed' | 'retry' | 'skipped' | 'done';

interface DeliveryRow {
  state: string;
  email: string;
  subscriberId: string;
  subscriberState: string;
  permanentFailures: number;
  /** The subscriber's account has a proven address (false without an account). */
  signedIn: boolean;
  /** The account's membership, if it has one (whether or not it gives access now). */
  plan: 'one-time' | 'subscription' | null;
  status: string | null;
  expiresAt: Date | null;
  tier: string | null;
}

/**
 * The subscriber as a reader (contract/reading.ts), from their account as it is now: signed in
 * once its address is proven, of its membership's tier while that gives access. A subscriber
 * without an account is a visitor.
 */
function readerOf(row: DeliveryRow): Reader {
  const membership =
    row.plan && row.status && row.expiresAt
      ? { plan: row.plan, status: row.status, expiresAt: row.expiresAt }
      : null;
  return { signedIn: row.signedIn, tier: isMembershipActive(membership) ? row.tier : null };
}

/** Delivers one job's mail and records the outcome on its row. */
async function deliver(pool: pg.Pool, worker: Worker, job: Job<DeliveryJob>): Promise<Outcome> {
  const { deliveryId } = job.data;
  const { rows } = await pool.query<DeliveryRow>(
    `SELECT d."state", s."email", s."id" AS "subscriberId", s."state" AS "subscriberState",
            s."permanentFailures", coalesce(u."emailVerifiedAt" IS NOT NULL, false) AS "signedIn",
            m."plan"::text AS plan, m."status", m."expiresAt", t."slug" AS tier
       FROM newsletter_deliveries d JOIN newsletter_subscribers s ON s."id" = d."subscriberId"
       LEFT JOIN users u ON u."id" = s."userId"
       LEFT JOIN memberships m ON m."userId" = s."userId"
       LEFT JOIN tiers t ON t."id" = m."tierId"
      WHERE d."id" = $1`,
    [deliveryId],
  );
  const row = rows[0];
  // Sent (or settled) before a crash: the job ran again, the mail must not.
  if (!row || row.state !== 'queued') return 'done';
  if (row.subscriberState !== 'confirmed') {
    await pool.query(
      `UPDATE newsletter_deliveries SET "state" = 'skipped', "updatedAt" = now() WHERE "id" = $1`,
      [deliveryId],
    );
    return 'skipped';
  }
  // The account is read as the mail goes out: who joined since the send began gets it whole, and
  // who left gets what the rule leaves anyone else.
  const mail = issueMailFor(
    worker.renderFor(readerOf(row)),
    worker.site,
    row.email,
    worker.tokens.sign(row.subscriberId),
    deliveryId,
  );
  try {
    await worker.mailer.send(mail);
  } catch (error) {
    const failure = classifySmtpFailure(error);
    const lastTry = failure.kind === 'permanent' || isLastTry(job);
    await pool.query(
      `UPDATE newsletter_deliveries
          SET "attempts" = "attempts" + 1, "lastError" = $2, "updatedAt" = now(),
              "state" = CASE WHEN $3 THEN 'failed'::newsletter_delivery_state ELSE "state" END
        WHERE "id" = $1`,
      [deliveryId, failure.message, lastTry],
    );
    if (failure.kind === 'permanent') {
      await pool.query(
        `UPDATE newsletter_subscribers
            SET "permanentFailures" = "permanentFailures" + 1, "updatedAt" = now(),
                "state" = CASE WHEN "permanentFailures" + 1 >= $2 AND "state" = 'confirmed'
                               THEN 'bouncing'::newsletter_state ELSE "state" END
          WHERE "id" = $1`,
        [row.subscriberId, BOUNCE_AFTER],
      );
    }
    return lastTry ? 'failed' : 'retry';
  }
  // Recorded the moment the server accepted it: see the decision note on the one gap left.
  await pool.query(
    `UPDATE newsletter_deliveries
        SET "state" = 'sent', "sentAt" = now(), "attempts" = "attempts" + 1, "updatedAt" = now()
      WHERE "id" = $1`,
    [deliveryId],
  );
  if (row.permanentFailures > 0) {
    await pool.query(
      `UPDATE newsletter_subscribers SET "permanentFailures" = 0, "updatedAt" = now() WHERE "id" = $1`,
      [row.subscriberId],
    );
  }
  return 'sent';
}

/**
 * Works the issue's queue until no delivery is left queued: fetches jobs in batches, keeps
 * `concurrency` mails in flight, completes jobs whose outcome is final and fails (for a later
 * retry, with backoff) those that met a temporary error. Stops early when `signal` aborts.
 */
export async function workIssueQueue(
  pool: pg.Pool,
  queue: Queue<DeliveryJob>,
  slug: string,
  worker: Worker,
  signal?: AbortSignal,
): Promise<void> {
  const batchSize = Math.max(worker.concurrency * 4, 20);
  while (!signal?.aborted) {
    const jobs = await queue.fetch(batchSize);
    if (jobs.length === 0) {
      const { rows } = await pool.query<{ left: number }>(
        `SELECT count(*)::int AS left FROM newsletter_deliveries
          WHERE "issueSlug" = $1 AND "state" = 'queued'`,
        [slug],
      );
      if ((rows[0]?.left ?? 0) === 0) return;
      // Some wait for a retry (or for their expiry after a crash): look again shortly.
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    const finished: string[] = [];
    let next = 0;
    const lane = async () => {
      for (let job = jobs[next++]; job; job = jobs[next++]) {
        const outcome = await deliver(pool, worker, job);
        if (outcome === 'retry') {
          await queue.fail(job.id, 'temporary SMTP failure');
        } else {
          finished.push(job.id);
        }
        if (outcome !== 'done') worker.onOutcome?.(outcome);
      }
    };
    await Promise.all(Array.from({ length: Math.min(worker.concurrency, jobs.length) }, lane));
    if (finished.length > 0) await queue.complete(finished);
  }
}

/** How many subscribers of the audience the issue would still reach (`--dry-run`): nothing is written. */
export async function countRecipients(
  { db }: Pick<Services, 'db'>,
  slug: string,
  audience: ResolvedAudience = EVERYONE_RESOLVED,
): Promise<{ recipients: number; alreadyQueued: number }> {
  const { rows } = await db.pool.query<{ recipients: number; already: number }>(
    `SELECT count(*) FILTER (WHERE d."id" IS NULL)::int AS recipients,
            count(d."id")::int AS already
       FROM newsletter_subscribers s
       LEFT JOIN newsletter_deliveries d ON d."subscriberId" = s."id" AND d."issueSlug" = $1
       ${ACCESS_JOIN}
      WHERE ${IS_RECIPIENT}`,
    [slug, ...audienceParams(audience)],
  );
  return { recipients: rows[0]?.recipients ?? 0, alreadyQueued: rows[0]?.already ?? 0 };
}

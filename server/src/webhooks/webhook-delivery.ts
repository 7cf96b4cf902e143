import http from 'node:http';
import https from 'node:https';
import type pg from 'pg';
import { withTransaction } from '../db/transaction.js';
import { openSecret, type KeySecrets } from '../integrations/integrations.js';
import { isLastTry, type JobQueue, type QueuePolicy } from '../jobs/job-queue.js';
import type { PostEventSubject } from '../outbox/webhook-events.js';
import { resolveTarget, type ResolvedTarget } from './safe-target.js';
import { signWebhook } from './webhook-signature.js';
import { webhookSecretId } from './webhook-store.js';

/**
 * Webhooks out on the job queue (jobs/job-queue.ts, as scheduled posts and the newsletter): the
 * deliveries a change recorded (webhook-events.ts) become jobs, each job's id its delivery's; a job
 * POSTs its event's JSON to the webhook's address, signed, and a failure (no whole answer within
 * the deadline, a refused address, a status other than 2xx) is tried again with the waits doubling
 * (about 10 s, 20 s, 40 s…), then the delivery is marked `failed`. The row, not the job, is the
 * truth: a job that runs again finds its row `sent` and does nothing. Several are sent at once, so
 * a receiver that answers a byte at a time holds one sender, for one deadline, not the queue.
 */

export const WEBHOOK_QUEUE = 'webhooks-out';

/** Deliveries sent at once by each server (one worker of the queue each). */
export const WEBHOOK_SENDERS = 4;

/** What is read of a receiver's answer before the connection is dropped: Ghost ignores it. */
export const WEBHOOK_ANSWER_BYTES = 4_096;

export interface WebhookTimings extends Pick<QueuePolicy, 'retryLimit' | 'retryDelaySeconds'> {
  /** How often a server looks for deliveries recorded by another (or missed). */
  pollMs: number;
  /** One attempt's whole time: connecting, sending, the status and the answer's first bytes. */
  deadlineMs: number;
}

export const DEFAULT_WEBHOOK_TIMINGS: WebhookTimings = {
  retryLimit: 5,
  retryDelaySeconds: 10,
  pollMs: 5_000,
  deadlineMs: 10_000,
};

export interface WebhookDeliveryOptions {
  /** What opens webhooks' sealed secrets (integrations.ts keySecretsOf). */
  secrets: KeySecrets;
  /** `WEBHOOKS_ALLOW_PRIVATE=on`: private and loopback addresses may be sent to. */
  allowPrivate: boolean;
  /**
   * A post in Ghost's JSON, as the Admin API answers it with its visibility and tiers, but of a
   * restricted post's text only what comes before the divider; null when it is gone.
   */
  renderPost(postId: number): Promise<Record<string, unknown> | null>;
  log: { error(object: unknown, message: string): void };
  timings?: Partial<WebhookTimings>;
}

export interface WebhookDelivery {
  /** Puts what was recorded on the queue now (after a change this server made). */
  kick(): void;
  /** Queues nothing more; the job queue's own stop waits for the deliveries in hand. */
  stop(): Promise<void>;
}

interface DeliveryRow {
  id: string;
  event: string;
  state: string;
  payload: Record<string, unknown>;
  targetUrl: string;
  secret: string | null;
  webhookId: string;
}

/** Starts looking for deliveries to send; the queue's workers start with the first one. */
export function startWebhookDelivery(
  pool: pg.Pool,
  jobs: JobQueue,
  options: WebhookDeliveryOptions,
): WebhookDelivery {
  const timings = { ...DEFAULT_WEBHOOK_TIMINGS, ...options.timings };
  let stopped = false;
  let moving: Promise<void> | null = null;
  const queue = jobs.define({
    name: WEBHOOK_QUEUE,
    policy: {
      retryLimit: timings.retryLimit,
      retryDelaySeconds: timings.retryDelaySeconds,
      expireSeconds: 60,
    },
    work: {
      // One delivery a worker at a time, WEBHOOK_SENDERS at once.
      workers: WEBHOOK_SENDERS,
      pollingIntervalSeconds: 1,
      async handle([job]) {
        if (job) await deliver(job.id, isLastTry(job));
      },
    },
  });

  /** The recorded deliveries, as jobs: row and job change in one transaction. */
  async function moveToQueue(): Promise<void> {
    const { rows } = await pool.query<{ id: string }>(
      `SELECT "id" FROM "webhook_deliveries" WHERE "state" = 'pending' LIMIT 1`,
    );
    if (rows.length === 0 || stopped) return;
    // Before the transaction: on the embedded database the transaction holds the one connection.
    await queue.start();
    for (;;) {
      const moved = await withTransaction(pool, async (tx) => {
        const { rows: ids } = await tx.query<{ id: string }>(
          `UPDATE "webhook_deliveries" SET "state" = 'queued', "updatedAt" = now()
            WHERE "id" IN (SELECT "id" FROM "webhook_deliveries" WHERE "state" = 'pending'
                            ORDER BY "createdAt" LIMIT 500 FOR UPDATE SKIP LOCKED)
            RETURNING "id"`,
        );
        if (ids.length === 0) return 0;
        await queue.insert(
          ids.map(({ id }) => ({ id, data: {} })),
          tx,
        );
        return ids.length;
      });
      if (moved < 500) return;
    }
  }

  function kick() {
    if (stopped) return;
    moving ??= moveToQueue()
      .catch((error: unknown) => options.log.error({ err: error }, 'could not queue webhooks'))
      .finally(() => {
        moving = null;
      });
  }

  async function deliver(id: string, lastTry: boolean): Promise<void> {
    const { rows } = await pool.query<DeliveryRow>(
      `SELECT d."id", d."event", d."state", d."payload", w."targetUrl", w."secret", w."id" AS "webhookId"
         FROM "webhook_deliveries" d JOIN "webhooks" w ON w."id" = d."webhookId"
        WHERE d."id" = $1`,
      [id],
    );
    const row = rows[0];
    // Sent already, or its webhook was removed since.
    if (!row || row.state === 'sent' || row.state === 'failed') return;
    const outcome = await send(row).then(
      (status) => ({ ok: status >= 200 && status < 300, status: String(status), error: null }),
      (error: unknown) => ({
        ok: false,
        status: 'not sent',
        error: error instanceof Error ? error.message : String(error),
      }),
    );
    const state = outcome.ok ? 'sent' : lastTry ? 'failed' : 'queued';
    await pool.query(
      `WITH d AS (UPDATE "webhook_deliveries" SET "state" = $2, "attempts" = "attempts" + 1,
                    "lastError" = $3, "updatedAt" = now() WHERE "id" = $1)
       UPDATE "webhooks" SET "lastTriggeredAt" = now(), "lastStatus" = $4 WHERE "id" = $5`,
      [
        id,
        state,
        outcome.ok ? null : (outcome.error ?? `answered ${outcome.status}`),
        outcome.status,
        row.webhookId,
      ],
    );
    if (!outcome.ok) {
      throw new Error(
        `webhook ${row.event} to ${row.targetUrl}: ${outcome.error ?? outcome.status}`,
      );
    }
  }

  /** The event's JSON, signed, POSTed to the webhook's checked address; answers the status. */
  async function send(row: DeliveryRow): Promise<number> {
    const body = JSON.stringify(await payloadOf(row));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'Cohort (Ghost-compatible webhooks)',
    };
    if (row.secret) {
      const secret = openSecret(options.secrets, webhookSecretId(row.webhookId), row.secret);
      // Sealed under a session secret no longer configured: sending it unsigned would mislead.
      if (!secret) throw new Error(`Webhook ${row.webhookId}'s secret cannot be opened`);
      headers['x-ghost-signature'] = signWebhook(body, secret.toString(), Date.now());
    }
    // One deadline for the whole attempt, from the name's lookup to the answer's last byte read:
    // a receiver that sends a byte now and then is never idle, so an idle timeout would not do.
    const expired = new AbortController();
    const deadline = setTimeout(() => {
      expired.abort(new Error(`no complete answer within ${timings.deadlineMs / 1000} s`));
    }, timings.deadlineMs);
    try {
      const target = await Promise.race([
        resolveTarget(new URL(row.targetUrl), options.allowPrivate),
        new Promise<never>((_resolve, reject) => {
          expired.signal.addEventListener('abort', () => reject(expired.signal.reason as Error));
        }),
      ]);
      return await post(target, headers, body, expired.signal);
    } finally {
      clearTimeout(deadline);
    }
  }

  async function payloadOf(row: DeliveryRow): Promise<Record<string, unknown>> {
    if (!row.event.startsWith('post.')) return row.payload;
    const { postId, previous } = row.payload as unknown as PostEventSubject;
    const current = (await options.renderPost(postId)) ?? {};
    return { post: { current, previous } };
  }

  const poll = setInterval(kick, timings.pollMs);
  poll.unref();
  kick();

  return {
    kick,
    async stop() {
      stopped = true;
      clearInterval(poll);
      await moving;
    },
  };
}

/**
 * POSTs to the address checked, until `signal` says the time is up; reads no more than
 * WEBHOOK_ANSWER_BYTES of the answer, and drops the connection once it has its outcome.
 */
function post(
  target: ResolvedTarget,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<number> {
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', expire);
      outcome();
      request.destroy();
    };
    const expire = () => settle(() => reject(signal.reason as Error));
    const request = client.request(
      target.url,
      {
        method: 'POST',
        headers,
        // The connection goes to the address checked, whatever the name resolves to now.
        lookup: (_host, lookupOptions, callback) => {
          if ((lookupOptions as { all?: boolean }).all) {
            (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
              { address: target.address, family: target.family },
            ]);
          } else callback(null, target.address, target.family);
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= WEBHOOK_ANSWER_BYTES) settle(() => resolve(status));
        });
        response.on('end', () => settle(() => resolve(status)));
        response.on('error', (error) => settle(() => reject(error)));
      },
    );
    request.on('error', (error) => settle(() => reject(error)));
    if (signal.aborted) {
      expire();
      return;
    }
    signal.addEventListener('abort', expire);
    request.end(body);
  });
}

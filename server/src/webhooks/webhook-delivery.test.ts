import { EventEmitter } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMigratedTestDatabase, type TestDatabase } from '#test/test-database';
import { createDatabase, type Database } from '../db/database.js';
import { createJobQueue, type JobQueue } from '../jobs/job-queue.js';
import { startWebhookDelivery, type WebhookDelivery } from './webhook-delivery.js';

// One receiver that answers a byte at a time must not hold up the others: deliveries run several
// at once, each has one deadline for the connection, the headers and the body, and no more than a
// few kilobytes of an answer are read. Real receivers on loopback (WEBHOOKS_ALLOW_PRIVATE=on).

const DEADLINE_MS = 5_000;

interface Answer {
  path: string;
  openedAt: number;
  closedAt: number | null;
}

describe('webhook deliveries beside a slow receiver', () => {
  let testDatabase: TestDatabase;
  let db: Database;
  let receiver: Server;
  let jobs: JobQueue;
  let delivery: WebhookDelivery;
  let integrationId: string;
  let base: string;
  const answers: Answer[] = [];
  const heard = new EventEmitter();

  /** Resolves once the receiver has had `count` requests for `path` (the test's time limit else). */
  async function requests(path: string, count: number): Promise<Answer[]> {
    const of = () => answers.filter((answer) => answer.path === path);
    while (of().length < count) await new Promise((resolve) => heard.once('request', resolve));
    return of();
  }

  /** Resolves once the receiver's side of an answer has closed. */
  async function closed(answer: Answer): Promise<number> {
    while (answer.closedAt === null) await new Promise((resolve) => heard.once('close', resolve));
    return answer.closedAt;
  }

  /** Polls a delivery's row until `done` says so. */
  async function rowWhen(
    id: string,
    done: (row: { state: string; attempts: number; lastError: string | null }) => boolean,
  ) {
    for (;;) {
      const { rows } = await db.pool.query<{
        state: string;
        attempts: number;
        lastError: string | null;
      }>(`SELECT "state", "attempts", "lastError" FROM "webhook_deliveries" WHERE "id" = $1`, [id]);
      const row = rows[0];
      if (row && done(row)) return row;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** A member.added delivery to a new webhook at `path`, put on the queue at once. */
  async function deliverTo(path: string): Promise<string> {
    const { rows } = await db.pool.query<{ id: string }>(
      `WITH w AS (INSERT INTO "webhooks" ("id", "integrationId", "event", "targetUrl")
                  VALUES (gen_random_uuid(), $1, 'member.added', $2) RETURNING "id")
       INSERT INTO "webhook_deliveries" ("id", "webhookId", "event", "payload")
       SELECT gen_random_uuid(), w."id", 'member.added', $3 FROM w RETURNING "id"`,
      [
        integrationId,
        `${base}${path}`,
        JSON.stringify({ member: { current: { email: `${path}@example.com` }, previous: {} } }),
      ],
    );
    const id = rows[0]?.id;
    if (!id) throw new Error('no delivery recorded');
    delivery.kick();
    return id;
  }

  function answer(path: string, response: ServerResponse): void {
    if (path === '/fast') {
      response.end('ok');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.flushHeaders();
    if (path === '/trickle') {
      // A byte every 200 ms: never idle long enough for an idle timeout, never done.
      const timer = setInterval(() => response.write('.'), 200);
      response.on('close', () => clearInterval(timer));
      return;
    }
    // '/flood': an answer that never ends, as fast as the connection takes it.
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const pump = () => {
      while (!response.destroyed && response.write(chunk));
    };
    response.on('drain', pump);
    pump();
  }

  beforeAll(async () => {
    testDatabase = await createMigratedTestDatabase();
    db = createDatabase(testDatabase.url, {
      maxConnections: testDatabase.embedded ? 1 : 6,
      embedded: testDatabase.embedded,
    });
    receiver = createServer((request, response) => {
      const seen: Answer = { path: request.url ?? '', openedAt: Date.now(), closedAt: null };
      answers.push(seen);
      response.on('close', () => {
        seen.closedAt = Date.now();
        heard.emit('close');
      });
      request.resume();
      request.on('end', () => {
        answer(seen.path, response);
        heard.emit('request');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    base = `http://127.0.0.1:${address.port}`;
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO "integrations" ("id", "name") VALUES (gen_random_uuid(), 'Receivers')
       RETURNING "id"`,
    );
    integrationId = rows[0]?.id ?? '';
    jobs = createJobQueue(db.pool, { log: () => {} });
    delivery = startWebhookDelivery(db.pool, jobs, {
      secrets: [],
      allowPrivate: true,
      renderPost: () => Promise.resolve(null),
      log: { error: () => {} },
      // Nothing found by polling: each delivery is kicked onto the queue by the test.
      timings: { retryLimit: 1, retryDelaySeconds: 1, pollMs: 600_000, deadlineMs: DEADLINE_MS },
    });
  });

  afterAll(async () => {
    receiver?.closeAllConnections();
    await delivery?.stop();
    await jobs?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
    await db?.close();
    await testDatabase?.drop();
  });

  it('delivers to a fast receiver while a trickling one is still answering, and cuts that one at its deadline', async () => {
    const slow = await deliverTo('/trickle');
    const [trickling] = await requests('/trickle', 1);
    if (!trickling) throw new Error('no request');

    const fast = await deliverTo('/fast');
    await requests('/fast', 1);
    expect(trickling.closedAt, 'the trickling answer was cut before the fast one came').toBeNull();
    expect(await rowWhen(fast, (row) => row.state === 'sent')).toMatchObject({ attempts: 1 });

    // Cut at its deadline, counted as a failed attempt, and tried again as any failure is.
    const cutAt = await closed(trickling);
    expect(cutAt - trickling.openedAt).toBeGreaterThanOrEqual(DEADLINE_MS - 1_000);
    expect(cutAt - trickling.openedAt).toBeLessThan(DEADLINE_MS + 15_000);
    const first = await rowWhen(slow, (row) => row.attempts >= 1);
    expect(first).toMatchObject({ state: 'queued', attempts: 1 });
    expect(first.lastError).toMatch(/no complete answer within 5 s/);
    const { rows: jobs } = await db.pool.query<{ state: string }>(
      `SELECT "state" FROM pgboss.job WHERE "id" = $1`,
      [slow],
    );
    expect(['retry', 'active']).toContain(jobs[0]?.state);

    await requests('/trickle', 2);
    expect(await rowWhen(slow, (row) => row.attempts >= 2)).toMatchObject({
      state: 'failed',
      attempts: 2,
      lastError: expect.stringMatching(/no complete answer/),
    });
  }, 90_000);

  it('reads only the start of an answer that does not end, and drops the connection', async () => {
    const id = await deliverTo('/flood');
    const [flood] = await requests('/flood', 1);
    if (!flood) throw new Error('no request');
    expect(await rowWhen(id, (row) => row.attempts >= 1)).toMatchObject({
      state: 'sent',
      lastError: null,
    });
    await closed(flood);
  }, 60_000);
});

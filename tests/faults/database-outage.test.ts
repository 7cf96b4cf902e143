import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../server/src/db/transaction.js';
import { isDatabaseUnavailable } from '../../server/src/plugins/app/error-handler.js';
import { FakeStripe } from '#test/fake-stripe';
import {
  deliverWebhook,
  newPaymentEvent,
  readLedger,
  type DeliveryOutcome,
  type PaymentEvent,
} from '#test/payment-deliveries';
import {
  findPostgresBinaries,
  startPostgresCluster,
  type PostgresCluster,
} from '#test/postgres-cluster';
import { startServerProcess, type ServerProcess } from '#test/site';
import { UNHEALTHY_AFTER_FAILED_CHECKS } from '../../server/src/routes/health/index.js';

/**
 * PostgreSQL stopped in the middle of traffic, as a crash or a power cut stops it: a cluster of
 * this test's own (initdb + pg_ctl), never the shared server, in front of the real built app.
 */

const bin = findPostgresBinaries();
const title = bin
  ? 'PostgreSQL stopped in the middle of traffic'
  : 'PostgreSQL stopped in the middle of traffic (SKIPPED: no initdb/pg_ctl; install PostgreSQL server binaries or set PG_BIN)';

/** The most any answer may take while the database is away: fail fast, never hang. */
const FAIL_FAST_MS = 5_000;
const DATABASE_MESSAGE = {
  code: 'service_unavailable',
  message: 'The site cannot reach its database right now. Please try again in a moment.',
};

interface Answer {
  route: string;
  status: number;
  ms: number;
  body: string;
}

describe.skipIf(!bin)(title, () => {
  let cluster: PostgresCluster;
  let app: ServerProcess;
  const stripe = new FakeStripe();

  beforeAll(async () => {
    cluster = await startPostgresCluster(bin ?? '');
    await stripe.start();
    // The app applies its migrations itself at start, as in production.
    app = await startServerProcess({
      DATABASE_URL: cluster.url,
      SESSION_RATE_LIMIT: '100000',
      ...stripe.env(),
    });
  });

  afterAll(async () => {
    await app?.stop();
    await stripe.stop();
    await cluster?.destroy();
  });

  async function call(route: string, init: RequestInit & { path: string }): Promise<Answer> {
    const started = performance.now();
    try {
      const response = await fetch(`${app.url}${init.path}`, {
        ...init,
        signal: AbortSignal.timeout(3 * FAIL_FAST_MS),
      });
      const body = await response.text();
      return { route, status: response.status, ms: performance.now() - started, body };
    } catch (error) {
      return { route, status: 0, ms: performance.now() - started, body: String(error) };
    }
  }

  async function startSession(): Promise<string> {
    const response = await fetch(`${app.url}/api/session`, { method: 'POST' });
    expect(response.status).toBe(200);
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toMatch(/^cohort_session=/);
    return cookie;
  }

  it('answers 503 fast while it is down, recovers without a restart, and a replay grants every payment once', async () => {
    const member = await startSession();
    const memberId = (
      (await (await fetch(`${app.url}/api/me`, { headers: { cookie: member } })).json()) as {
        user: { id: string };
      }
    ).user.id;
    const memberPayment = newPaymentEvent(stripe, memberId);
    expect((await deliverWebhook(app.url, stripe, memberPayment.event)).status).toBe(200);
    const deliveries: (DeliveryOutcome & { payment: PaymentEvent })[] = [];

    // Traffic: four visitors' loops reading and paying, until told to stop.
    const answers: Answer[] = [];
    let running = true;
    const loop = async (worker: number) => {
      for (let i = 0; running; i += 1) {
        const step = (worker + i) % 4;
        if (step === 0) {
          answers.push(await call('GET /api/me', { path: '/api/me', headers: { cookie: member } }));
        } else if (step === 1) {
          answers.push(
            await call('POST /api/session', {
              path: '/api/session',
              method: 'POST',
              headers: { cookie: member },
            }),
          );
        } else if (step === 2) {
          answers.push(await call('GET /api/config', { path: '/api/config' }));
        } else {
          const payment = newPaymentEvent(stripe);
          const outcome = await deliverWebhook(app.url, stripe, payment.event, 3 * FAIL_FAST_MS);
          deliveries.push({ ...outcome, payment });
          answers.push({ route: 'POST /webhooks/stripe', ...outcome });
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const traffic = Promise.all([0, 1, 2, 3].map(loop));
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const stoppedAt = performance.now();
    await cluster.stop('immediate');

    // /readyz turns 503 within a few seconds.
    let readyz: Answer | undefined;
    while (performance.now() - stoppedAt < FAIL_FAST_MS) {
      readyz = await call('GET /readyz', { path: '/readyz' });
      if (readyz.status === 503) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(readyz?.status, `${readyz?.body}\n${app.output()}`).toBe(503);
    expect(JSON.parse(readyz?.body ?? '{}')).toEqual({
      error: { code: 'database_unavailable', message: 'The database is not answering.' },
    });

    // While it is down: every route that needs the database answers 503 with the JSON error, fast.
    const register = await call('POST /api/auth/register', {
      path: '/api/auth/register',
      method: 'POST',
      headers: { cookie: member, 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'outage@example.com',
        password: 'a long enough passphrase 42',
      }),
    });
    const during = [
      await call('GET /api/me', { path: '/api/me', headers: { cookie: member } }),
      await call('POST /create-payment-intent', {
        path: '/create-payment-intent',
        method: 'POST',
        headers: { cookie: member, 'content-type': 'application/json' },
        body: JSON.stringify({ items: [{ id: 'early-access' }] }),
      }),
      register,
    ];
    for (const answer of during) {
      expect(answer.status, `${answer.route}: ${answer.body}`).toBe(503);
      expect(answer.ms, answer.route).toBeLessThan(FAIL_FAST_MS);
      expect(JSON.parse(answer.body), answer.route).toEqual({ error: DATABASE_MESSAGE });
    }
    const webhookDuring = await deliverWebhook(app.url, stripe, newPaymentEvent(stripe).event);
    expect(webhookDuring.status).toBe(503);
    // The process check says unhealthy once the database has failed a few checks in a row.
    const healthz: number[] = [];
    for (let i = 0; i < UNHEALTHY_AFTER_FAILED_CHECKS && healthz.at(-1) !== 503; i += 1) {
      healthz.push((await call('GET /healthz', { path: '/healthz' })).status);
    }
    expect(healthz.at(-1)).toBe(503);
    // What needs no database keeps working: the config, a new reader's session.
    expect((await call('GET /api/config', { path: '/api/config' })).status).toBe(200);
    expect((await call('POST /api/session', { path: '/api/session', method: 'POST' })).status).toBe(
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // the traffic meets the outage too

    // PostgreSQL comes back: the same process serves again, with no restart.
    await cluster.start();
    const restartedAt = performance.now();
    let ready: Answer | undefined;
    while (performance.now() - restartedAt < 10_000) {
      ready = await call('GET /readyz', { path: '/readyz' });
      if (ready.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(ready?.status).toBe(200);
    expect((await call('GET /healthz', { path: '/healthz' })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500)); // and the traffic sees it recover
    running = false;
    await traffic;
    expect(app.child.exitCode).toBeNull();
    expect(app.child.signalCode).toBeNull();
    const me = await call('GET /api/me', { path: '/api/me', headers: { cookie: member } });
    expect(me.status).toBe(200);
    expect(JSON.parse(me.body).user).toMatchObject({ id: memberId, isSubscribed: true });

    // Under traffic, nothing hung and nothing answered a raw 500 or leaked internals.
    for (const answer of answers) {
      expect(answer.status, `${answer.route}: ${answer.body}`).not.toBe(0);
      expect(answer.ms, answer.route).toBeLessThan(FAIL_FAST_MS);
      expect([200, 503], `${answer.route}: ${answer.body}`).toContain(answer.status);
      if (answer.status === 503)
        expect(JSON.parse(answer.body)).toEqual({ error: DATABASE_MESSAGE });
      expect(answer.body).not.toMatch(/ECONNREFUSED|Connection terminated|prisma|at .*\.js/i);
    }
    const statuses = (route: string) =>
      new Set(answers.filter((a) => a.route === route).map((a) => a.status));
    for (const route of ['GET /api/me', 'POST /api/session', 'POST /webhooks/stripe']) {
      expect([...statuses(route)].sort(), route).toEqual([200, 503]);
    }
    expect([...statuses('GET /api/config')]).toEqual([200]);

    // Stripe retries what was not acknowledged: every payment ends granted exactly once.
    const failed = deliveries.filter((delivery) => delivery.status !== 200);
    expect(failed.length).toBeGreaterThan(0);
    for (const delivery of failed) {
      expect((await deliverWebhook(app.url, stripe, delivery.payment.event)).status).toBe(200);
    }
    // A late duplicate of every acknowledged delivery changes nothing.
    for (const delivery of deliveries.filter((d) => d.status === 200)) {
      expect((await deliverWebhook(app.url, stripe, delivery.payment.event)).status).toBe(200);
    }
    const granted = [memberPayment, ...deliveries.map((delivery) => delivery.payment)];
    expect(await readLedger(cluster.url, granted)).toEqual({
      events: granted.length,
      payments: granted.length,
      memberships: granted.length,
      grantedTwice: 0,
      halfRecorded: 0,
    });
  }, 60_000);

  it('fails a transaction whose connection is lost between two statements, without crashing the process', async () => {
    // What crashed the app before: pg reports a connection lost while a transaction holds it as an
    // 'error' event on the client, and nobody listened. Here an unheard event fails the test run.
    const pool = new pg.Pool({ connectionString: cluster.url, max: 2 });
    pool.on('error', () => {});
    let firstStatementRan!: () => void;
    const ranFirst = new Promise<void>((resolve) => (firstStatementRan = resolve));
    let carryOn!: () => void;
    const paused = new Promise<void>((resolve) => (carryOn = resolve));
    const transaction = withTransaction(pool, async (tx) => {
      await tx.query('SELECT 1');
      firstStatementRan();
      await paused;
      await tx.query('SELECT 2');
    });
    const outcome = transaction.then(
      () => undefined,
      (error: unknown) => error,
    );
    try {
      await ranFirst;
      await cluster.stop('immediate');
      await new Promise((resolve) => setTimeout(resolve, 300)); // the 'error' event fires now
      carryOn();
      const error = await outcome;
      expect(error).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await cluster.start();
    }
    // The lost connection was thrown away: the pool serves again.
    expect((await pool.query<{ ok: number }>('SELECT 1 AS ok')).rows).toEqual([{ ok: 1 }]);
    await pool.end();
  });
});

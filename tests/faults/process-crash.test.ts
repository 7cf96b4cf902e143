import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeStripe } from '#test/fake-stripe';
import {
  deliverWebhook,
  newPaymentEvent,
  readLedger,
  type DeliveryOutcome,
  type PaymentEvent,
} from '#test/payment-deliveries';
import {
  canOpenPostgresDatabase,
  openPostgresDatabase,
  type PostgresDatabase,
} from '#test/postgres-cluster';
import { startServerProcess, type ServerProcess } from '#test/site';

/**
 * An app process killed (SIGKILL: no graceful shutdown, no finally blocks) while Stripe's webhook
 * deliveries stream in. What it acknowledged must be stored with its effect; what it did not, Stripe
 * delivers again, and each payment ends granted exactly once.
 */

const PAYMENTS = 240;
const CONCURRENCY = 16;
/** Kill the process once this many deliveries were acknowledged: well inside the stream. */
const KILL_AFTER_ACKNOWLEDGED = 60;

interface Delivery extends DeliveryOutcome {
  payment: PaymentEvent;
  startedAt: number;
  endedAt: number;
}

// PostgreSQL proper (TEST_DATABASE_URL, else a throwaway cluster): the embedded PGlite runs all
// connections on one session, which a client killed mid-transaction leaves stuck.
const title = canOpenPostgresDatabase()
  ? 'an app process killed in the middle of webhook deliveries'
  : 'an app process killed in the middle of webhook deliveries (SKIPPED: needs PostgreSQL: set TEST_DATABASE_URL or install initdb/pg_ctl)';

describe.skipIf(!canOpenPostgresDatabase())(title, () => {
  let database: PostgresDatabase;
  const stripe = new FakeStripe(); // holds the PaymentIntents the app re-reads, and signs
  const processes: ServerProcess[] = [];

  beforeAll(async () => {
    database = await openPostgresDatabase();
    await stripe.start();
  });
  afterAll(async () => {
    await Promise.all(processes.map((server) => server.stop()));
    await stripe.stop();
    await database?.drop();
  });

  const startApp = async () => {
    const app = await startServerProcess({ DATABASE_URL: database.url, ...stripe.env() });
    processes.push(app);
    return app;
  };

  it('loses nothing it acknowledged, and a replay of every delivery grants each payment once', async () => {
    const first = await startApp();
    const payments = Array.from({ length: PAYMENTS }, () => newPaymentEvent(stripe));
    const deliveries: Delivery[] = [];
    let killedAt = Infinity;
    const exited = new Promise<void>((resolve) => first.child.once('exit', () => resolve()));

    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let payment = payments[next++]; payment; payment = payments[next++]) {
          const startedAt = performance.now();
          const outcome = await deliverWebhook(first.url, stripe, payment.event, 10_000);
          deliveries.push({ ...outcome, payment, startedAt, endedAt: performance.now() });
          const acknowledged = deliveries.filter((d) => d.status === 200).length;
          if (acknowledged >= KILL_AFTER_ACKNOWLEDGED && killedAt === Infinity) {
            killedAt = performance.now();
            first.child.kill('SIGKILL');
          }
        }
      }),
    );
    await exited;
    expect(first.child.signalCode).toBe('SIGKILL');

    const acknowledged = deliveries.filter((d) => d.status === 200);
    const unanswered = deliveries.filter((d) => d.status === 0);
    // The kill landed mid-stream: some deliveries were on the wire when it came.
    const inFlight = unanswered.filter((d) => d.startedAt < killedAt);
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKNOWLEDGED);
    expect(inFlight.length).toBeGreaterThan(0);
    expect(acknowledged.length + unanswered.length).toBe(PAYMENTS);

    // A new process on the same database: every acknowledged payment is there, whole.
    const second = await startApp();
    const ackedPayments = acknowledged.map((d) => d.payment);
    expect(await readLedger(database.url, ackedPayments)).toEqual({
      events: ackedPayments.length,
      payments: ackedPayments.length,
      memberships: ackedPayments.length,
      grantedTwice: 0,
      halfRecorded: 0,
    });
    // Nothing is half-stored either: an unacknowledged delivery left all of its effect or none.
    expect((await readLedger(database.url, payments)).halfRecorded).toBe(0);

    // Stripe delivers everything again (acknowledged or not): each payment is granted once.
    for (const payment of payments) {
      expect((await deliverWebhook(second.url, stripe, payment.event)).status).toBe(200);
    }
    expect(await readLedger(database.url, payments)).toEqual({
      events: PAYMENTS,
      payments: PAYMENTS,
      memberships: PAYMENTS,
      grantedTwice: 0,
      halfRecorded: 0,
    });
  }, 60_000);
});

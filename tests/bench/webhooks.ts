// Verified, re-read and stored Stripe webhook events per second in one process: each delivery is
// a signed payment_intent.succeeded for a new visitor, checked by the SDK, its PaymentIntent read
// back from Stripe (the fake, answering locally), recorded once and placed on the ledger in one
// transaction. Target: 1000 events/s or more.
import { saveBenchResult } from '../support/bench-result.js';
import { newPaymentEvent } from '../support/payment-deliveries.js';
import { describeTestDatabase } from '../support/postgres-cluster.js';
import { FakeStripe } from '../support/fake-stripe.js';
import { createTestApp } from '../support/test-app.js';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 3000);
const CONCURRENCY = 20;
const TARGET = 1000;

const stripe = await new FakeStripe().start();
const bench = await createTestApp({ env: stripe.env() });
const url = `${await bench.app.listen({ host: '127.0.0.1', port: 0 })}/webhooks/stripe`;

const deliveries = Array.from({ length: EVENTS + 200 }, () =>
  stripe.signedDelivery(newPaymentEvent(stripe).event),
);
stripe.clearPending();

async function run(batch: typeof deliveries): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < batch.length) {
        const delivery = batch[next++];
        if (!delivery) break;
        const started = performance.now();
        const response = await fetch(url, {
          method: 'POST',
          body: delivery.payload,
          headers: delivery.headers,
        });
        if (response.status !== 200)
          throw new Error(`webhook answered ${response.status}: ${await response.text()}`);
        await response.arrayBuffer();
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

await run(deliveries.slice(0, 200)); // warm-up
const started = performance.now();
const latencies = await run(deliveries.slice(200));
const seconds = (performance.now() - started) / 1000;
const perSecond = EVENTS / seconds;

const granted = await bench.database.prisma.membership.count();
if (granted !== EVENTS + 200)
  throw new Error(`expected ${EVENTS + 200} memberships, found ${granted}`);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]?.toFixed(1);
const database = await describeTestDatabase(bench.testDatabase);
console.log(`database: ${database}; ${EVENTS} events, ${CONCURRENCY} at a time`);
console.log(`  p50 ${pct(0.5)} ms  p99 ${pct(0.99)} ms`);
const summary = `webhooks: ${perSecond.toFixed(0)} verified, re-read and stored events/s (target ≥ ${TARGET}: ${perSecond >= TARGET ? 'met' : 'NOT met'})`;
console.log(summary);
saveBenchResult({
  title: 'Webhook throughput (one process)',
  summary,
  setup:
    `${EVENTS} signed payment_intent.succeeded deliveries (after 200 to warm up), ${CONCURRENCY} at a ` +
    'time, straight to one in-process app: each verified by the Stripe SDK, its PaymentIntent ' +
    're-read from the fake Stripe in the same process, recorded once and placed on the ledger in ' +
    'one transaction.',
  database,
  tables: [
    {
      columns: ['events/s', 'p50 ms', 'p99 ms'],
      rows: [[perSecond.toFixed(0), pct(0.5) ?? '?', pct(0.99) ?? '?']],
    },
  ],
});
await bench.close();
await stripe.stop();

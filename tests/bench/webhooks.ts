// Verified and stored Stripe webhook events per second in one process: each delivery is a signed
// payment_intent.succeeded for a new visitor, checked by the SDK, recorded once and granting a
// membership in one transaction. Target: 500 events/s or more.
import { randomUUID } from 'node:crypto';
import { EARLY_ACCESS_OFFER } from '../../server/src/stripe-events/stripe-event-effects.js';
import { saveBenchResult } from '../support/bench-result.js';
import { describeTestDatabase } from '../support/postgres-cluster.js';
import { FakeStripe } from '../support/fake-stripe.js';
import { createTestApp } from '../support/test-app.js';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 3000);
const CONCURRENCY = 20;
const TARGET = 500;

const stripe = new FakeStripe(); // only signs payloads here: these events need no API call
const bench = await createTestApp({
  env: { ...stripe.env(), STRIPE_API_URL: 'http://127.0.0.1:9' },
});
const url = `${await bench.app.listen({ host: '127.0.0.1', port: 0 })}/webhooks/stripe`;

const deliveries = Array.from({ length: EVENTS + 200 }, () => {
  const intent = {
    id: `pi_${randomUUID().replaceAll('-', '')}`,
    object: 'payment_intent',
    amount: 1200,
    amount_received: 1200,
    currency: 'usd',
    status: 'succeeded',
    metadata: { userId: randomUUID(), offer: EARLY_ACCESS_OFFER },
  };
  return stripe.signedDelivery(stripe.event('payment_intent.succeeded', intent));
});

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
const summary = `webhooks: ${perSecond.toFixed(0)} verified and stored events/s (target ≥ ${TARGET}: ${perSecond >= TARGET ? 'met' : 'NOT met'})`;
console.log(summary);
saveBenchResult({
  title: 'Webhook throughput (one process)',
  summary,
  setup:
    `${EVENTS} signed payment_intent.succeeded deliveries (after 200 to warm up), ${CONCURRENCY} at a ` +
    'time, straight to one in-process app: each verified by the Stripe SDK, recorded once and ' +
    'granting a membership in one transaction.',
  database,
  tables: [
    {
      columns: ['events/s', 'p50 ms', 'p99 ms'],
      rows: [[perSecond.toFixed(0), pct(0.5) ?? '?', pct(0.99) ?? '?']],
    },
  ],
});
await bench.close();

// Verified, re-read and stored Stripe webhook events per second in one process: each delivery is
// a signed payment_intent.succeeded for a new visitor, checked by the SDK, its PaymentIntent read
// back from Stripe (the fake, answering locally), recorded once and placed on the ledger in one
// transaction. Target: 1000 events/s or more.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { saveBenchResult } from '#test/bench-result';
import { FAKE_STRIPE_KEYS } from '#test/fake-stripe';
import { describeTestDatabase } from '#test/postgres-cluster';
import { createTestApp } from '#test/test-app';

// tsx turns on source maps, and the Stripe SDK reads `new Error().stack` on every call: mapping it
// was about 5 % of this process's CPU. The built server runs without source maps (the image ships
// none), so the app is measured without them too.
process.setSourceMapsEnabled(false);

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 3000);
const WARMUP = 200;
const CONCURRENCY = 20;
const TARGET = 1000;

// Stripe and the deliveries run in a second process (webhook-sender.ts): this one runs the app.
const sender = spawn(process.execPath, ['--import', 'tsx', 'tests/bench/webhook-sender.ts'], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const replies = createInterface({ input: sender.stdout })[Symbol.asyncIterator]();
const nextReply = async <T>(): Promise<T> => {
  const { value, done } = await replies.next();
  if (done) throw new Error('the webhook sender stopped');
  return JSON.parse(value as string) as T;
};
const { stripeUrl } = await nextReply<{ stripeUrl: string }>();

// The pool production runs with (createDatabase's default).
const bench = await createTestApp({
  env: { ...FAKE_STRIPE_KEYS, STRIPE_API_URL: stripeUrl },
  maxConnections: 10,
});
const appUrl = await bench.app.listen({ host: '127.0.0.1', port: 0 });
sender.stdin.write(
  `${JSON.stringify({ appUrl, events: EVENTS, warmup: WARMUP, concurrency: CONCURRENCY })}\n`,
);
await nextReply<{ measuring: true }>();
const cpuBefore = process.cpuUsage();
const { seconds, latencies, cpuMs } = await nextReply<{
  seconds: number;
  latencies: number[];
  cpuMs: number;
}>();
const cpu = process.cpuUsage(cpuBefore);
const perSecond = EVENTS / seconds;
// CPU per event, as the two processes count it: on a shared machine the events/s move with the
// other load, these much less.
const appCpuMs = (cpu.user + cpu.system) / 1000 / EVENTS;
const senderCpuMs = cpuMs / EVENTS;

const granted = await bench.database.prisma.membership.count();
if (granted !== EVENTS + WARMUP)
  throw new Error(`expected ${EVENTS + WARMUP} memberships, found ${granted}`);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]?.toFixed(1);
const database = await describeTestDatabase(bench.testDatabase);
console.log(`database: ${database}; ${EVENTS} events, ${CONCURRENCY} at a time`);
console.log(`  p50 ${pct(0.5)} ms  p99 ${pct(0.99)} ms`);
console.log(
  `  CPU per event: app ${appCpuMs.toFixed(2)} ms, sender and fake Stripe ${senderCpuMs.toFixed(2)} ms`,
);
const summary = `webhooks: ${perSecond.toFixed(0)} verified, re-read and stored events/s (target ≥ ${TARGET}: ${perSecond >= TARGET ? 'met' : 'NOT met'})`;
console.log(summary);
saveBenchResult({
  title: 'Webhook throughput (one process)',
  summary,
  setup:
    `${EVENTS} signed payment_intent.succeeded deliveries (after 200 to warm up), ${CONCURRENCY} at a ` +
    'time, to one app process: each verified by the Stripe SDK, its PaymentIntent re-read from ' +
    'the fake Stripe (a second process, which also sends the deliveries), recorded once and ' +
    'placed on the ledger in one transaction.',
  database,
  tables: [
    {
      columns: ['events/s', 'p50 ms', 'p99 ms', 'app CPU ms/event', 'sender CPU ms/event'],
      rows: [
        [
          perSecond.toFixed(0),
          pct(0.5) ?? '?',
          pct(0.99) ?? '?',
          appCpuMs.toFixed(2),
          senderCpuMs.toFixed(2),
        ],
      ],
    },
  ],
});
await bench.close();

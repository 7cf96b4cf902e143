// The other side of tests/bench/webhooks.ts, in a process of its own so that the app's process
// measures only the app: Stripe (the fake, holding the PaymentIntents the app re-reads) and the
// deliveries, signed as Stripe signs them and sent `concurrency` at a time.
// Protocol: prints {"stripeUrl"} on a line; reads {"appUrl","events","warmup","concurrency"};
// prints {"measuring":true} once warmed up, then {"seconds","latencies","cpuMs"} and exits.
// Deliveries go over node:http with a keep-alive agent, as a load generator would: fetch (undici)
// cost this process about twice the CPU, taken from the two cores the app shares with it.
import http from 'node:http';
import { createInterface } from 'node:readline';
import { FakeStripe } from '#test/fake-stripe';
import { newPaymentEvent } from '#test/payment-deliveries';

const stripe = await new FakeStripe().start();
console.log(JSON.stringify({ stripeUrl: stripe.url }));

const lines = createInterface({ input: process.stdin });
const [line] = await lines[Symbol.asyncIterator]()
  .next()
  .then((next) => [next.value as string]);
const { appUrl, events, warmup, concurrency } = JSON.parse(line ?? '{}') as {
  appUrl: string;
  events: number;
  warmup: number;
  concurrency: number;
};

const deliveries = Array.from({ length: events + warmup }, () =>
  stripe.signedDelivery(newPaymentEvent(stripe).event),
);
stripe.clearPending();

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const webhookUrl = new URL('/webhooks/stripe', appUrl);

/** POSTs one delivery; resolves with the status and the body. */
function post(delivery: (typeof deliveries)[number]): Promise<{ status: number; body: string }> {
  const payload = Buffer.from(delivery.payload);
  return new Promise((resolve, reject) => {
    const request = http.request(
      webhookUrl,
      {
        method: 'POST',
        agent,
        headers: { ...delivery.headers, 'content-length': payload.length },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

async function run(batch: typeof deliveries): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let delivery = batch[next++]; delivery; delivery = batch[next++]) {
        const started = performance.now();
        const { status, body } = await post(delivery);
        if (status !== 200) throw new Error(`webhook answered ${status}: ${body}`);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

await run(deliveries.slice(0, warmup));
console.log(JSON.stringify({ measuring: true }));
const cpuBefore = process.cpuUsage();
const started = performance.now();
const latencies = await run(deliveries.slice(warmup));
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
console.log(JSON.stringify({ seconds, latencies, cpuMs: (cpu.user + cpu.system) / 1000 }));
agent.destroy();
lines.close();
await stripe.stop();

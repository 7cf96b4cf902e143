// The other side of tests/bench/webhooks.ts, in a process of its own so that the app's process
// measures only the app: Stripe (the fake, holding the PaymentIntents the app re-reads) and the
// deliveries, signed as Stripe signs them and sent `concurrency` at a time.
// Protocol: prints {"stripeUrl"} on a line; reads {"appUrl","events","warmup","concurrency"};
// prints {"seconds","latencies"} and exits.
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

async function run(batch: typeof deliveries): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let delivery = batch[next++]; delivery; delivery = batch[next++]) {
        const started = performance.now();
        const response = await fetch(`${appUrl}/webhooks/stripe`, {
          method: 'POST',
          body: delivery.payload,
          headers: delivery.headers,
        });
        const body = await response.text();
        if (response.status !== 200)
          throw new Error(`webhook answered ${response.status}: ${body}`);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

await run(deliveries.slice(0, warmup));
const started = performance.now();
const latencies = await run(deliveries.slice(warmup));
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ seconds, latencies }));
lines.close();
await stripe.stop();

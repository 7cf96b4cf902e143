import type { User } from '../../../../contract/api';

const POLL_EVERY_MS = 2_000;
const POLL_FOR_MS = 30_000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * After a payment, asks for the user every 2 s for up to 30 s until the membership shows: it
 * starts from Stripe's webhook, which can be a few seconds behind the payment. True once it shows;
 * false when time ran out or `signal` aborted.
 */
export async function waitForMembership(
  refresh: () => Promise<User | null>,
  signal: AbortSignal,
): Promise<boolean> {
  const startedAt = Date.now();
  while (!signal.aborted) {
    if ((await refresh())?.isSubscribed) return !signal.aborted;
    if (Date.now() - startedAt >= POLL_FOR_MS) return false;
    await sleep(POLL_EVERY_MS, signal);
  }
  return false;
}

import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { CounterStore } from './sign-in-throttle.js';

/**
 * Wrong sign-in codes one address may have in a day. Each mailed code takes five guesses, and a
 * new one can be asked for every few minutes: without this, about 2,400 guesses a day.
 */
export const CODE_LIMIT = { perAddress: 20, windowMs: 24 * 60 * 60 * 1000 };

export interface CodeLimit {
  /** Whether a code is still taken for the address (else only the link signs in). */
  allows(email: string): Promise<boolean>;
  missed(email: string): Promise<void>;
}

/**
 * The day's wrong codes per address, in the sign-in counters' store. Counted after the compare, so
 * guesses at one code in parallel can pass the limit by at most the four its row has left. Counters
 * that are down (Redis away) take the code: each code's own five tries still hold.
 */
export function createCodeLimit(
  store: CounterStore,
  log: FastifyBaseLogger,
  limit = CODE_LIMIT,
): CodeLimit {
  const keyOf = (email: string) =>
    `code-misses:${createHash('sha256').update(email).digest('base64url').slice(0, 32)}`;
  const unavailable = (error: unknown) =>
    log.warn({ err: error }, 'code counters unavailable: not limiting sign-in codes');
  return {
    async allows(email) {
      try {
        const [misses = 0] = await store.read([keyOf(email)]);
        return misses < limit.perAddress;
      } catch (error) {
        unavailable(error);
        return true;
      }
    },
    async missed(email) {
      await store.increment([keyOf(email)], limit.windowMs).catch(unavailable);
    },
  };
}

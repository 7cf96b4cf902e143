import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { CounterStore } from './sign-in-throttle.js';

/** Sign-in and registration mails one address gets, at most, per window. */
export const MAIL_LIMIT = { perAddress: 5, windowMs: 15 * 60 * 1000 };

/**
 * A silent limit on the mails sent to one address (so nobody can fill an inbox through the forms):
 * past it, the request answers as always and nothing is mailed. It counts every address the same
 * way, whether or not it has an account. Counters that are down (Redis away) let the mail go.
 */
export function createMailLimit(store: CounterStore, limit = MAIL_LIMIT) {
  return {
    async allows(email: string, request: FastifyRequest): Promise<boolean> {
      const key = `mail:${createHash('sha256').update(email).digest('base64url').slice(0, 32)}`;
      try {
        const [count = 0] = await store.increment([key], limit.windowMs);
        return count <= limit.perAddress;
      } catch (error) {
        request.log.warn({ err: error }, 'mail counters unavailable: not limiting this mail');
        return true;
      }
    },
  };
}

import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { DomainError } from '../domain-error.js';
import type { Services } from '../services.js';

/**
 * Failed sign-ins, counted so that guessing is slow but nobody can lock an owner out:
 * - per (email, address): an address that keeps guessing one account is refused for a while;
 * - per address: an address guessing many accounts is refused for a while;
 * - per email, across all addresses: past a threshold every further try is slowed by a delay
 *   that grows, never refused, and an address this account signed in from before skips it.
 * So ten wrong passwords from ten addresses leave the owner's sign-in working. The counters live
 * in Redis when it is configured (shared by every app server), in PostgreSQL otherwise: never in
 * a process cache that a flood of junk could empty.
 */

export const SIGN_IN_LIMITS = {
  windowMs: 15 * 60 * 1000,
  /** Failures for one email from one address before that pair is refused. */
  perEmailAndAddress: 10,
  /** Failures from one address, over any emails, before it is refused. */
  perAddress: 50,
  /** Failures for one email from anywhere before tries are slowed. */
  slowAfter: 10,
  delayStepMs: 250,
  maxDelayMs: 5_000,
  /** How long an address that signed in well is remembered for its account. */
  knownAddressMs: 90 * 24 * 3600 * 1000,
};

/** Counters that expire: Redis when configured, else a PostgreSQL table. */
export interface CounterStore {
  /** Adds one to each key (its window starts at its first count) and answers the new counts. */
  increment(keys: string[], windowMs: number): Promise<number[]>;
  read(keys: string[]): Promise<number[]>;
  remove(keys: string[]): Promise<void>;
}

export function redisCounters(redis: Redis, prefix = 'cohort-sign-in:'): CounterStore {
  return {
    async increment(keys, windowMs) {
      const multi = redis.multi();
      for (const key of keys) {
        // The window starts with the first failure (SET NX), then only the count moves.
        multi.set(prefix + key, 0, 'PX', windowMs, 'NX');
        multi.incr(prefix + key);
      }
      const results = (await multi.exec()) ?? [];
      return keys.map((_, index) => Number(results[index * 2 + 1]?.[1] ?? 0));
    },
    async read(keys) {
      const values = await redis.mget(keys.map((key) => prefix + key));
      return values.map((value) => Number(value ?? 0));
    },
    async remove(keys) {
      await redis.del(...keys.map((key) => prefix + key));
    },
  };
}

export function databaseCounters({ db }: Pick<Services, 'db'>): CounterStore {
  return {
    async increment(keys, windowMs) {
      const { rows } = await db.pool.query<{ key: string; count: number }>(
        `INSERT INTO sign_in_counters (key, count, "expiresAt")
         SELECT key, 1, now() + make_interval(secs => $2) FROM unnest($1::text[]) AS key
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN sign_in_counters."expiresAt" <= now() THEN 1
                        ELSE sign_in_counters.count + 1 END,
           "expiresAt" = CASE WHEN sign_in_counters."expiresAt" <= now() THEN EXCLUDED."expiresAt"
                              ELSE sign_in_counters."expiresAt" END
         RETURNING key, count`,
        [keys, windowMs / 1000],
      );
      // Now and then, forget what has expired (the rows are tiny; this keeps the table small).
      if (Math.random() < 0.01) {
        await db.pool.query('DELETE FROM sign_in_counters WHERE "expiresAt" <= now()');
      }
      const counts = new Map(rows.map((row) => [row.key, row.count]));
      return keys.map((key) => counts.get(key) ?? 0);
    },
    async read(keys) {
      const { rows } = await db.pool.query<{ key: string; count: number }>(
        `SELECT key, count FROM sign_in_counters
         WHERE key = ANY($1::text[]) AND "expiresAt" > now()`,
        [keys],
      );
      const counts = new Map(rows.map((row) => [row.key, row.count]));
      return keys.map((key) => counts.get(key) ?? 0);
    },
    async remove(keys) {
      await db.pool.query('DELETE FROM sign_in_counters WHERE key = ANY($1::text[])', [keys]);
    },
  };
}

const digest = (...parts: string[]) =>
  createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 32);

function keysFor(email: string, address: string) {
  return {
    pair: `pair:${digest(email, address)}`,
    address: `address:${digest(address)}`,
    email: `email:${digest(email)}`,
    known: `known:${digest(email, address)}`,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface SignInThrottle {
  /** Before checking a password: refuses (429) or waits as the counts say. */
  beforeAttempt(email: string, address: string): Promise<void>;
  failed(email: string, address: string): Promise<void>;
  succeeded(email: string, address: string): Promise<void>;
}

export function createSignInThrottle(
  store: CounterStore,
  limits = SIGN_IN_LIMITS,
  wait: (ms: number) => Promise<unknown> = sleep,
): SignInThrottle {
  return {
    async beforeAttempt(email, address) {
      const keys = keysFor(email, address);
      const [pair = 0, fromAddress = 0, forEmail = 0, known = 0] = await store.read([
        keys.pair,
        keys.address,
        keys.email,
        keys.known,
      ]);
      if (pair >= limits.perEmailAndAddress || fromAddress >= limits.perAddress) {
        throw new DomainError(
          429,
          'rate_limited',
          'Too many failed sign-ins from here: try again in 15 minutes, or reset your password.',
          {},
          Math.ceil(limits.windowMs / 1000),
        );
      }
      if (known === 0 && forEmail >= limits.slowAfter) {
        const over = forEmail - limits.slowAfter + 1;
        await wait(Math.min(limits.maxDelayMs, over * limits.delayStepMs));
      }
    },
    async failed(email, address) {
      const keys = keysFor(email, address);
      await store.increment([keys.pair, keys.address, keys.email], limits.windowMs);
    },
    async succeeded(email, address) {
      const keys = keysFor(email, address);
      await store.remove([keys.pair]);
      await store.increment([keys.known], limits.knownAddressMs);
    },
  };
}

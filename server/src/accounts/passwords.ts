import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import {
  hasControlCharacters,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
} from '../../../contract/account-rules.js';
import { DomainError } from '../domain-error.js';
import { estimateStrength } from './strength-estimator.js';

/** scrypt, memory-hard: N = 2^15, r = 8 → 32 MiB and ~50 ms per hash on a small VPS. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, keyLength: 32 };

/**
 * How many password hashes run at once, and how many may wait. scrypt runs on libuv's thread
 * pool (4 threads), which also reads the static files: two hashes at a time leave it room, and a
 * flood of sign-ups waits in a short queue, then gets 503 instead of starving the site.
 */
export const HASHING = { concurrent: 2, waiting: 32, retryAfterSeconds: 2 };

let running = 0;
const queue: (() => void)[] = [];

/** Runs `work` in one of the hashing slots, or answers 503 when the queue is full. */
async function inHashingSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASHING.concurrent) {
    if (queue.length >= HASHING.waiting) {
      throw new DomainError(
        503,
        'busy',
        'The site is very busy signing people in: please try again in a few seconds.',
        {},
        HASHING.retryAfterSeconds,
      );
    }
    await new Promise<void>((resolve) => queue.push(resolve));
  } else {
    running += 1;
  }
  try {
    return await work();
  } finally {
    // Hand the slot straight to the next in line, or free it.
    const next = queue.shift();
    if (next) next();
    else running -= 1;
  }
}

function deriveKey(password: string, salt: Buffer, params = SCRYPT): Promise<Buffer> {
  const options: ScryptOptions = {
    N: params.N,
    r: params.r,
    p: params.p,
    maxmem: 128 * params.N * params.r * params.p * 2,
  };
  return inHashingSlot(
    () =>
      new Promise((resolve, reject) =>
        scrypt(password.normalize('NFKC'), salt, params.keyLength, options, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
  );
}

/** `scrypt$N$r$p$salt$key`, salt and key in base64: the parameters travel with the hash. */
export async function getPasswordHash(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await deriveKey(password, salt);
  const { N, r, p } = SCRYPT;
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const params = { N: Number(N), r: Number(r), p: Number(p), keyLength: expected.length };
  const actual = await deriveKey(password, Buffer.from(salt, 'base64'), params);
  return timingSafeEqual(actual, expected);
}

/**
 * A hash of a password nobody has, checked when an email is unknown, so an unknown email and a
 * wrong password take the same time to refuse.
 */
let decoyHash: Promise<string> | undefined;
export async function spendPasswordCheck(password: string): Promise<void> {
  decoyHash ??= getPasswordHash(randomBytes(16).toString('hex'));
  await verifyPassword(password, await decoyHash);
}

/** The score a new password needs (0-4): 3 is "safely unguessable: moderate protection". */
export const MIN_PASSWORD_SCORE = 3;

/** The rule's own reasons: length and characters, no estimate needed. */
function shapeProblem(password: string): string | null {
  if (hasControlCharacters(password)) {
    return 'A password cannot contain control characters (such as NUL or a line break).';
  }
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  }
  return null;
}

/**
 * The reason a new password is refused, or null when it is acceptable: its shape, then
 * zxcvbn-ts's estimate (on a worker thread, strength-estimator.ts) with its hint.
 */
export async function checkNewPassword(
  password: string,
  userInputs: string[] = [],
): Promise<string | null> {
  const shape = shapeProblem(password);
  if (shape) return shape;
  const estimate = await estimateStrength(password, userInputs);
  if (estimate.score >= MIN_PASSWORD_SCORE) return null;
  const hint = [estimate.warning, ...estimate.suggestions].filter(Boolean).join(' ');
  return `That password is too easy to guess.${hint ? ` ${hint}` : ''} A few unrelated words make a strong one.`;
}

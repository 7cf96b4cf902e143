import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { dictionary } from '@zxcvbn-ts/language-common';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../../contract/account-rules.js';

/** scrypt, memory-hard: N = 2^15, r = 8 → 32 MiB and ~50 ms per hash on a small VPS. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, keyLength: 32 };

function deriveKey(password: string, salt: Buffer, params = SCRYPT): Promise<Buffer> {
  const options: ScryptOptions = {
    N: params.N,
    r: params.r,
    p: params.p,
    maxmem: 128 * params.N * params.r * params.p * 2,
  };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, params.keyLength, options, (error, key) =>
      error ? reject(error) : resolve(key),
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

let commonPasswords: Set<string> | undefined;

/** The reason a new password is refused, or null when it is acceptable. */
export function checkNewPassword(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  }
  // zxcvbn-ts's ranked list of ~49,000 passwords seen most often in breaches.
  commonPasswords ??= new Set(
    dictionary['passwords-common'].filter((common) => common.length >= MIN_PASSWORD_LENGTH),
  );
  if (commonPasswords.has(password.toLowerCase())) {
    return 'That password is one of the most common ones: choose something less guessable.';
  }
  return null;
}

import { createHash, randomBytes } from 'node:crypto';

/**
 * The secret in a mailed link (a sign-in, a password reset, a gift's claim): 32 random bytes. Only
 * its SHA-256 is stored, so a copy of the database opens nothing.
 */
export const newLinkToken = (): string => randomBytes(32).toString('base64url');

export const hashLinkToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { UUID_PATTERN } from '../../../contract/constants.js';

/**
 * The token in every newsletter's unsubscribe link and List-Unsubscribe header: the subscriber's
 * id and an HMAC of it under a key derived from SESSION_SECRET. It never expires (a mail read a
 * year later must still unsubscribe) and needs no database row.
 */
export interface UnsubscribeTokens {
  sign(subscriberId: string): string;
  /** The subscriber id the token was made for, or null for a token we did not make. */
  verify(token: string): string | null;
}

export function createUnsubscribeTokens(secret: string): UnsubscribeTokens {
  const key = createHmac('sha256', secret).update('cohort newsletter unsubscribe').digest();
  const mac = (id: string) =>
    createHmac('sha256', key).update(id).digest().subarray(0, 18).toString('base64url');
  return {
    sign: (subscriberId) => `${subscriberId}.${mac(subscriberId)}`,
    verify(token) {
      const [id, signature, ...rest] = token.split('.');
      if (!id || !signature || rest.length > 0 || !UUID_PATTERN.test(id)) return null;
      const expected = Buffer.from(mac(id));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
    },
  };
}

/** A confirmation link's token: random, only its SHA-256 is stored. */
export function createConfirmToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashConfirmToken(token) };
}

export const hashConfirmToken = (token: string) => createHash('sha256').update(token).digest('hex');

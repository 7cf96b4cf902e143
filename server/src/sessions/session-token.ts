import { createHash, webcrypto } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { UUID_PATTERN } from '../../../contract/constants.js';

/** Sessions last a year and are re-issued once past half their life. */
export const SESSION_TTL_SECONDS = 365 * 24 * 60 * 60;

export interface SessionClaims {
  userId: string;
  /** The user's session version when the token was issued; 0 for an anonymous visitor. */
  sessionVersion: number;
  /** A registered user's session (the `sessions` row it names); absent for anonymous readers. */
  sessionId?: string;
  issuedAt: number;
  expiresAt: number;
  /** Signed with `SESSION_SECRET_PREVIOUS`: re-issued with the current key on this response. */
  signedWithPrevious: boolean;
}

export interface SessionTokens {
  sign(userId: string, sessionVersion: number, sessionId?: string): Promise<string>;
  /** The claims of a valid token, or null for anything else: never throws on bad input. */
  verify(token: string): Promise<SessionClaims | null>;
}

interface SigningKey {
  id: string;
  key: Promise<webcrypto.CryptoKey>;
}

/** How many verified tokens to remember; each is ~300 bytes. */
const VERIFIED_CACHE_SIZE = 10_000;

function signingKey(secret: string): SigningKey {
  // The key id names the key without revealing it, so rotation can pick the right one.
  const id = createHash('sha256').update(secret).digest('base64url').slice(0, 12);
  // Imported once: jose would import a raw secret again on every call.
  const key = webcrypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  return { id, key };
}

/**
 * HS256 JWTs signed with `current`; tokens signed with `previous` still verify, so the secret can
 * be rotated without signing everybody out.
 *
 * Verified tokens are remembered (bounded, least recently used first out): a token string that
 * once verified is the same signed bytes the next time, so only its expiry needs checking again.
 * Verification is most of a session request's cost otherwise (see tests/bench/session-me.ts).
 */
export function createSessionTokens(current: string, previous?: string): SessionTokens {
  const signing = signingKey(current);
  const keys = new Map(
    [signing, ...(previous ? [signingKey(previous)] : [])].map((k) => [k.id, k]),
  );
  const verified = new Map<string, SessionClaims>();

  function remember(token: string, claims: SessionClaims) {
    verified.set(token, claims);
    if (verified.size > VERIFIED_CACHE_SIZE) {
      const oldest = verified.keys().next().value;
      if (oldest !== undefined) verified.delete(oldest);
    }
  }

  return {
    async sign(userId, sessionVersion, sessionId) {
      return new SignJWT({ sv: sessionVersion, ...(sessionId && { sid: sessionId }) })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: signing.id })
        .setSubject(userId)
        .setIssuedAt()
        .setExpirationTime(`${SESSION_TTL_SECONDS}s`)
        .sign(await signing.key);
    },

    async verify(token) {
      if (token.length > 2048) return null;
      const known = verified.get(token);
      if (known) {
        verified.delete(token);
        if (known.expiresAt <= Math.floor(Date.now() / 1000)) return null;
        verified.set(token, known); // most recently used goes last
        return known;
      }
      try {
        let keyId: string | undefined;
        const { payload } = await jwtVerify(
          token,
          (header) => {
            const key = header.kid ? keys.get(header.kid) : undefined;
            if (!key) throw new errors.JWSSignatureVerificationFailed('unknown key id');
            keyId = key.id;
            return key.key;
          },
          { algorithms: ['HS256'], requiredClaims: ['sub', 'iat', 'exp'] },
        );
        const { sub, sv, sid, iat, exp } = payload;
        if (typeof sub !== 'string' || !UUID_PATTERN.test(sub)) return null;
        if (typeof sv !== 'number' || !Number.isInteger(sv) || sv < 0) return null;
        if (sid !== undefined && (typeof sid !== 'string' || !UUID_PATTERN.test(sid))) return null;
        if (typeof iat !== 'number' || typeof exp !== 'number') return null;
        const claims: SessionClaims = {
          userId: sub,
          sessionVersion: sv,
          ...(sid !== undefined && { sessionId: sid }),
          issuedAt: iat,
          expiresAt: exp,
          signedWithPrevious: keyId !== signing.id,
        };
        remember(token, claims);
        return claims;
      } catch {
        return null;
      }
    },
  };
}

export function needsRefresh(claims: SessionClaims, nowSeconds = Math.floor(Date.now() / 1000)) {
  return nowSeconds - claims.issuedAt > (claims.expiresAt - claims.issuedAt) / 2;
}

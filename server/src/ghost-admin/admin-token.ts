import { decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import { DomainError } from '../domain-error.js';

/**
 * Ghost's Admin API token (docs/ghost-api.md#admin-api): `Authorization: Ghost <jwt>`, a JWT
 * signed HS256 with an admin key's secret (the key's 64 hex digits as bytes), its header's `kid`
 * the key's 24-hex id, its `aud` the admin API (`/admin/`; `/admin`, `admin` and a versioned
 * `/v4/admin/` are taken too, as Ghost takes them), valid at most five minutes.
 */

/** The longest a token may live (`exp - iat`), as Ghost allows. */
export const MAX_TOKEN_LIFE_S = 5 * 60;
/** Clocks a little apart still agree. */
const CLOCK_TOLERANCE_S = 30;
const AUDIENCES = /^\/?(v[2-6](\.\d+)?\/)?admin\/?$/;
const KEY_ID = /^[0-9a-f]{24}$/;

/** 401 in Ghost's words: what every bad token is answered, saying why. */
export const invalidToken = (message: string) =>
  new DomainError(401, 'INVALID_JWT', message, { ghostType: 'UnauthorizedError' });

/** The token of an `Authorization: Ghost <token>` header, or null when it has none. */
export function tokenOf(header: string | undefined): string | null {
  const match = /^Ghost\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

/** The key id a token names (its `kid`), before its signature is checked. */
export function keyIdOf(token: string): string {
  let kid: unknown;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    throw invalidToken('Invalid token: it is not a JWT.');
  }
  if (typeof kid !== 'string' || !KEY_ID.test(kid)) {
    throw invalidToken('Invalid token: its kid must be an admin key id (24 hex digits).');
  }
  return kid;
}

/**
 * Checks a token against its key's secret: HS256, an admin audience, issued and expiring within
 * five minutes of each other, and not expired. Throws a 401 saying what is wrong.
 */
export async function verifyAdminToken(token: string, secret: Uint8Array, now = new Date()) {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      clockTolerance: CLOCK_TOLERANCE_S,
      currentDate: now,
      requiredClaims: ['exp', 'iat'],
    }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw invalidToken('Invalid token: it expired.');
    if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
      throw invalidToken('Invalid token: its signature does not match the key.');
    }
    if (error instanceof joseErrors.JOSEError) {
      throw invalidToken(`Invalid token: ${error.message}.`);
    }
    throw error;
  }
  const audiences = [payload.aud ?? []].flat();
  if (!audiences.some((audience) => AUDIENCES.test(audience))) {
    throw invalidToken('Invalid token: its audience must be /admin/.');
  }
  const { exp, iat } = payload as { exp: number; iat: number };
  if (exp - iat > MAX_TOKEN_LIFE_S) {
    throw invalidToken('Invalid token: it must expire within 5 minutes of being issued.');
  }
  if (iat > now.getTime() / 1000 + CLOCK_TOLERANCE_S) {
    throw invalidToken('Invalid token: it was issued in the future.');
  }
}

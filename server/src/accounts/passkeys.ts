import { randomUUID } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { DomainError } from '../domain-error.js';
import type { Session } from '../sessions/session.js';
import type { Services } from '../services.js';
import { PASSKEY_NAME_MAX_LENGTH, type Passkey } from '../../../contract/passkeys.js';
import { describeBrowser } from '../sessions/describe-browser.js';
import { followIntoAccount, type SessionGrant } from './accounts.js';
import { cleanLine } from '../../../contract/text-hygiene.js';

/**
 * Passkeys (WebAuthn credentials through SimpleWebAuthn, decision 15). A ceremony's challenge is
 * stored here, found again by the id the browser holds in an HttpOnly cookie, and deleted by the
 * first answer that names it, whether that answer verifies or not. A passkey proves its holder
 * owns the account; it proves nothing about the account's address.
 */

/** How long a challenge waits for its answer (and the browser's prompt for the user). */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;

/** Who the credentials are for: derived from SITE_URL and SITE_NAME. */
export interface RelyingParty {
  /** SITE_URL's hostname (an IP address is no valid RP id: serve the site under a name). */
  id: string;
  /** SITE_URL's origin: the only page a ceremony may come from. */
  origin: string;
  name: string;
}

export function relyingPartyOf(siteUrl: string, siteName: string): RelyingParty {
  const url = new URL(siteUrl);
  return { id: url.hostname, origin: url.origin, name: siteName };
}

type Purpose = 'register' | 'sign-in';

const challengeInvalid = () =>
  new DomainError(
    400,
    'passkey_challenge_invalid',
    'This passkey request has expired or was already answered. Try again.',
  );
const notVerified = (status: 400 | 401) =>
  new DomainError(
    status,
    'passkey_not_verified',
    'The passkey’s answer could not be verified. Nothing was changed: try again.',
  );
const notRecognized = () =>
  new DomainError(
    401,
    'passkey_not_recognized',
    'This passkey does not belong to an account here (it may have been removed). Sign in another way.',
  );

/** The WebAuthn user handle of an account: its id's 16 bytes, nothing personal. */
const userHandleOf = (userId: string) => Buffer.from(userId.replaceAll('-', ''), 'hex');

async function storeChallenge(
  { db }: Pick<Services, 'db'>,
  row: { purpose: Purpose; challenge: string; userId?: string; sessionId?: string },
): Promise<string> {
  const id = randomUUID();
  // Unanswered challenges go as new ones come: one indexed DELETE, no timer to run.
  await db.pool.query('DELETE FROM passkey_challenges WHERE "expiresAt" < now()');
  await db.pool.query(
    `INSERT INTO passkey_challenges (id, purpose, challenge, "userId", "sessionId", "expiresAt")
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      id,
      row.purpose,
      row.challenge,
      row.userId ?? null,
      row.sessionId ?? null,
      new Date(Date.now() + PASSKEY_CHALLENGE_TTL_MS),
    ],
  );
  return id;
}

/** Takes a challenge out for good: a second answer to it finds nothing. */
async function consumeChallenge(
  { db }: Pick<Services, 'db'>,
  id: string | undefined,
  purpose: Purpose,
): Promise<{ challenge: string; userId: string | null; sessionId: string | null }> {
  if (!id || !/^[0-9a-f-]{36}$/i.test(id)) throw challengeInvalid();
  const { rows } = await db.pool.query<{
    challenge: string;
    userId: string | null;
    sessionId: string | null;
    expired: boolean;
  }>(
    `DELETE FROM passkey_challenges WHERE id = $1 AND purpose = $2
     RETURNING challenge, "userId", "sessionId", "expiresAt" <= now() AS expired`,
    [id, purpose],
  );
  const row = rows[0];
  if (!row || row.expired) throw challengeInvalid();
  return row;
}

export async function listPasskeys(
  { db }: Pick<Services, 'db'>,
  userId: string,
): Promise<Passkey[]> {
  const rows = await db.prisma.passkey.findMany({
    where: { userId },
    select: { id: true, name: true, createdAt: true, lastUsedAt: true, backedUp: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    synced: row.backedUp,
  }));
}

/** The options for navigator.credentials.create(): a discoverable credential, verified user. */
export async function startPasskeyRegistration(
  deps: Pick<Services, 'db'>,
  input: { rp: RelyingParty; userId: string; sessionId: string; email: string },
): Promise<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const existing = await deps.db.prisma.passkey.findMany({
    where: { userId: input.userId },
    select: { credentialId: true, transports: true },
  });
  const options = await generateRegistrationOptions({
    rpName: input.rp.name,
    rpID: input.rp.id,
    userName: input.email,
    userDisplayName: input.email,
    userID: userHandleOf(input.userId),
    timeout: PASSKEY_CHALLENGE_TTL_MS,
    attestationType: 'none',
    // The same authenticator twice would be one passkey listed twice.
    excludeCredentials: existing.map((passkey) => ({
      id: passkey.credentialId,
      transports: passkey.transports,
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  const challengeId = await storeChallenge(deps, {
    purpose: 'register',
    challenge: options.challenge,
    userId: input.userId,
    sessionId: input.sessionId,
  });
  return { challengeId, options };
}

function defaultName(userAgent: string | undefined): string {
  const browser = describeBrowser(userAgent, { withVersion: false });
  return browser ? browser.slice(0, PASSKEY_NAME_MAX_LENGTH) : 'Passkey';
}

/**
 * Stores the new credential if it answers this session's challenge, from this site, with a
 * verified user. Named as its owner typed, else after the browser it was made in.
 */
export async function finishPasskeyRegistration(
  deps: Pick<Services, 'db'>,
  input: {
    rp: RelyingParty;
    challengeId: string | undefined;
    userId: string;
    sessionId: string;
    response: RegistrationResponseJSON;
    name?: string;
    userAgent?: string;
  },
): Promise<Passkey[]> {
  const stored = await consumeChallenge(deps, input.challengeId, 'register');
  if (stored.userId !== input.userId || stored.sessionId !== input.sessionId) {
    throw challengeInvalid();
  }
  const verification = await verifyRegistrationResponse({
    response: input.response,
    expectedChallenge: stored.challenge,
    expectedOrigin: input.rp.origin,
    expectedRPID: input.rp.id,
    requireUserVerification: true,
  }).catch(() => null);
  if (!verification?.verified) throw notVerified(400);
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  const name = input.name?.trim() || defaultName(input.userAgent);
  try {
    await deps.db.prisma.passkey.create({
      data: {
        id: randomUUID(),
        userId: input.userId,
        credentialId: credential.id,
        publicKey: credential.publicKey,
        counter: credential.counter,
        transports: credential.transports ?? [],
        deviceType: credentialDeviceType,
        backedUp: credentialBackedUp,
        name,
      },
      select: { id: true },
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') {
      throw new DomainError(409, 'passkey_exists', 'That passkey is already registered.');
    }
    throw error;
  }
  return listPasskeys(deps, input.userId);
}

/** The options for navigator.credentials.get(): any passkey of this site (no account named). */
export async function startPasskeySignIn(
  deps: Pick<Services, 'db'>,
  input: { rp: RelyingParty },
): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const options = await generateAuthenticationOptions({
    rpID: input.rp.id,
    timeout: PASSKEY_CHALLENGE_TTL_MS,
    userVerification: 'required',
  });
  const challengeId = await storeChallenge(deps, {
    purpose: 'sign-in',
    challenge: options.challenge,
  });
  return { challengeId, options };
}

/**
 * Signs in with a passkey: its answer must sign this browser's challenge, from this site, with a
 * verified user and a counter that moved on (SimpleWebAuthn refuses one that went back: a cloned
 * authenticator). The visitor's anonymous membership follows them as with a password.
 */
export async function finishPasskeySignIn(
  deps: Pick<Services, 'db'> & { graceDays: number },
  input: {
    rp: RelyingParty;
    challengeId: string | undefined;
    response: AuthenticationResponseJSON;
    leaving: Session | null;
  },
): Promise<SessionGrant> {
  const stored = await consumeChallenge(deps, input.challengeId, 'sign-in');
  const passkey = await deps.db.prisma.passkey.findUnique({
    where: { credentialId: input.response.id },
    select: {
      id: true,
      credentialId: true,
      publicKey: true,
      counter: true,
      transports: true,
      user: { select: { id: true, email: true, sessionVersion: true } },
    },
  });
  if (!passkey?.user.email) throw notRecognized();
  const userHandle = input.response.response.userHandle;
  if (userHandle && userHandle !== userHandleOf(passkey.user.id).toString('base64url')) {
    throw notVerified(401);
  }
  const verification = await verifyAuthenticationResponse({
    response: input.response,
    expectedChallenge: stored.challenge,
    expectedOrigin: input.rp.origin,
    expectedRPID: input.rp.id,
    credential: {
      id: passkey.credentialId,
      publicKey: passkey.publicKey,
      counter: Number(passkey.counter),
      transports: passkey.transports,
    },
    requireUserVerification: true,
  }).catch(() => null);
  if (!verification?.verified) throw notVerified(401);
  const info = verification.authenticationInfo;
  await deps.db.prisma.passkey.update({
    where: { id: passkey.id },
    data: {
      counter: info.newCounter,
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      lastUsedAt: new Date(),
    },
    select: { id: true },
  });
  await followIntoAccount(deps, input.leaving, passkey.user.id);
  return { userId: passkey.user.id, sessionVersion: passkey.user.sessionVersion };
}

const noSuchPasskey = () =>
  new DomainError(404, 'not_found', 'No such passkey: it may have been removed already.');

export async function renamePasskey(
  deps: Pick<Services, 'db'>,
  input: { userId: string; id: string; name: string },
): Promise<Passkey[]> {
  const name = cleanLine(input.name);
  if (!name) throw new DomainError(400, 'invalid_name', 'Give the passkey a name.');
  const { count } = await deps.db.prisma.passkey.updateMany({
    where: { id: input.id, userId: input.userId },
    data: { name },
  });
  if (count !== 1) throw noSuchPasskey();
  return listPasskeys(deps, input.userId);
}

/** Removes one passkey: it no longer signs in. Sessions and other passkeys stay as they are. */
export async function removePasskey(
  deps: Pick<Services, 'db'>,
  input: { userId: string; id: string },
): Promise<Passkey[]> {
  const { count } = await deps.db.prisma.passkey.deleteMany({
    where: { id: input.id, userId: input.userId },
  });
  if (count !== 1) throw noSuchPasskey();
  return listPasskeys(deps, input.userId);
}

import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Prisma } from '../generated/prisma/client.js';
import { HttpError } from '../http/errors.js';
import { hashLinkToken as hashToken, newLinkToken as newToken } from '../http/link-tokens.js';
import type { Session } from '../plugins/app/sessions.js';
import type { Services } from '../services.js';
import { normalizeEmail } from '../../../contract/account-rules.js';
import { followIntoAccount, requireValidEmail, type SessionGrant } from './accounts.js';
import { checkNewPassword, getPasswordHash } from './passwords.js';
import { claimNewsletterSignUp, proveAddress } from './proven-address.js';

/**
 * Addresses proven by mail (PRODUCT decision 18). A registration waits in `email_sign_ins` with its
 * password hash until the link mailed to the address is used; a sign-in by link or code proves the
 * address too, and makes the account when there is none. Only hashes of tokens and codes are kept.
 */

export const REGISTRATION_TTL_MS = 24 * 60 * 60 * 1000;
export const SIGN_IN_LINK_TTL_MS = 15 * 60 * 1000;
/** Wrong codes a mailed sign-in survives. */
export const MAX_CODE_ATTEMPTS = 5;

type Purpose = 'register' | 'sign-in';

/** The code's hash is salted with its row's id, so one table of 10^6 hashes reads no row. */
const hashCode = (rowId: string, code: string) =>
  createHash('sha256').update(`${rowId}:${code}`).digest();

const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

const invalidLink = () =>
  new HttpError(400, 'invalid_link', 'This link is not valid, or is too old. Ask for a new one.');
const linkExpired = () =>
  new HttpError(
    410,
    'link_expired',
    'This link was used already or has expired. Ask for a new one.',
  );
const codeExpired = () =>
  new HttpError(
    410,
    'code_expired',
    'That code has expired, was used, or was mistyped too often. Ask for a new one.',
  );
const wrongCode = () =>
  new HttpError(400, 'invalid_code', 'That code is not right. Check the mail and try again.');

/**
 * Puts a proven address (and a password, for a registration) on a user id: the visitor's own
 * anonymous id, so a membership bought anonymously is kept (decision 4: register links, it does
 * not create). The session version goes up, so the anonymous token ends.
 */
async function attachProvenAddress(
  tx: Prisma.TransactionClient,
  input: { userId: string; email: string; passwordHash: string | null },
) {
  const existing = await tx.user.findUnique({
    where: { id: input.userId },
    select: { email: true },
  });
  if (existing?.email) {
    throw new HttpError(
      409,
      'already_registered',
      'You already have an account: sign out first to create another.',
    );
  }
  const now = new Date();
  const user = await tx.user.upsert({
    where: { id: input.userId },
    create: {
      id: input.userId,
      email: input.email,
      passwordHash: input.passwordHash,
      emailVerifiedAt: now,
      sessionVersion: 1,
    },
    update: {
      email: input.email,
      passwordHash: input.passwordHash,
      emailVerifiedAt: now,
      sessionVersion: { increment: 1 },
    },
    select: { id: true, sessionVersion: true },
  });
  await claimNewsletterSignUp(tx, user.id, input.email);
  return { userId: user.id, sessionVersion: user.sessionVersion };
}

/** How long a dead row is kept (a used link opened again still gets "used", not "unknown"). */
const KEEP_EXPIRED_MS = 24 * 60 * 60 * 1000;

/**
 * Ends the address's earlier links and codes of this purpose: only the newest works. Its rows dead
 * for a day are forgotten, and now and then everyone's (the rows are small; this keeps the table so).
 */
async function endEarlier(tx: Prisma.TransactionClient, email: string, purpose: Purpose) {
  await tx.emailSignIn.updateMany({
    where: { email, purpose, usedAt: null },
    data: { usedAt: new Date() },
  });
  const everyone = Math.random() < 0.01;
  await tx.emailSignIn.deleteMany({
    where: {
      expiresAt: { lt: new Date(Date.now() - KEEP_EXPIRED_MS) },
      ...(everyone ? {} : { email }),
    },
  });
}

export type RegistrationMail =
  { kind: 'confirm'; email: string; token: string } | { kind: 'account-exists'; email: string };

/**
 * A registration: the same work whether or not the address has an account (the password is
 * checked and hashed on both paths), and one mail either way. Nothing is tied to the address
 * until its owner uses the link: the mail finishes the registration, or, for a taken address,
 * tells its owner an account exists.
 */
export async function requestRegistration(
  { db }: Pick<Services, 'db'>,
  input: { userId: string; visitorEmail: string | null; email: string; password: string },
): Promise<RegistrationMail> {
  const email = requireValidEmail(input.email);
  const problem = await checkNewPassword(input.password, [email]);
  if (problem) throw new HttpError(400, 'weak_password', problem);
  if (input.visitorEmail) {
    throw new HttpError(
      409,
      'already_registered',
      'You already have an account: sign out first to create another.',
    );
  }
  const passwordHash = await getPasswordHash(input.password);
  const taken = await db.prisma.user.findUnique({ where: { email }, select: { id: true } });
  if (taken) return { kind: 'account-exists', email };
  const token = newToken();
  await db.prisma.$transaction(async (tx) => {
    await endEarlier(tx, email, 'register');
    await tx.emailSignIn.create({
      data: {
        id: randomUUID(),
        purpose: 'register',
        email,
        userId: input.userId,
        passwordHash,
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + REGISTRATION_TTL_MS),
      },
    });
  });
  return { kind: 'confirm', email, token };
}

/** Claims a row by its token: once, before it expires; the claim and its effect are one transaction. */
async function claimByToken(tx: Prisma.TransactionClient, token: string, purpose: Purpose) {
  const row = await tx.emailSignIn.findUnique({
    where: { tokenHash: hashToken(token) },
    select: {
      id: true,
      purpose: true,
      email: true,
      userId: true,
      passwordHash: true,
      usedAt: true,
      expiresAt: true,
      codeAttempts: true,
    },
  });
  if (!row || row.purpose !== purpose) throw invalidLink();
  // Five wrong codes end the link mailed with them too: someone is guessing at this sign-in.
  if (row.usedAt || row.expiresAt <= new Date() || row.codeAttempts >= MAX_CODE_ATTEMPTS) {
    throw linkExpired();
  }
  const claimed = await tx.emailSignIn.updateMany({
    where: { id: row.id, usedAt: null },
    data: { usedAt: new Date() },
  });
  if (claimed.count !== 1) throw linkExpired();
  return row;
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === 'P2002';
const emailTaken = () =>
  new HttpError(409, 'email_taken', 'An account with that email already exists. Sign in instead.');

/** The button on /register/confirm: the address is proven, the account is made and signed in. */
export async function confirmRegistration(
  deps: Pick<Services, 'db'> & { graceDays: number },
  input: { token: string; leaving: Session | null },
): Promise<SessionGrant> {
  const grant = await deps.db.prisma
    .$transaction(async (tx) => {
      const row = await claimByToken(tx, input.token, 'register');
      if (!row.userId || !row.passwordHash) throw invalidLink();
      return attachProvenAddress(tx, {
        userId: row.userId,
        email: row.email,
        passwordHash: row.passwordHash,
      });
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    });
  await followIntoAccount(deps, input.leaving, grant.userId);
  return grant;
}

export interface SignInMail {
  email: string;
  token: string;
  code: string;
}

/**
 * "Email me a sign-in link": a link and a code, for any valid address (one without an account
 * gets one when the link is used), so the answer and the mail are the same for every address.
 * Earlier links and codes of the address stop working.
 */
export async function requestEmailSignIn(
  { db }: Pick<Services, 'db'>,
  input: { email: string },
): Promise<SignInMail> {
  const email = requireValidEmail(input.email);
  const token = newToken();
  const code = newCode();
  const id = randomUUID();
  await db.prisma.$transaction(async (tx) => {
    await endEarlier(tx, email, 'sign-in');
    await tx.emailSignIn.create({
      data: {
        id,
        purpose: 'sign-in',
        email,
        tokenHash: hashToken(token),
        codeHash: hashCode(id, code).toString('hex'),
        expiresAt: new Date(Date.now() + SIGN_IN_LINK_TTL_MS),
      },
    });
  });
  return { email, token, code };
}

/**
 * Signs in the account of a proven address, or makes it on the first sign-in: on the visitor's
 * own anonymous id when they have one (as registration does), so what they bought is kept.
 */
async function signInProvenAddress(
  tx: Prisma.TransactionClient,
  email: string,
  leaving: Session | null,
): Promise<SessionGrant> {
  const user = await tx.user.findUnique({
    where: { email },
    select: { id: true, sessionVersion: true, emailVerifiedAt: true },
  });
  if (user) {
    if (!user.emailVerifiedAt) await proveAddress(tx, user.id, email);
    return { userId: user.id, sessionVersion: user.sessionVersion };
  }
  const anonymous = leaving && !leaving.user?.email ? leaving.userId : randomUUID();
  return attachProvenAddress(tx, { userId: anonymous, email, passwordHash: null });
}

async function finishSignIn(
  deps: Pick<Services, 'db'> & { graceDays: number },
  leaving: Session | null,
  work: (tx: Prisma.TransactionClient) => Promise<SessionGrant>,
): Promise<SessionGrant> {
  const grant = await deps.db.prisma.$transaction(work).catch((error: unknown) => {
    // The same address made into an account by another request at the same moment.
    if (isUniqueViolation(error)) throw linkExpired();
    throw error;
  });
  await followIntoAccount(deps, leaving, grant.userId);
  return grant;
}

/** The button on /sign-in/link. */
export function confirmEmailLink(
  deps: Pick<Services, 'db'> & { graceDays: number },
  input: { token: string; leaving: Session | null },
): Promise<SessionGrant> {
  return finishSignIn(deps, input.leaving, async (tx) => {
    const row = await claimByToken(tx, input.token, 'sign-in');
    return signInProvenAddress(tx, row.email, input.leaving);
  });
}

/**
 * The code typed on the device that asked. Each try spends one of the row's attempts before the
 * code is compared (in constant time), so no number of parallel guesses gets more than five.
 */
export async function confirmEmailCode(
  deps: Pick<Services, 'db'> & { graceDays: number },
  input: { email: string; code: string; leaving: Session | null },
): Promise<SessionGrant> {
  const email = normalizeEmail(input.email);
  const code = input.code.replace(/[\s-]/g, '');
  if (!/^\d{6}$/.test(code)) {
    throw new HttpError(400, 'invalid_code', 'The code is the 6 digits in the mail we sent.');
  }
  // The attempt is spent in a statement of its own, committed whatever the code turns out to be.
  const rows = await deps.db.prisma.$queryRaw<{ id: string; codeHash: string }[]>`
    UPDATE email_sign_ins SET "codeAttempts" = "codeAttempts" + 1
    WHERE id = (SELECT id FROM email_sign_ins
                WHERE email = ${email} AND purpose = 'sign-in' AND "codeHash" IS NOT NULL
                ORDER BY "createdAt" DESC LIMIT 1)
      AND "usedAt" IS NULL AND "expiresAt" > now() AND "codeAttempts" < ${MAX_CODE_ATTEMPTS}
    RETURNING id, "codeHash"`;
  const row = rows[0];
  if (!row) throw codeExpired();
  if (!timingSafeEqual(hashCode(row.id, code), Buffer.from(row.codeHash, 'hex'))) {
    throw wrongCode();
  }
  return finishSignIn(deps, input.leaving, async (tx) => {
    const claimed = await tx.emailSignIn.updateMany({
      where: { id: row.id, usedAt: null },
      data: { usedAt: new Date() },
    });
    if (claimed.count !== 1) throw codeExpired();
    return signInProvenAddress(tx, email, input.leaving);
  });
}

/** Mails for the routes: the link in the fragment, so no server or proxy log holds it. */
export function registrationMail(
  mail: RegistrationMail,
  site: { siteUrl: string; siteName: string },
): { to: string; subject: string; text: string } {
  if (mail.kind === 'account-exists') {
    return {
      to: mail.email,
      subject: `Your ${site.siteName} account`,
      text:
        `Someone (hopefully you) tried to create a ${site.siteName} account with this address, ` +
        `but it already has one.\n\n` +
        `Sign in with your password at ${site.siteUrl}/login, or ask there for a sign-in link ` +
        `("Email me a sign-in link"). Forgot the password? ${site.siteUrl}/reset-password\n\n` +
        `If it was not you, ignore this mail: nothing changed.\n`,
    };
  }
  const hours = REGISTRATION_TTL_MS / 3_600_000;
  return {
    to: mail.email,
    subject: `Finish creating your ${site.siteName} account`,
    text:
      `Someone (hopefully you) asked to create a ${site.siteName} account with this address.\n\n` +
      `Open this link and press the button to finish. It works once, for ${hours} hours:\n\n` +
      `${site.siteUrl}/register/confirm#token=${mail.token}\n\n` +
      `If it was not you, ignore this mail: no account is made.\n`,
  };
}

export function signInMail(
  mail: SignInMail,
  site: { siteUrl: string; siteName: string },
): { to: string; subject: string; text: string } {
  const minutes = SIGN_IN_LINK_TTL_MS / 60_000;
  return {
    to: mail.email,
    subject: `Sign in to ${site.siteName}: code ${mail.code}`,
    text:
      `Open this link and press the button to sign in to ${site.siteName}:\n\n` +
      `${site.siteUrl}/sign-in/link#token=${mail.token}\n\n` +
      `Or type this code where you asked for it: ${mail.code}\n\n` +
      `The link and the code work once, for ${minutes} minutes. If you have no account yet, ` +
      `signing in makes one.\n\nIf it was not you, ignore this mail: nobody is signed in.\n`,
  };
}

import { randomUUID } from 'node:crypto';
import type { Prisma } from '../generated/prisma/client.js';
import { DomainError } from '../domain-error.js';
import { hashLinkToken as hashToken, newLinkToken } from '../mail/link-tokens.js';
import { mergeAnonymousUser } from '../memberships/memberships.js';
import type { Session } from '../sessions/session.js';
import type { Services } from '../services.js';
import {
  hasControlCharacters,
  isValidEmail,
  normalizeEmail,
} from '../../../contract/account-rules.js';
import {
  checkNewPassword,
  getPasswordHash,
  spendPasswordCheck,
  verifyPassword,
} from './passwords.js';
import { proveAddress } from './proven-address.js';
import { DESK_SIGN_IN_MAX_AGE_MS } from '../staff/staff.js';
import { sessionSignIn } from '../sessions/user-sessions.js';
import type { SignInMethod } from '../../../contract/sign-in-methods.js';

/** The session a changed account should continue with. */
export interface SessionGrant {
  userId: string;
  sessionVersion: number;
}

export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;

const invalidCredentials = () =>
  new DomainError(401, 'invalid_credentials', 'That email and password do not match an account.');

/**
 * NUL and other control characters never belong in an email or a password: refused before
 * anything else (the database would refuse a NUL with an error of its own).
 */
export function requireNoControlCharacters(fields: { email?: string; password?: string }): void {
  if (fields.email !== undefined && hasControlCharacters(fields.email)) {
    throw new DomainError(
      400,
      'invalid_email',
      'An email address cannot contain control characters.',
    );
  }
  if (fields.password !== undefined && hasControlCharacters(fields.password)) {
    throw new DomainError(
      400,
      'invalid_password',
      'A password cannot contain control characters (such as NUL or a line break).',
    );
  }
}

export function requireValidEmail(input: string): string {
  requireNoControlCharacters({ email: input });
  const email = normalizeEmail(input);
  if (!isValidEmail(email)) {
    throw new DomainError(
      400,
      'invalid_email',
      'Enter a valid email address, like name@example.com.',
    );
  }
  return email;
}

async function requireAcceptablePassword(password: string, userInputs: string[] = []) {
  const problem = await checkNewPassword(password, userInputs);
  if (problem) throw new DomainError(400, 'weak_password', problem);
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === 'P2002';
}

const emailTaken = () =>
  new DomainError(
    409,
    'email_taken',
    'An account with that email already exists. Sign in instead.',
  );

/**
 * Checks an email and password. An unknown email and a wrong password get the same answer in the
 * same time. If the anonymous visitor signing in holds a membership and the account has none, the
 * membership moves to the account (written down in docs/decisions/0004-accounts.md).
 */
export async function signIn(
  deps: Pick<Services, 'db'> & { graceDays: number },
  input: { email: string; password: string; leaving: Session | null },
): Promise<SessionGrant> {
  requireNoControlCharacters(input);
  const email = normalizeEmail(input.email);
  const user = await deps.db.prisma.user.findUnique({
    where: { email },
    select: { id: true, passwordHash: true, sessionVersion: true },
  });
  if (!user?.passwordHash) {
    await spendPasswordCheck(input.password);
    throw invalidCredentials();
  }
  if (!(await verifyPassword(input.password, user.passwordHash))) throw invalidCredentials();
  await followIntoAccount(deps, input.leaving, user.id);
  return { userId: user.id, sessionVersion: user.sessionVersion };
}

/**
 * An anonymous visitor's payments, made or still to come, follow them into the account they sign
 * in to, however they proved it is theirs (a password, a passkey).
 */
export async function followIntoAccount(
  deps: Pick<Services, 'db'> & { graceDays: number },
  leaving: Session | null,
  accountId: string,
): Promise<void> {
  if (leaving && leaving.userId !== accountId && !leaving.user?.email) {
    await mergeAnonymousUser(deps, {
      fromUserId: leaving.userId,
      toUserId: accountId,
      graceDays: deps.graceDays,
    });
  }
}

/** Sign-ins that prove the owner is here as well as the password does, for a while. */
const PROVING_METHODS: ReadonlySet<SignInMethod> = new Set(['link', 'code', 'passkey']);

/**
 * Until when this session's sign-in stands in for the account's password: 12 hours (the desk's
 * rule) after a sign-in by link, code or passkey; null after a password (whoever typed it can
 * type it again), for a session from before methods were recorded, or when that time is past.
 */
export async function recentSignInUntil(
  services: Pick<Services, 'db'>,
  sessionId: string | null,
  now = Date.now(),
): Promise<Date | null> {
  const signIn = sessionId ? await sessionSignIn(services, sessionId) : null;
  if (!signIn?.signedInAt || !signIn.signInMethod || !PROVING_METHODS.has(signIn.signInMethod)) {
    return null;
  }
  const until = signIn.signedInAt.getTime() + DESK_SIGN_IN_MAX_AGE_MS;
  return until > now ? new Date(until) : null;
}

/**
 * A change to the account (its address, its password, its deletion) needs its owner: the current
 * password when one is given, else a recent sign-in by link, code or passkey (never a password
 * sign-in: that session types the password again). The latter is how an account made by a link,
 * which has no password, changes anything.
 */
export async function requireOwnerPresent(
  { db }: Pick<Services, 'db'>,
  input: { userId: string; sessionId: string | null; password?: string | undefined },
): Promise<{ email: string | null }> {
  if (input.password !== undefined) return requirePassword({ db }, input.userId, input.password);
  const user = await db.prisma.user.findUnique({
    where: { id: input.userId },
    select: { passwordHash: true, email: true },
  });
  if (user && (await recentSignInUntil({ db }, input.sessionId))) return user;
  if (user?.passwordHash) {
    throw new DomainError(403, 'password_required', 'Enter your current password.');
  }
  throw new DomainError(
    403,
    'sign_in_again',
    'This needs a sign-in by link, code or passkey within the last 12 hours: sign in again with a link to change this.',
  );
}

async function requirePassword({ db }: Pick<Services, 'db'>, userId: string, password: string) {
  requireNoControlCharacters({ password });
  const user = await db.prisma.user.findUnique({
    where: { id: userId },
    select: { passwordHash: true, email: true },
  });
  if (!user?.passwordHash || !(await verifyPassword(password, user.passwordHash))) {
    throw new DomainError(403, 'wrong_password', 'Your current password is not right.');
  }
  return user;
}

/** Whether the account has a password (one made by a sign-in link has none until it sets one). */
export async function hasPassword({ db }: Pick<Services, 'db'>, userId: string): Promise<boolean> {
  const user = await db.prisma.user.findUnique({
    where: { id: userId },
    select: { passwordHash: true },
  });
  return Boolean(user?.passwordHash);
}

/**
 * A new password (or a first one) ends every other session of the user: the caller re-issues this
 * one.
 */
export async function changePassword(
  { db }: Pick<Services, 'db'>,
  input: {
    userId: string;
    sessionId: string | null;
    currentPassword?: string | undefined;
    newPassword: string;
  },
): Promise<SessionGrant> {
  if (input.currentPassword !== undefined) {
    requireNoControlCharacters({ password: input.currentPassword });
  }
  await requireAcceptablePassword(input.newPassword);
  await requireOwnerPresent(
    { db },
    { userId: input.userId, sessionId: input.sessionId, password: input.currentPassword },
  );
  const user = await db.prisma.user.update({
    where: { id: input.userId },
    data: {
      passwordHash: await getPasswordHash(input.newPassword),
      sessionVersion: { increment: 1 },
    },
    select: { id: true, sessionVersion: true },
  });
  return { userId: user.id, sessionVersion: user.sessionVersion };
}

export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;

export interface EmailChangeRequest {
  /** The account's current address: it is told of the request. */
  currentEmail: string;
  newEmail: string;
  /** The link's token, for the mail to the new address; null when that address is taken. */
  token: string | null;
}

/**
 * Asks for a new email: nothing changes until the link mailed to the new address is confirmed.
 * An address that belongs to another account gets no link, and the answer is the same either
 * way, so the form tells nobody which addresses have accounts.
 */
export async function requestEmailChange(
  { db }: Pick<Services, 'db'>,
  input: {
    userId: string;
    sessionId: string | null;
    password?: string | undefined;
    email: string;
  },
): Promise<EmailChangeRequest> {
  const newEmail = requireValidEmail(input.email);
  const user = await requireOwnerPresent({ db }, input);
  if (!user.email) throw new DomainError(403, 'registration_required', 'Create an account first.');
  if (user.email === newEmail) {
    throw new DomainError(400, 'same_email', 'That is already your email address.');
  }
  const taken = await db.prisma.user.findUnique({
    where: { email: newEmail },
    select: { id: true },
  });
  if (taken) return { currentEmail: user.email, newEmail, token: null };
  const token = newLinkToken();
  await db.prisma.emailChange.create({
    data: {
      id: randomUUID(),
      userId: input.userId,
      newEmail,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + EMAIL_CHANGE_TTL_MS),
    },
  });
  return { currentEmail: user.email, newEmail, token };
}

/** A table of single-use mailed links (email changes, password resets), as a transaction sees it. */
interface MailedLinks {
  updateMany(args: {
    where: { id: string; usedAt: null } | { userId: string; usedAt: null };
    data: { usedAt: Date };
  }): Promise<{ count: number }>;
}

/**
 * Uses a mailed link: claims it (a second submission racing this one finds it used, and gets
 * `invalid()`), and the account's older links stop working with it.
 */
async function useLinkOnce(
  links: MailedLinks,
  link: { id: string; userId: string },
  invalid: () => DomainError,
): Promise<void> {
  const claimed = await links.updateMany({
    where: { id: link.id, usedAt: null },
    data: { usedAt: new Date() },
  });
  if (claimed.count !== 1) throw invalid();
  await links.updateMany({
    where: { userId: link.userId, usedAt: null },
    data: { usedAt: new Date() },
  });
}

const invalidEmailLink = () =>
  new DomainError(
    400,
    'invalid_email_link',
    'This confirmation link is invalid, used or expired. Ask for a new one from your account.',
  );

/** Applies a confirmed email change; answers the Stripe customers to give the new email to. */
export async function confirmEmailChange(
  { db }: Pick<Services, 'db'>,
  input: { token: string },
): Promise<{
  userId: string;
  email: string;
  oldEmail: string | null;
  stripeCustomerIds: string[];
}> {
  const changed = await db.prisma
    .$transaction(async (tx) => {
      const change = await tx.emailChange.findUnique({
        where: { tokenHash: hashToken(input.token) },
        select: { id: true, userId: true, newEmail: true, usedAt: true, expiresAt: true },
      });
      if (!change || change.usedAt || change.expiresAt <= new Date()) throw invalidEmailLink();
      await useLinkOnce(tx.emailChange, change, invalidEmailLink);
      const before = await tx.user.findUniqueOrThrow({
        where: { id: change.userId },
        select: { email: true },
      });
      await tx.user.update({ where: { id: change.userId }, data: { email: change.newEmail } });
      await moveNewsletter(tx, change.userId, change.newEmail);
      // The link came to the new address: it is proven (desk roles now follow its listing).
      await proveAddress(tx, change.userId, change.newEmail);
      return { ...change, oldEmail: before.email };
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    });
  const customers = await db.prisma.stripeCustomer.findMany({
    where: { userId: changed.userId },
    select: { id: true },
  });
  return {
    userId: changed.userId,
    email: changed.newEmail,
    oldEmail: changed.oldEmail,
    stripeCustomerIds: customers.map((customer) => customer.id),
  };
}

/**
 * The account's newsletter follows its new address: its own sign-up moves there, in whatever state
 * it was (a sign-up of the new address by nobody's account gives way to it).
 */
async function moveNewsletter(tx: Prisma.TransactionClient, userId: string, newEmail: string) {
  const own = await tx.newsletterSubscriber.findUnique({ where: { userId }, select: { id: true } });
  if (!own) return;
  await tx.newsletterSubscriber.deleteMany({ where: { email: newEmail, userId: null } });
  await tx.newsletterSubscriber.update({ where: { id: own.id }, data: { email: newEmail } });
}

/**
 * Makes a single-use reset link for a registered email, or nothing for an unknown one. Only the
 * token's hash is stored.
 */
export async function createPasswordReset(
  { db }: Pick<Services, 'db'>,
  input: { email: string },
): Promise<{ email: string; token: string } | null> {
  requireNoControlCharacters(input);
  const email = normalizeEmail(input.email);
  if (!isValidEmail(email)) return null;
  // Any account, with a password or not (one made by a sign-in link may add one this way).
  const user = await db.prisma.user.findUnique({ where: { email }, select: { id: true } });
  if (!user) return null;
  const token = newLinkToken();
  await db.prisma.passwordReset.create({
    data: {
      id: randomUUID(),
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + PASSWORD_RESET_TTL_MS),
    },
  });
  return { email, token };
}

/** The password-reset mail: the link in its fragment, so no server or proxy log can hold it. */
export function passwordResetMail(
  reset: { email: string; token: string },
  site: { siteUrl: string; siteName: string },
): { to: string; subject: string; text: string } {
  const link = `${site.siteUrl}/reset-password#token=${reset.token}`;
  const minutes = PASSWORD_RESET_TTL_MS / 60_000;
  return {
    to: reset.email,
    subject: `Reset your ${site.siteName} password`,
    text:
      `Someone (hopefully you) asked to reset the password of your ${site.siteName} account.\n\n` +
      `Open this link to choose a new one. It works once, for the next ${minutes} minutes:\n\n${link}\n\n` +
      `If it was not you, ignore this mail: your password stays as it is.\n`,
  };
}

const invalidResetLink = () =>
  new DomainError(
    400,
    'invalid_reset_link',
    'This reset link is invalid, used or expired. Ask for a new one.',
  );

/** Sets a new password from a reset link: once, within the hour; every session ends. */
export async function completePasswordReset(
  { db }: Pick<Services, 'db'>,
  input: { token: string; password: string },
): Promise<SessionGrant> {
  await requireAcceptablePassword(input.password);
  // A link that cannot work is refused before the costly hash.
  const tokenHash = hashToken(input.token);
  const pending = await db.prisma.passwordReset.findUnique({
    where: { tokenHash },
    select: { usedAt: true, expiresAt: true },
  });
  if (!pending || pending.usedAt || pending.expiresAt <= new Date()) throw invalidResetLink();
  const passwordHash = await getPasswordHash(input.password);
  return db.prisma.$transaction(async (tx) => {
    const reset = await tx.passwordReset.findUnique({
      where: { tokenHash },
      select: { id: true, userId: true, usedAt: true, expiresAt: true },
    });
    if (!reset || reset.usedAt || reset.expiresAt <= new Date()) throw invalidResetLink();
    await useLinkOnce(tx.passwordReset, reset, invalidResetLink);
    const user = await tx.user.update({
      where: { id: reset.userId },
      data: { passwordHash, sessionVersion: { increment: 1 } },
      select: { id: true, sessionVersion: true, email: true },
    });
    // The link came to the address: it is proven.
    if (user.email) await proveAddress(tx, user.id, user.email);
    return { userId: user.id, sessionVersion: user.sessionVersion };
  });
}

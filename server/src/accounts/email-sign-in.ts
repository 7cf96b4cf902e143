import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Prisma } from '../generated/prisma/client.js';
import { DomainError } from '../domain-error.js';
import { hashLinkToken as hashToken, newLinkToken as newToken } from '../mail/link-tokens.js';
import { holdsPayments } from '../memberships/memberships.js';
import type { Session } from '../sessions/session.js';
import type { Services } from '../services.js';
import { normalizeEmail } from '../../../contract/account-rules.js';
import type { MailedLinkPreview } from '../../../contract/api.js';
import { followIntoAccount, requireValidEmail, type SessionGrant } from './accounts.js';
import type { CodeLimit } from './code-limit.js';
import { checkNewPassword, getPasswordHash } from './passwords.js';
import { claimNewsletterSignUp, proveAddress } from './proven-address.js';
import { prismaEventWriter, recordMemberEvent } from '../outbox/webhook-events.js';

/**
 * Addresses proven by mail (docs/decisions/0014-proven-addresses.md). A registration waits in
 * `email_sign_ins` until the link mailed to the address is used, and its owner chooses the password
 * then: whoever asked never does. A sign-in by link or code proves the address too, and makes the
 * account when there is none. Only hashes of tokens and codes are kept.
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

/** What a mailed link or code is refused with, by the error's code: its status, and words to act on. */
const REFUSALS = {
  invalid_link: [400, 'This link is not valid, or is too old. Ask for a new one.'],
  link_expired: [410, 'This link was used already or has expired. Ask for a new one.'],
  code_expired: [
    410,
    'That code has expired, was used, or was mistyped too often. Ask for a new one.',
  ],
  invalid_code: [400, 'That code is not right. Check the mail and try again.'],
  too_many_codes: [
    429,
    'Too many wrong codes were typed for this address today: sign in with the link in the mail instead.',
  ],
  membership_here: [
    409,
    'This browser holds a membership bought without an account, and did not ask for this mail: it moves into the account only if you say so on the page the link opens.',
  ],
  already_registered: [
    409,
    'You are signed in to an account: sign out first, then open the link again to create another.',
  ],
  email_taken: [409, 'An account with that email already exists. Sign in instead.'],
} as const satisfies Record<string, readonly [status: number, message: string]>;

const refusal = (code: keyof typeof REFUSALS) =>
  new DomainError(REFUSALS[code][0], code, REFUSALS[code][1]);

const anonymousIdOf = (leaving: Session | null) =>
  leaving && !leaving.user?.email ? leaving.userId : null;

/**
 * Whether the browser must be asked before what it holds anonymously moves into the account: it
 * did not ask for the mail (a stranger may have sent it their own link) and holds a membership.
 */
async function mustAskToMove(
  tx: Prisma.TransactionClient,
  leaving: Session | null,
  askedBy: string | null,
): Promise<boolean> {
  const anonymousId = anonymousIdOf(leaving);
  return anonymousId !== null && anonymousId !== askedBy && (await holdsPayments(tx, anonymousId));
}

/**
 * A browser that did not ask for the mail and holds a membership is refused until its reader says
 * the membership may move: not carried silently into someone else's account, nor left behind on
 * an anonymous id the sign-in ends.
 */
async function requireConsentToMove(
  tx: Prisma.TransactionClient,
  leaving: Session | null,
  askedBy: string | null,
  moveMembership: boolean,
): Promise<void> {
  if (!moveMembership && (await mustAskToMove(tx, leaving, askedBy)))
    throw refusal('membership_here');
}

/**
 * Puts a proven address (and the owner's password, for a registration) on a user id: the
 * confirming browser's own anonymous id, so what it bought anonymously is kept (decision 4:
 * register links, it does not create). The session version goes up, so the anonymous token ends.
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
    throw new DomainError(
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
  await recordMemberEvent(prismaEventWriter(tx), 'member.added', user.id);
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
 * A registration: the same work whether or not the address has an account, and one mail either
 * way. Nothing is tied to the address, and no password chosen, until its owner uses the link: the
 * mail finishes the registration, or, for a taken address, tells its owner an account exists.
 */
export async function requestRegistration(
  { db }: Pick<Services, 'db'>,
  input: { askedBy: string; visitorEmail: string | null; email: string },
): Promise<RegistrationMail> {
  const email = requireValidEmail(input.email);
  if (input.visitorEmail) {
    throw new DomainError(
      409,
      'already_registered',
      'You already have an account: sign out first to create another.',
    );
  }
  const token = newToken();
  // One transaction on both paths, so a taken address answers in the same time as a new one.
  const taken = await db.prisma.$transaction(async (tx) => {
    await endEarlier(tx, email, 'register');
    if (await tx.user.findUnique({ where: { email }, select: { id: true } })) return true;
    await tx.emailSignIn.create({
      data: {
        id: randomUUID(),
        purpose: 'register',
        email,
        askedBy: input.askedBy,
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + REGISTRATION_TTL_MS),
      },
    });
    return false;
  });
  return taken ? { kind: 'account-exists', email } : { kind: 'confirm', email, token };
}

const pendingSelect = {
  id: true,
  purpose: true,
  email: true,
  askedBy: true,
  usedAt: true,
  expiresAt: true,
  codeAttempts: true,
} as const;
type Pending = Prisma.EmailSignInGetPayload<{ select: typeof pendingSelect }>;

/** The row a token names, if it can still be used for `purpose`; else the reason it cannot. */
function requireUsable(row: Pending | null, purpose: Purpose): Pending {
  if (!row || row.purpose !== purpose) throw refusal('invalid_link');
  // Five wrong codes end the link mailed with them too: someone is guessing at this sign-in.
  if (row.usedAt || row.expiresAt <= new Date() || row.codeAttempts >= MAX_CODE_ATTEMPTS) {
    throw refusal('link_expired');
  }
  return row;
}

const findByToken = (tx: Prisma.TransactionClient, token: string) =>
  tx.emailSignIn.findUnique({ where: { tokenHash: hashToken(token) }, select: pendingSelect });

/** Claims a row by its token: once, before it expires; the claim and its effect are one transaction. */
async function claimByToken(tx: Prisma.TransactionClient, token: string, purpose: Purpose) {
  const row = requireUsable(await findByToken(tx, token), purpose);
  const claimed = await tx.emailSignIn.updateMany({
    where: { id: row.id, usedAt: null },
    data: { usedAt: new Date() },
  });
  if (claimed.count !== 1) throw refusal('link_expired');
  return row;
}

/**
 * What the page a mailed link opens shows before its button is pressed: the address, and whether
 * to ask before this browser's membership moves. Uses nothing up.
 */
export async function previewMailedLink(
  { db }: Pick<Services, 'db'>,
  input: { token: string; purpose: Purpose; leaving: Session | null },
): Promise<MailedLinkPreview> {
  const row = requireUsable(await findByToken(db.prisma, input.token), input.purpose);
  return {
    email: row.email,
    askToMove: await mustAskToMove(db.prisma, input.leaving, row.askedBy),
  };
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === 'P2002';

/**
 * The form on /register/confirm: the address is proven, its owner's password set, and the account
 * made on this browser's anonymous id (never on that of whoever asked) and signed in.
 */
export async function confirmRegistration(
  { db }: Pick<Services, 'db'>,
  input: { token: string; password: string; moveMembership: boolean; leaving: Session | null },
): Promise<SessionGrant> {
  if (input.leaving?.user?.email) throw refusal('already_registered');
  // A link that cannot work, or a weak password, is refused before the costly hash.
  const pending = requireUsable(await findByToken(db.prisma, input.token), 'register');
  const problem = await checkNewPassword(input.password, [pending.email]);
  if (problem) throw new DomainError(400, 'weak_password', problem);
  const passwordHash = await getPasswordHash(input.password);
  return db.prisma
    .$transaction(async (tx) => {
      const row = await claimByToken(tx, input.token, 'register');
      await requireConsentToMove(tx, input.leaving, row.askedBy, input.moveMembership);
      return attachProvenAddress(tx, {
        userId: anonymousIdOf(input.leaving) ?? randomUUID(),
        email: row.email,
        passwordHash,
      });
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) throw refusal('email_taken');
      throw error;
    });
}

export interface SignInMail {
  email: string;
  token: string;
  /** Null when the address had too many wrong codes today: only the link signs in. */
  code: string | null;
}

/**
 * "Email me a sign-in link": a link and a code, for any valid address (one without an account
 * gets one when the link is used), so the answer and the mail are the same for every address.
 * Earlier links and codes of the address stop working. `askedBy` is the asking browser's session
 * user: what it holds anonymously follows it into the account.
 */
export async function requestEmailSignIn(
  { db }: { db: Pick<Services['db'], 'prisma'> },
  input: { email: string; askedBy: string | null; withCode: boolean },
): Promise<SignInMail> {
  const email = requireValidEmail(input.email);
  const token = newToken();
  const code = input.withCode ? newCode() : null;
  const id = randomUUID();
  await db.prisma.$transaction(async (tx) => {
    await endEarlier(tx, email, 'sign-in');
    await tx.emailSignIn.create({
      data: {
        id,
        purpose: 'sign-in',
        email,
        askedBy: input.askedBy,
        tokenHash: hashToken(token),
        codeHash: code && hashCode(id, code).toString('hex'),
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
  const userId = anonymousIdOf(leaving) ?? randomUUID();
  return attachProvenAddress(tx, { userId, email, passwordHash: null });
}

async function finishSignIn(
  deps: Pick<Services, 'db'> & { graceDays: number },
  leaving: Session | null,
  work: (tx: Prisma.TransactionClient) => Promise<SessionGrant>,
): Promise<SessionGrant> {
  const grant = await deps.db.prisma.$transaction(work).catch((error: unknown) => {
    // The same address made into an account by another request at the same moment.
    if (isUniqueViolation(error)) throw refusal('link_expired');
    throw error;
  });
  await followIntoAccount(deps, leaving, grant.userId);
  return grant;
}

/** The button on /sign-in/link. */
export function confirmEmailLink(
  deps: Pick<Services, 'db'> & { graceDays: number },
  input: { token: string; moveMembership: boolean; leaving: Session | null },
): Promise<SessionGrant> {
  return finishSignIn(deps, input.leaving, async (tx) => {
    const row = await claimByToken(tx, input.token, 'sign-in');
    await requireConsentToMove(tx, input.leaving, row.askedBy, input.moveMembership);
    return signInProvenAddress(tx, row.email, input.leaving);
  });
}

/**
 * The code typed on the device that asked. Each try spends one of the row's attempts before the
 * code is compared (in constant time), so no number of parallel guesses gets more than five; and
 * past `codeLimit`'s wrong codes for the address in a day, no code is taken at all (the link
 * still signs in), so asking for new codes again and again does not make guessing pay.
 */
export async function confirmEmailCode(
  deps: Pick<Services, 'db'> & { graceDays: number; codeLimit: CodeLimit },
  input: { email: string; code: string; leaving: Session | null },
): Promise<SessionGrant> {
  const email = normalizeEmail(input.email);
  const code = input.code.replace(/[\s-]/g, '');
  if (!/^\d{6}$/.test(code)) {
    throw new DomainError(400, 'invalid_code', 'The code is the 6 digits in the mail we sent.');
  }
  if (!(await deps.codeLimit.allows(email))) throw refusal('too_many_codes');
  // The attempt is spent in a statement of its own, committed whatever the code turns out to be.
  const rows = await deps.db.prisma.$queryRaw<
    { id: string; codeHash: string; askedBy: string | null }[]
  >`
    UPDATE email_sign_ins SET "codeAttempts" = "codeAttempts" + 1
    WHERE id = (SELECT id FROM email_sign_ins
                WHERE email = ${email} AND purpose = 'sign-in' AND "codeHash" IS NOT NULL
                ORDER BY "createdAt" DESC LIMIT 1)
      AND "usedAt" IS NULL AND "expiresAt" > now() AND "codeAttempts" < ${MAX_CODE_ATTEMPTS}
    RETURNING id, "codeHash", "askedBy"`;
  const row = rows[0];
  if (!row) throw refusal('code_expired');
  if (!timingSafeEqual(hashCode(row.id, code), Buffer.from(row.codeHash, 'hex'))) {
    await deps.codeLimit.missed(email);
    throw refusal('invalid_code');
  }
  return finishSignIn(deps, input.leaving, async (tx) => {
    const claimed = await tx.emailSignIn.updateMany({
      where: { id: row.id, usedAt: null },
      data: { usedAt: new Date() },
    });
    if (claimed.count !== 1) throw refusal('code_expired');
    // The code is typed where it was asked for: the code form has no question to ask.
    await requireConsentToMove(tx, input.leaving, row.askedBy, false);
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
      `Open this link to choose your password and finish. It works once, for ${hours} hours:\n\n` +
      `${site.siteUrl}/register/confirm#token=${mail.token}\n\n` +
      `If it was not you, ignore this mail: no account is made.\n`,
  };
}

export function signInMail(
  mail: SignInMail,
  site: { siteUrl: string; siteName: string },
): { to: string; subject: string; text: string } {
  const minutes = SIGN_IN_LINK_TTL_MS / 60_000;
  const link =
    `Open this link and press the button to sign in to ${site.siteName}:\n\n` +
    `${site.siteUrl}/sign-in/link#token=${mail.token}\n\n`;
  const ending =
    `If you have no account yet, signing in makes one.\n\n` +
    `If it was not you, ignore this mail: nobody is signed in.\n`;
  if (!mail.code) {
    return {
      to: mail.email,
      subject: `Sign in to ${site.siteName}`,
      text:
        link +
        `This mail has no code: too many wrong codes were typed for this address today, so for ` +
        `now only the link signs in. It works once, for ${minutes} minutes. ` +
        ending,
    };
  }
  return {
    to: mail.email,
    subject: `Sign in to ${site.siteName}: code ${mail.code}`,
    text:
      link +
      `Or type this code where you asked for it: ${mail.code}\n\n` +
      `The link and the code work once, for ${minutes} minutes. ` +
      ending,
  };
}

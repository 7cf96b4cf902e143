import { randomUUID } from 'node:crypto';
import {
  hasControlCharacters,
  isValidEmail,
  normalizeEmail,
} from '../../../contract/account-rules.js';
import {
  NEWSLETTER_CONFIRM_DAYS,
  type NewsletterSubscription,
} from '../../../contract/newsletters.js';
import type { NewsletterState } from '../generated/prisma/client.js';
import { DomainError } from '../domain-error.js';
import type { Services } from '../services.js';
import { createConfirmToken, hashConfirmToken } from './tokens.js';

const DAY_MS = 86_400_000;
/** One confirmation (or "already subscribed") mail per address per this long, whoever asks. */
export const CONFIRM_MAIL_INTERVAL_MS = 10 * 60_000;

/** What the visitor's sign-up led to. The answer to the visitor is the same for every `mail`. */
export type SubscribeOutcome =
  | { kind: 'subscribed'; email: string }
  | {
      kind: 'check-inbox';
      email: string;
      /** What to mail the address: nothing (mailed a moment ago), a link, or a reminder. */
      mail: null | { kind: 'confirm'; token: string } | { kind: 'already-subscribed' };
    };

function requireEmail(input: string): string {
  const email = normalizeEmail(input);
  if (hasControlCharacters(input) || !isValidEmail(email)) {
    throw new DomainError(
      400,
      'invalid_email',
      'Enter a valid email address, like name@example.com.',
    );
  }
  return email;
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === 'P2002';

/**
 * The account whose proven address this is (docs/decisions/0014-proven-addresses.md): an account
 * that never proved its address owns nothing tied to it, so a sign-up is not linked to it.
 */
async function findProvenOwner({ db }: Pick<Services, 'db'>, email: string) {
  return db.prisma.user.findFirst({
    where: { email, emailVerifiedAt: { not: null } },
    select: { id: true },
  });
}

/** Sign-ups nobody confirmed within NEWSLETTER_CONFIRM_DAYS are forgotten. */
export async function dropExpiredSignUps({ db }: Pick<Services, 'db'>, now = new Date()) {
  const { count } = await db.prisma.newsletterSubscriber.deleteMany({
    where: { state: 'pending', confirmExpiresAt: { lt: now } },
  });
  return count;
}

/**
 * A sign-up from a form. A registered user giving their own account's address is subscribed at
 * once (the address is theirs); anyone else gets a confirmation link by mail (double opt-in). An
 * address that is already on the list is not an error, and the visitor learns nothing about it:
 * its owner gets a reminder instead of a link.
 */
export async function subscribe(
  { db }: Pick<Services, 'db'>,
  input: { email: string; account: { userId: string; email: string } | null },
  now = new Date(),
): Promise<SubscribeOutcome> {
  const email = requireEmail(input.email);
  await dropExpiredSignUps({ db }, now);
  if (input.account && input.account.email === email) {
    await subscribeAccount({ db }, input.account, now);
    return { kind: 'subscribed', email };
  }
  const existing = await db.prisma.newsletterSubscriber.findUnique({
    where: { email },
    select: { id: true, state: true, confirmMailedAt: true },
  });
  const mailedRecently =
    existing?.confirmMailedAt != null &&
    now.getTime() - existing.confirmMailedAt.getTime() < CONFIRM_MAIL_INTERVAL_MS;
  if (mailedRecently) return { kind: 'check-inbox', email, mail: null };
  if (existing?.state === 'confirmed') {
    await db.prisma.newsletterSubscriber.update({
      where: { id: existing.id },
      data: { confirmMailedAt: now },
    });
    return { kind: 'check-inbox', email, mail: { kind: 'already-subscribed' } };
  }
  const { token, hash } = createConfirmToken();
  const link = {
    confirmTokenHash: hash,
    confirmExpiresAt: new Date(now.getTime() + NEWSLETTER_CONFIRM_DAYS * DAY_MS),
    confirmMailedAt: now,
  };
  if (existing) {
    // Pending, unsubscribed or bouncing: a fresh link; the state changes when it is pressed.
    await db.prisma.newsletterSubscriber.update({ where: { id: existing.id }, data: link });
  } else {
    const owner = await findProvenOwner({ db }, email);
    try {
      await db.prisma.newsletterSubscriber.create({
        data: { id: randomUUID(), email, state: 'pending', userId: owner?.id ?? null, ...link },
      });
    } catch (error) {
      // The same address signed up by a request running at the same moment: that one mails it.
      if (isUniqueViolation(error)) return { kind: 'check-inbox', email, mail: null };
      throw error;
    }
  }
  return { kind: 'check-inbox', email, mail: { kind: 'confirm', token } };
}

/** A registered user's own address, on the list at once and linked to them. */
async function subscribeAccount(
  { db }: Pick<Services, 'db'>,
  account: { userId: string; email: string },
  now: Date,
) {
  const confirmed = {
    state: 'confirmed' as const,
    userId: account.userId,
    confirmedAt: now,
    unsubscribedAt: null,
    confirmTokenHash: null,
    confirmExpiresAt: null,
    permanentFailures: 0,
  };
  await db.prisma.$transaction([
    // The row of an address the user had before an email change stays, unlinked.
    db.prisma.newsletterSubscriber.updateMany({
      where: { userId: account.userId, NOT: { email: account.email } },
      data: { userId: null },
    }),
    db.prisma.newsletterSubscriber.upsert({
      where: { email: account.email },
      create: { id: randomUUID(), email: account.email, ...confirmed },
      update: confirmed,
    }),
  ]);
}

/** The button on the page the confirmation link opens. */
export async function confirmSubscription(
  { db }: Pick<Services, 'db'>,
  token: string,
  now = new Date(),
): Promise<{ email: string }> {
  const subscriber = await db.prisma.newsletterSubscriber.findUnique({
    where: { confirmTokenHash: hashConfirmToken(token) },
    select: { id: true, email: true, userId: true, confirmExpiresAt: true },
  });
  if (!subscriber || !subscriber.confirmExpiresAt || subscriber.confirmExpiresAt <= now) {
    throw new DomainError(
      400,
      'invalid_token',
      `This link has expired or was already used. Sign up again for a new one (links work for ${NEWSLETTER_CONFIRM_DAYS} days).`,
    );
  }
  const owner = subscriber.userId ? null : await findProvenOwner({ db }, subscriber.email);
  const linkOwner =
    owner &&
    !(await db.prisma.newsletterSubscriber.findUnique({
      where: { userId: owner.id },
      select: { id: true },
    }));
  await db.prisma.newsletterSubscriber.update({
    where: { id: subscriber.id },
    data: {
      state: 'confirmed',
      confirmedAt: now,
      unsubscribedAt: null,
      confirmTokenHash: null,
      confirmExpiresAt: null,
      permanentFailures: 0,
      ...(linkOwner && owner && { userId: owner.id }),
    },
  });
  return { email: subscriber.email };
}

/** Unsubscribes (RFC 8058's one-click POST, or the page the mail's link opens). Idempotent. */
export async function unsubscribe(
  { db }: Pick<Services, 'db'>,
  subscriberId: string,
  now = new Date(),
): Promise<{ email: string } | null> {
  const subscriber = await db.prisma.newsletterSubscriber.findUnique({
    where: { id: subscriberId },
    select: { email: true, state: true },
  });
  if (!subscriber) return null;
  if (subscriber.state !== 'unsubscribed') {
    await db.prisma.newsletterSubscriber.update({
      where: { id: subscriberId },
      data: {
        state: 'unsubscribed',
        unsubscribedAt: now,
        confirmTokenHash: null,
        confirmExpiresAt: null,
      },
    });
  }
  return { email: subscriber.email };
}

/**
 * "Subscribe again" on the unsubscribe page: the token came in a mail to the address, which is
 * all the confirmation double opt-in asks for.
 */
export async function resubscribe(
  { db }: Pick<Services, 'db'>,
  subscriberId: string,
  now = new Date(),
): Promise<{ email: string } | null> {
  const updated = await db.prisma.newsletterSubscriber.updateManyAndReturn({
    where: { id: subscriberId },
    data: { state: 'confirmed', confirmedAt: now, unsubscribedAt: null, permanentFailures: 0 },
    select: { email: true },
  });
  return updated[0] ?? null;
}

/** What /account shows: the choice of the user's own address. */
export async function getAccountSubscription(
  { db }: Pick<Services, 'db'>,
  account: { userId: string; email: string },
  now = new Date(),
): Promise<NewsletterSubscription> {
  const subscriber = await db.prisma.newsletterSubscriber.findFirst({
    where: { OR: [{ userId: account.userId }, { email: account.email }] },
    orderBy: { updatedAt: 'desc' },
    select: { email: true, state: true, confirmExpiresAt: true },
  });
  return {
    email: account.email,
    subscribed: subscriber?.state === 'confirmed',
    pending:
      subscriber?.state === 'pending' &&
      subscriber.confirmExpiresAt !== null &&
      subscriber.confirmExpiresAt > now,
  };
}

/** /account's switch. */
export async function setAccountSubscription(
  { db }: Pick<Services, 'db'>,
  account: { userId: string; email: string },
  subscribed: boolean,
  now = new Date(),
): Promise<NewsletterSubscription> {
  if (subscribed) {
    await subscribeAccount({ db }, account, now);
  } else {
    await db.prisma.newsletterSubscriber.updateMany({
      where: {
        OR: [{ userId: account.userId }, { email: account.email }],
        NOT: { state: 'unsubscribed' },
      },
      data: { state: 'unsubscribed', unsubscribedAt: now, confirmTokenHash: null },
    });
  }
  return getAccountSubscription({ db }, account, now);
}

/** How many addresses are in each state (unconfirmed sign-ups past their days are dropped first). */
export async function countSubscribersByState({
  db,
}: Pick<Services, 'db'>): Promise<Record<NewsletterState, number>> {
  await dropExpiredSignUps({ db });
  const groups = await db.prisma.newsletterSubscriber.groupBy({
    by: ['state'],
    _count: { _all: true },
  });
  const counts: Record<NewsletterState, number> = {
    pending: 0,
    confirmed: 0,
    unsubscribed: 0,
    bouncing: 0,
  };
  for (const group of groups) counts[group.state] = group._count._all;
  return counts;
}

import { withTransaction, type Tx } from '../db/transaction.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { Services } from '../services.js';
import type { Payment, User } from '../../../contract/api.js';
import { lastDayOf } from '../../../contract/last-day.js';
import {
  ACCESS_STATUSES,
  LIVE_SUBSCRIPTION_STATUSES,
  placeEntries,
  type LedgerEntry,
  type LedgerSubscription,
} from './derive-membership.js';
import { lockUserId, recomputeMembership } from './ledger.js';
import { recordMemberEvent } from '../outbox/webhook-events.js';

/**
 * Cohort's membership rules, in one place (docs/decisions/0008-membership-ledger.md).
 * The ledger (`entitlements`: what was paid, what it covers, what was taken back) is the truth;
 * the `memberships` row is derived from it in the same transaction as every change, and is what
 * `/api/me` reads. Stripe's word reaches the ledger through stripe/apply-payment-facts.ts; the
 * rest of the app comes here: access, the sign-in merge, deletion, the payments list, billing.
 */

export interface MembershipState {
  plan: 'one-time' | 'subscription';
  status: string;
  expiresAt: Date;
  /** The slug of the tier it gives access to (contract/tiers.ts), where the reading has it. */
  tier?: string;
}

export function isMembershipActive(membership: MembershipState | null, now = new Date()): boolean {
  return (
    membership !== null && ACCESS_STATUSES.has(membership.status) && membership.expiresAt > now
  );
}

export function toMembershipView(
  membership: MembershipState | null,
  now = new Date(),
): Pick<User, 'isSubscribed' | 'membership'> {
  return {
    isSubscribed: isMembershipActive(membership, now),
    membership: membership && {
      plan: membership.plan,
      status: membership.status,
      expiresAt: membership.expiresAt.toISOString(),
      lastDay: lastDayOf(membership.expiresAt),
    },
  };
}

const LIVE = [...LIVE_SUBSCRIPTION_STATUSES];

/**
 * An anonymous visitor signs in to an account: everything the visitor paid moves to the account
 * (the ledger adds it up; no paid time is lost), every Stripe customer stays linked, and a pointer
 * sends any payment that arrives later for the anonymous id to the account. Written whether or not
 * the visitor has paid yet: a payment can land after the sign-in.
 */
export async function mergeAnonymousUser(
  { db }: Pick<Services, 'db'>,
  input: { fromUserId: string; toUserId: string; graceDays: number },
): Promise<void> {
  const { fromUserId, toUserId } = input;
  if (fromUserId === toUserId) return;
  await withTransaction(db.pool, async (tx) => {
    await lockUserId(tx, fromUserId);
    await lockUserId(tx, toUserId);
    await tx.query(
      `INSERT INTO user_merges ("fromUserId", "toUserId") VALUES ($1, $2)
       ON CONFLICT ("fromUserId") DO NOTHING`,
      [fromUserId, toUserId],
    );
    const moved = await tx.query(
      `WITH e AS (UPDATE entitlements SET "userId" = $2, "updatedAt" = now()
                  WHERE "userId" = $1 RETURNING 1),
            s AS (UPDATE subscriptions SET "userId" = $2, "updatedAt" = now()
                  WHERE "userId" = $1 RETURNING 1),
            c AS (UPDATE stripe_customers SET "userId" = $2 WHERE "userId" = $1 RETURNING 1)
       SELECT (SELECT count(*) FROM e) + (SELECT count(*) FROM s) + (SELECT count(*) FROM c)
              AS n`,
      [fromUserId, toUserId],
    );
    // The anonymous row has nothing left; the pointer stands in for it.
    await tx.query('DELETE FROM users WHERE id = $1 AND email IS NULL', [fromUserId]);
    if (Number((moved.rows[0] as { n: string } | undefined)?.n ?? 0) > 0) {
      await recomputeMembership(tx, toUserId, input.graceDays);
    }
  });
}

/**
 * Whether an anonymous id holds anything a sign-in would move into an account (the rows
 * `mergeAnonymousUser` moves). Takes a transaction's client: a sign-in asks inside its own.
 */
export async function holdsPayments(
  tx: Prisma.TransactionClient,
  userId: string,
): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ holds: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM entitlements WHERE "userId" = ${userId}::uuid)
        OR EXISTS (SELECT 1 FROM subscriptions WHERE "userId" = ${userId}::uuid)
        OR EXISTS (SELECT 1 FROM stripe_customers WHERE "userId" = ${userId}::uuid) AS holds`;
  return row?.holds ?? false;
}

/** Cohort subscriptions of the user that can still charge: cancel these before deleting. */
export async function liveSubscriptionIds(
  { db }: Pick<Services, 'db'>,
  userId: string,
): Promise<string[]> {
  const { rows } = await db.pool.query<{ id: string }>(
    `SELECT id FROM subscriptions
     WHERE "userId" = $1 AND status NOT IN ('canceled', 'incomplete_expired')`,
    [userId],
  );
  return rows.map((row) => row.id);
}

/**
 * Deletes the user and everything of theirs, leaving their id (and every anonymous id merged into
 * it) marked deleted: a late event for any of them is recorded with no effect, never a new user.
 */
export async function deleteUserAndLedger(
  { db }: Pick<Services, 'db'>,
  userId: string,
): Promise<void> {
  await withTransaction(db.pool, async (tx: Tx) => {
    await lockUserId(tx, userId);
    await tx.query(
      `INSERT INTO deleted_users (id)
       SELECT $1::uuid UNION SELECT "fromUserId" FROM user_merges WHERE "toUserId" = $1
       ON CONFLICT (id) DO NOTHING`,
      [userId],
    );
    await recordMemberEvent(tx, 'member.deleted', userId);
    await tx.query('DELETE FROM users WHERE id = $1', [userId]);
  });
}

/**
 * The Stripe customer whose billing portal the user should see: the one of their live
 * subscription, else the one linked last.
 */
export async function billingCustomerOf(
  { db }: Pick<Services, 'db'>,
  userId: string,
): Promise<string | null> {
  const { rows } = await db.pool.query<{ id: string }>(
    `SELECT id FROM (
       SELECT "customerId" AS id, 0 AS rank, "stripeCreatedAt" AS at FROM subscriptions
       WHERE "userId" = $1 AND status = ANY($2::text[])
       UNION ALL
       SELECT id, 1, "createdAt" FROM stripe_customers WHERE "userId" = $1
     ) candidates ORDER BY rank, at DESC LIMIT 1`,
    [userId, LIVE],
  );
  return rows[0]?.id ?? null;
}

/** Is `payerId` this user, or an anonymous id that merged into them at sign-in? */
export async function isSameUser(
  { db }: Pick<Services, 'db'>,
  payerId: string,
  userId: string,
): Promise<boolean> {
  if (payerId === userId) return true;
  const { rowCount } = await db.pool.query(
    'SELECT 1 FROM user_merges WHERE "toUserId" = $2 AND "fromUserId"::text = $1',
    [payerId, userId],
  );
  return (rowCount ?? 0) > 0;
}

/** Does the user have a Cohort subscription that is live, or still being paid? */
export async function hasOpenSubscription(
  { db }: Pick<Services, 'db'>,
  userId: string,
): Promise<boolean> {
  const { rowCount } = await db.pool.query(
    `SELECT 1 FROM subscriptions WHERE "userId" = $1 AND status = ANY($2::text[]) LIMIT 1`,
    [userId, [...LIVE, 'incomplete']],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * The plan a subscription invoice paid for, read from the period it paid: a month is at most 31
 * days, a year at least 365 (what a plan was called then does not matter: what was paid does).
 */
function billingInterval(entry: LedgerEntry): 'month' | 'year' | null {
  if (entry.source !== 'subscription-invoice' || !entry.periodStart || !entry.periodEnd) {
    return null;
  }
  const days = (entry.periodEnd.getTime() - entry.periodStart.getTime()) / (24 * 3600 * 1000);
  return days > 60 ? 'year' : 'month';
}

/** The user's payments, newest first, with the time each one covers on the ledger. */
export async function listPayments(
  { db }: Pick<Services, 'db'>,
  userId: string,
): Promise<Payment[]> {
  const entries = await db.pool.query<
    LedgerEntry & { amountCents: number; currency: string; trial: boolean }
  >(
    `SELECT id, source, "subscriptionId", "paidAt", "periodStart", "periodEnd", days, state,
            "amountCents", currency, trial
     FROM entitlements WHERE "userId" = $1 ORDER BY "paidAt" DESC, id`,
    [userId],
  );
  const subscriptions = await db.pool.query<LedgerSubscription>(
    'SELECT id, status FROM subscriptions WHERE "userId" = $1',
    [userId],
  );
  const coverage = placeEntries(entries.rows, subscriptions.rows);
  return entries.rows.map((entry) => {
    const spans = coverage.filter((c) => c.entryId === entry.id);
    const first = spans[0];
    const last = spans.at(-1);
    return {
      id: entry.id,
      kind: entry.source,
      amountCents: entry.amountCents,
      currency: entry.currency,
      interval: entry.trial ? null : billingInterval(entry),
      trial: entry.trial,
      paidAt: entry.paidAt.toISOString(),
      state: entry.state,
      covers:
        first && last
          ? {
              from: first.start.toISOString(),
              until: last.end.toISOString(),
              lastDay: lastDayOf(last.end),
            }
          : null,
    };
  });
}

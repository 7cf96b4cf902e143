import type { Tx } from '../db/transaction.js';
import type { UserView } from '../users/user-schema.js';
import { ensureUserRow } from '../users/ensure-user-row.js';

/**
 * Cohort's membership rules, in one place: the webhook, the checkout return and /api/me all go
 * through here. A user has at most one membership. Memberships are matched by our user id (carried
 * in Stripe metadata), never by email.
 *
 * The writes are explicit SQL inside the caller's transaction (`withTransaction`): the conflict
 * handling that makes them idempotent is in plain view, and the webhook path makes a few round
 * trips instead of Prisma's many (tests/bench/webhooks.ts).
 */

export const ONE_TIME_MEMBERSHIP_DAYS = 365;

/** Stripe subscription status → does it give access? (`past_due`: until the paid period ends.) */
export const SUBSCRIPTION_STATUS_ACCESS: Readonly<Record<string, boolean>> = {
  active: true,
  trialing: true,
  past_due: true,
  canceled: false,
  unpaid: false,
  incomplete: false,
  incomplete_expired: false,
  paused: false,
};

/** Statuses that give access while `expiresAt` is in the future. */
const ACCESS_STATUSES = new Set([
  'active', // a one-time membership, or an active subscription
  ...Object.entries(SUBSCRIPTION_STATUS_ACCESS)
    .filter(([, access]) => access)
    .map(([status]) => status),
]);

export interface MembershipState {
  plan: 'one-time' | 'subscription';
  status: string;
  expiresAt: Date;
}

export function isMembershipActive(membership: MembershipState | null, now = new Date()): boolean {
  return (
    membership !== null && ACCESS_STATUSES.has(membership.status) && membership.expiresAt > now
  );
}

export function toMembershipView(
  membership: MembershipState | null,
  now = new Date(),
): Pick<UserView, 'isSubscribed' | 'membership'> {
  return {
    isSubscribed: isMembershipActive(membership, now),
    membership: membership && {
      plan: membership.plan,
      status: membership.status,
      expiresAt: membership.expiresAt.toISOString(),
    },
  };
}

/** SQL for "this membership gives access now": the same rule as `isMembershipActive`. */
export const givesAccess = (table: string) =>
  `(${table}.status IN (${[...ACCESS_STATUSES].map((status) => `'${status}'`).join(', ')})` +
  ` AND ${table}."expiresAt" > now())`;

interface PaymentRecord {
  id: string;
  userId: string;
  plan: 'one-time' | 'subscription';
  amountCents: number;
  currency: string;
}

/** Records a payment once. False when it was already recorded (a replay or a race). */
async function recordPayment(tx: Tx, payment: PaymentRecord): Promise<boolean> {
  const result = await tx.query(
    `INSERT INTO payments (id, "userId", plan, "amountCents", currency)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
    [payment.id, payment.userId, payment.plan, payment.amountCents, payment.currency],
  );
  return result.rowCount === 1;
}

export interface OneTimePayment {
  userId: string;
  paymentIntentId: string;
  amountCents: number;
  currency: string;
}

/**
 * A paid early-access PaymentIntent: a year of membership, added to any time still left. Granted
 * once per PaymentIntent however often it is reported.
 */
export async function grantOneTimeMembership(tx: Tx, payment: OneTimePayment): Promise<boolean> {
  await ensureUserRow(tx, payment.userId);
  const isNew = await recordPayment(tx, {
    id: payment.paymentIntentId,
    userId: payment.userId,
    plan: 'one-time',
    amountCents: payment.amountCents,
    currency: payment.currency,
  });
  if (!isNew) return false;
  // One statement, so two payments landing at once both count. A live subscription keeps its
  // plan (it still renews); the paid year is added on top either way.
  await tx.query(
    `INSERT INTO memberships ("userId", plan, status, "expiresAt", "updatedAt")
     VALUES ($1, 'one-time', 'active', now() + make_interval(days => $2), now())
     ON CONFLICT ("userId") DO UPDATE SET
       plan = CASE WHEN memberships."stripeSubscriptionId" IS NOT NULL
                    AND ${givesAccess('memberships')}
                   THEN memberships.plan ELSE 'one-time' END,
       status = 'active',
       "expiresAt" = CASE WHEN ${givesAccess('memberships')}
                          THEN memberships."expiresAt" ELSE now() END
                     + make_interval(days => $2),
       "updatedAt" = now()`,
    [payment.userId, ONE_TIME_MEMBERSHIP_DAYS],
  );
  return true;
}

export interface SubscriptionState {
  userId: string;
  subscriptionId: string;
  customerId: string | null;
  status: string;
  currentPeriodEnd: Date;
  /** When this state was read from Stripe: older reads never overwrite newer ones. */
  readAt: Date;
  /** The invoice that paid for it, when known. */
  invoice?: { id: string; amountCents: number; currency: string };
}

/**
 * Stores a subscription's state as Stripe reported it. Setting state rather than adding time makes
 * every replay, and every race between the webhook and the checkout return, end in one grant.
 */
export async function applySubscriptionState(tx: Tx, state: SubscriptionState): Promise<void> {
  await ensureUserRow(tx, state.userId);
  if (state.customerId) {
    await tx.query(
      `UPDATE users SET "stripeCustomerId" = $2, "updatedAt" = now()
       WHERE id = $1 AND "stripeCustomerId" IS NULL`,
      [state.userId, state.customerId],
    );
  }
  if (state.invoice) {
    await recordPayment(tx, {
      id: state.invoice.id,
      userId: state.userId,
      plan: 'subscription',
      amountCents: state.invoice.amountCents,
      currency: state.invoice.currency,
    });
  }
  // The subscription's state replaces the membership unless Stripe told us something newer about
  // it already, or the membership is a different one that still gives access (a paid year).
  await tx.query(
    `INSERT INTO memberships
       ("userId", plan, status, "expiresAt", "stripeSubscriptionId", "stripeSyncedAt", "updatedAt")
     VALUES ($1, 'subscription', $2, $3, $4, $5, now())
     ON CONFLICT ("userId") DO UPDATE SET
       plan = 'subscription',
       status = EXCLUDED.status,
       "expiresAt" = EXCLUDED."expiresAt",
       "stripeSubscriptionId" = EXCLUDED."stripeSubscriptionId",
       "stripeSyncedAt" = EXCLUDED."stripeSyncedAt",
       "updatedAt" = now()
     WHERE (memberships."stripeSubscriptionId" = EXCLUDED."stripeSubscriptionId"
            AND (memberships."stripeSyncedAt" IS NULL
                 OR memberships."stripeSyncedAt" <= EXCLUDED."stripeSyncedAt"))
        OR (memberships."stripeSubscriptionId" IS DISTINCT FROM EXCLUDED."stripeSubscriptionId"
            AND NOT ${givesAccess('memberships')})`,
    [state.userId, state.status, state.currentPeriodEnd, state.subscriptionId, state.readAt],
  );
}

/**
 * A fully refunded charge. A refunded early-access payment takes back its year (what is left of
 * other payments stays); a refunded subscription payment ends the membership.
 */
export async function revokeRefundedPayment(
  tx: Tx,
  refund: { paymentIntentId: string | null; customerId: string | null },
): Promise<boolean> {
  if (refund.paymentIntentId) {
    const refunded = await tx.query<{ userId: string }>(
      `UPDATE payments SET "refundedAt" = now()
       WHERE id = $1 AND plan = 'one-time' AND "refundedAt" IS NULL
       RETURNING "userId"`,
      [refund.paymentIntentId],
    );
    const userId = refunded.rows[0]?.userId;
    if (userId) {
      await tx.query(
        `UPDATE memberships SET
           "expiresAt" = "expiresAt" - make_interval(days => $2),
           status = CASE WHEN "expiresAt" - make_interval(days => $2) > now()
                         THEN status ELSE 'refunded' END,
           "updatedAt" = now()
         WHERE "userId" = $1 AND plan = 'one-time'`,
        [userId, ONE_TIME_MEMBERSHIP_DAYS],
      );
      return true;
    }
  }
  if (refund.customerId) {
    const revoked = await tx.query(
      `UPDATE memberships m SET status = 'refunded', "expiresAt" = now(), "updatedAt" = now()
       FROM users u
       WHERE u.id = m."userId" AND u."stripeCustomerId" = $1
         AND m.plan = 'subscription' AND m.status <> 'refunded'`,
      [refund.customerId],
    );
    return (revoked.rowCount ?? 0) > 0;
  }
  return false;
}

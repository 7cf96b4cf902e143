import type { Prisma } from '../generated/prisma/client.js';
import type { UserView } from '../users/user-schema.js';

/**
 * Cohort's membership rules, in one place: the webhook, the checkout return and /api/me all go
 * through here. A user has at most one membership. Memberships are matched by our user id (carried
 * in Stripe metadata), never by email.
 */

type Tx = Prisma.TransactionClient;

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
  plan: 'one_time' | 'subscription';
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
      plan: membership.plan === 'one_time' ? 'one-time' : 'subscription',
      status: membership.status,
      expiresAt: membership.expiresAt.toISOString(),
    },
  };
}

async function ensureUser(tx: Tx, userId: string): Promise<void> {
  await tx.user.createMany({ data: [{ id: userId }], skipDuplicates: true });
}

/** Records a payment once. False when it was already recorded (a replay or a race). */
async function recordPayment(
  tx: Tx,
  payment: {
    id: string;
    userId: string;
    plan: 'one_time' | 'subscription';
    amountCents: number;
    currency: string;
  },
): Promise<boolean> {
  const { count } = await tx.payment.createMany({ data: [payment], skipDuplicates: true });
  return count === 1;
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
  await ensureUser(tx, payment.userId);
  const isNew = await recordPayment(tx, {
    id: payment.paymentIntentId,
    userId: payment.userId,
    plan: 'one_time',
    amountCents: payment.amountCents,
    currency: payment.currency,
  });
  if (!isNew) return false;
  // One statement, so two payments landing at once both count.
  await tx.$executeRaw`
    INSERT INTO memberships ("userId", plan, status, "expiresAt", "updatedAt")
    VALUES (${payment.userId}::uuid, 'one-time', 'active',
            now() + make_interval(days => ${ONE_TIME_MEMBERSHIP_DAYS}), now())
    ON CONFLICT ("userId") DO UPDATE SET
      plan = CASE WHEN memberships."stripeSubscriptionId" IS NOT NULL
                   AND memberships.status IN ('active', 'trialing', 'past_due')
                   AND memberships."expiresAt" > now()
                  THEN memberships.plan ELSE 'one-time' END,
      status = 'active',
      "expiresAt" = GREATEST(
        CASE WHEN memberships.status IN ('active', 'trialing', 'past_due')
             THEN memberships."expiresAt" ELSE now() END,
        now()) + make_interval(days => ${ONE_TIME_MEMBERSHIP_DAYS}),
      "updatedAt" = now()`;
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
  await ensureUser(tx, state.userId);
  if (state.customerId) {
    await tx.user.updateMany({
      where: { id: state.userId, stripeCustomerId: null },
      data: { stripeCustomerId: state.customerId },
    });
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
  // A subscription's state replaces the membership unless the membership is a different one that
  // still gives access (a one-time year bought before), or Stripe told us something newer already.
  await tx.$executeRaw`
    INSERT INTO memberships
      ("userId", plan, status, "expiresAt", "stripeSubscriptionId", "stripeSyncedAt", "updatedAt")
    VALUES (${state.userId}::uuid, 'subscription', ${state.status}, ${state.currentPeriodEnd},
            ${state.subscriptionId}, ${state.readAt}, now())
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
           AND NOT (memberships.status IN ('active', 'trialing', 'past_due')
                    AND memberships."expiresAt" > now()))`;
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
    const { count } = await tx.payment.updateMany({
      where: { id: refund.paymentIntentId, plan: 'one_time', refundedAt: null },
      data: { refundedAt: new Date() },
    });
    if (count === 1) {
      const payment = await tx.payment.findUniqueOrThrow({
        where: { id: refund.paymentIntentId },
        select: { userId: true },
      });
      await tx.$executeRaw`
        UPDATE memberships SET
          "expiresAt" = "expiresAt" - make_interval(days => ${ONE_TIME_MEMBERSHIP_DAYS}),
          status = CASE WHEN "expiresAt" - make_interval(days => ${ONE_TIME_MEMBERSHIP_DAYS}) > now()
                        THEN status ELSE 'refunded' END,
          "updatedAt" = now()
        WHERE "userId" = ${payment.userId}::uuid AND plan = 'one-time'`;
      return true;
    }
  }
  if (refund.customerId) {
    const { count } = await tx.membership.updateMany({
      where: {
        plan: 'subscription',
        status: { not: 'refunded' },
        user: { stripeCustomerId: refund.customerId },
      },
      data: { status: 'refunded', expiresAt: new Date() },
    });
    return count > 0;
  }
  return false;
}

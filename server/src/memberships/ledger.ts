import { randomUUID } from 'node:crypto';
import type { Tx } from '../db/transaction.js';
import {
  deriveMembership,
  FIRST_TIER_ID,
  LIVE_SUBSCRIPTION_STATUSES,
  type EntitlementState,
  type LedgerEntry,
} from './derive-membership.js';
import type {
  InvoiceFact,
  MembershipFact,
  OneTimeFact,
  SubscriptionFact,
} from './payment-facts.js';
import { markRedeemed } from './offer-redemptions.js';

/**
 * The ledger's writes: explicit SQL inside the caller's transaction (decision 0003 says why SQL on
 * the money path). Every write is idempotent: entitlements by their source id, subscriptions and
 * states guarded by when Stripe was read, taken-back states final. Gifts and seats keep their own
 * rules (gifts/gift-ledger.ts, seats/seat-ledger.ts) and put their years here through
 * `lockUserId` and `recomputeMembership`; stripe/apply-payment-facts.ts sends each payment Stripe
 * tells of to its module (docs/decisions/0008-membership-ledger.md).
 */

export const ONE_TIME_MEMBERSHIP_DAYS = 365;

/** What applying facts did, for the caller to act on after the transaction commits. */
export interface LedgerChange {
  userIds: Set<string>;
  /** Ids of `stripe_actions` rows queued: things Cohort now owes Stripe to do. */
  actionIds: string[];
  /** Lines for the operator's log. */
  notices: string[];
}

export const newLedgerChange = (): LedgerChange => ({
  userIds: new Set(),
  actionIds: [],
  notices: [],
});

const LIVE = [...LIVE_SUBSCRIPTION_STATUSES];

/**
 * The upsert of a payment's row (an entitlement, a gift, a seat funding) when it is read again: its
 * state follows the newest read of the charge, except that a state taken back (refunded, lost in a
 * dispute) stays taken back whatever arrives after.
 */
export const onConflictNewerState = (table: string) =>
  `ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, "stateReason" = EXCLUDED."stateReason",
                                    "stateReadAt" = EXCLUDED."stateReadAt", "updatedAt" = now()
     WHERE ${table}.state NOT IN ('refunded', 'revoked')
       AND ${table}.state IS DISTINCT FROM EXCLUDED.state
       AND (EXCLUDED.state IN ('refunded', 'revoked')
            OR ${table}."stateReadAt" <= EXCLUDED."stateReadAt")`;
/** States a payment never comes back from. */
export const TAKEN_BACK: readonly EntitlementState[] = ['refunded', 'revoked'];

/**
 * Serialises everything that places money on one user id (the webhook, the checkout return, a
 * sign-in merge, a deletion) for the rest of the transaction. A lock on the id, not on a row: the
 * id may not have a row yet. Always taken anonymous id first, then the account it merged into.
 */
export async function lockUserId(tx: Tx, userId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(1129270354, hashtext($1))', [userId]);
}

type Placement = { userId: string } | { deleted: true } | null;

/**
 * The user a payment for `candidate` belongs to now: the id itself, or the account it merged into
 * at sign-in; `deleted` for a deleted user, whose payments change nothing. Locks what it returns.
 */
async function placeUserId(tx: Tx, candidate: string): Promise<Placement> {
  let userId = candidate;
  for (let hop = 0; hop < 5; hop += 1) {
    await lockUserId(tx, userId);
    // Where the id stands now, and its row made if it is the one that pays: one round trip.
    const { rows } = await tx.query<{ mergedInto: string | null; deleted: boolean }>(
      `WITH place AS (
         SELECT (SELECT "toUserId" FROM user_merges WHERE "fromUserId" = $1) AS "mergedInto",
                EXISTS (SELECT 1 FROM deleted_users WHERE id = $1) AS deleted
       ), created AS (
         INSERT INTO users (id, "updatedAt")
         SELECT $1, now() FROM place WHERE "mergedInto" IS NULL AND NOT deleted
         ON CONFLICT (id) DO NOTHING
       )
       SELECT "mergedInto", deleted FROM place`,
      [userId],
    );
    const row = rows[0];
    if (row?.deleted) return { deleted: true };
    if (!row?.mergedInto) return { userId };
    userId = row.mergedInto;
  }
  throw new Error(`User ${candidate} merges into more accounts than a sign-in can make`);
}

/**
 * Whose subscription this is: the user holding it now, else the user id Cohort put in its
 * metadata, else the user of its customer; never an email.
 */
async function placeSubscription(tx: Tx, fact: SubscriptionFact): Promise<Placement> {
  const { rows } = await tx.query<{ holder: string | null; customerUser: string | null }>(
    `SELECT (SELECT "userId" FROM subscriptions WHERE id = $1) AS holder,
            (SELECT "userId" FROM stripe_customers WHERE id = $2) AS "customerUser"`,
    [fact.subscriptionId, fact.customerId],
  );
  const candidate = rows[0]?.holder ?? fact.userId ?? rows[0]?.customerUser;
  return candidate ? placeUserId(tx, candidate) : null;
}

async function linkCustomer(tx: Tx, userId: string, customerId: string | null): Promise<void> {
  if (!customerId) return;
  await tx.query(
    `INSERT INTO stripe_customers (id, "userId") VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`,
    [customerId, userId],
  );
}

/**
 * The tier a payment names, in SQL, if the site has it; else the first: a payment for a tier
 * deleted since its checkout began still gives what it paid for, never an error Stripe retries.
 */
const KNOWN_TIER = (parameter: string) =>
  `COALESCE((SELECT id FROM tiers WHERE id = ${parameter}::int), ${FIRST_TIER_ID})`;

async function upsertSubscription(tx: Tx, userId: string, fact: SubscriptionFact): Promise<void> {
  await linkCustomer(tx, userId, fact.customerId);
  await tx.query(
    `INSERT INTO subscriptions (id, "userId", "customerId", status, "stripeCreatedAt", "syncedAt",
                                "endedAt", interval, "priceId", "amountCents", "tierId",
                                "updatedAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, ${KNOWN_TIER('$11')}, now())
     ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, "syncedAt" = EXCLUDED."syncedAt",
                                    "endedAt" = EXCLUDED."endedAt",
                                    interval = EXCLUDED.interval, "priceId" = EXCLUDED."priceId",
                                    "amountCents" = EXCLUDED."amountCents",
                                    "tierId" = EXCLUDED."tierId", "updatedAt" = now()
     WHERE subscriptions."syncedAt" <= EXCLUDED."syncedAt"`,
    [
      fact.subscriptionId,
      userId,
      fact.customerId,
      fact.status,
      fact.createdAt,
      fact.readAt,
      fact.endedAt,
      fact.interval,
      fact.priceId,
      fact.amountCents,
      fact.tierId ?? FIRST_TIER_ID,
    ],
  );
}

interface EntitlementRow {
  id: string;
  userId: string;
  source: 'one-time' | 'subscription-invoice';
  paymentIntentId: string | null;
  subscriptionId: string | null;
  amountCents: number;
  currency: string;
  paidAt: Date;
  periodStart: Date | null;
  periodEnd: Date | null;
  days: number | null;
  state: EntitlementState;
  stateReason: string | null;
  stateReadAt: Date;
  /** A free trial's period: access, not a payment. */
  trial: boolean;
  offerId: string | null;
  /** The tier the period is access to. */
  tierId: number;
}

/**
 * Records a paid source once. Its state follows the newest read of its charge, except that a
 * period taken back (refunded, lost in a dispute) stays taken back whatever arrives after.
 */
async function upsertEntitlement(tx: Tx, row: EntitlementRow): Promise<void> {
  await tx.query(
    `INSERT INTO entitlements (id, "userId", source, "paymentIntentId", "subscriptionId",
                               "amountCents", currency, "paidAt", "periodStart", "periodEnd", days,
                               state, "stateReason", "stateReadAt", trial, "offerId",
                               "tierId", "trialEmail", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
             ${KNOWN_TIER('$17')}, CASE WHEN $15 THEN (SELECT email FROM users WHERE id = $2) END,
             now())
     ${onConflictNewerState('entitlements')}`,
    [
      row.id,
      row.userId,
      row.source,
      row.paymentIntentId,
      row.subscriptionId,
      row.amountCents,
      row.currency,
      row.paidAt,
      row.periodStart,
      row.periodEnd,
      row.days,
      row.state,
      row.stateReason,
      row.stateReadAt,
      row.trial,
      row.offerId,
      row.tierId,
    ],
  );
}

async function queueStripeAction(
  tx: Tx,
  change: LedgerChange,
  action: { kind: 'cancel_subscription' | 'refund_payment'; target: string; reason: string },
): Promise<void> {
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO stripe_actions (id, kind, target, reason) VALUES ($1, $2, $3, $4)
     ON CONFLICT (kind, target) DO NOTHING RETURNING id`,
    [randomUUID(), action.kind, action.target, action.reason],
  );
  const queued = rows[0];
  if (queued) {
    change.actionIds.push(queued.id);
    change.notices.push(`queued ${action.kind} ${action.target}: ${action.reason}`);
  }
}

async function applyOneTime(tx: Tx, fact: OneTimeFact, change: LedgerChange): Promise<void> {
  const placement = await placeUserId(tx, fact.userId);
  if (!placement || 'deleted' in placement) {
    change.notices.push(`payment ${fact.paymentIntentId} is for a deleted user: no effect`);
    return;
  }
  await linkCustomer(tx, placement.userId, fact.customerId);
  await upsertEntitlement(tx, {
    id: fact.paymentIntentId,
    userId: placement.userId,
    source: 'one-time',
    paymentIntentId: fact.paymentIntentId,
    subscriptionId: null,
    amountCents: fact.amountCents,
    currency: fact.currency,
    paidAt: fact.paidAt,
    periodStart: null,
    periodEnd: null,
    days: ONE_TIME_MEMBERSHIP_DAYS,
    state: fact.outcome.state,
    stateReason: fact.outcome.reason,
    stateReadAt: fact.readAt,
    trial: false,
    offerId: fact.offerId,
    tierId: fact.tierId ?? FIRST_TIER_ID,
  });
  if (fact.offerId) await markRedeemed(tx, fact.offerRedemptionId);
  change.userIds.add(placement.userId);
}

async function applySubscription(
  tx: Tx,
  fact: SubscriptionFact,
  change: LedgerChange,
): Promise<string | null> {
  const placement = await placeSubscription(tx, fact);
  if (!placement) {
    change.notices.push(`subscription ${fact.subscriptionId} names no Cohort user: no effect`);
    return null;
  }
  if ('deleted' in placement) {
    change.notices.push(`subscription ${fact.subscriptionId} is a deleted user's: no effect`);
    return null;
  }
  await upsertSubscription(tx, placement.userId, fact);
  change.userIds.add(placement.userId);
  return placement.userId;
}

async function applyInvoice(tx: Tx, fact: InvoiceFact, change: LedgerChange): Promise<void> {
  const userId = await applySubscription(tx, fact.subscription, change);
  if (!userId) return;
  await upsertEntitlement(tx, {
    id: fact.invoiceId,
    userId,
    source: 'subscription-invoice',
    paymentIntentId: fact.paymentIntentId,
    subscriptionId: fact.subscription.subscriptionId,
    amountCents: fact.amountCents,
    currency: fact.currency,
    paidAt: fact.paidAt,
    periodStart: fact.periodStart,
    periodEnd: fact.periodEnd,
    days: null,
    state: fact.outcome.state,
    stateReason: fact.outcome.reason,
    stateReadAt: fact.readAt,
    trial: fact.trial,
    offerId: fact.offerId,
    tierId: fact.tierId ?? fact.subscription.tierId ?? FIRST_TIER_ID,
  });
  if (fact.offerId && !fact.trial) await markRedeemed(tx, fact.subscription.offerRedemptionId);
  // The current period taken back: the subscription must not charge for the next one.
  if (
    TAKEN_BACK.includes(fact.outcome.state) &&
    fact.subscription.latestInvoiceId === fact.invoiceId &&
    LIVE_SUBSCRIPTION_STATUSES.has(fact.subscription.status)
  ) {
    await queueStripeAction(tx, change, {
      kind: 'cancel_subscription',
      target: fact.subscription.subscriptionId,
      reason: `current period ${fact.outcome.reason ?? fact.outcome.state}`,
    });
  }
}

/**
 * One Cohort subscription per user. Of two live subscriptions, the newer one that has paid only
 * its first invoice is a duplicate: its period is revoked, and it is cancelled and refunded at
 * Stripe.
 */
async function settleSubscriptions(tx: Tx, userId: string, change: LedgerChange): Promise<void> {
  const { rows } = await tx.query<{
    id: string;
    invoices: { id: string; paymentIntentId: string | null; state: EntitlementState }[];
  }>(
    `SELECT s.id,
            COALESCE(json_agg(json_build_object('id', e.id, 'paymentIntentId', e."paymentIntentId",
                                                'state', e.state)
                              ORDER BY e."periodEnd" DESC) FILTER (WHERE e.id IS NOT NULL),
                     '[]') AS invoices
     FROM subscriptions s LEFT JOIN entitlements e ON e."subscriptionId" = s.id
     WHERE s."userId" = $1 AND s.status = ANY($2::text[])
     GROUP BY s.id, s."stripeCreatedAt"
     ORDER BY s."stripeCreatedAt", s.id`,
    [userId, LIVE],
  );
  const paying = rows.filter((row) => row.invoices.length > 0);
  const keeper = paying[0];
  for (const subscription of paying) {
    const [latest] = subscription.invoices;
    const isDuplicate =
      subscription !== keeper &&
      subscription.invoices.length === 1 &&
      latest !== undefined &&
      !TAKEN_BACK.includes(latest.state);
    if (isDuplicate && latest) {
      await tx.query(
        `UPDATE entitlements SET state = 'revoked', "stateReason" = 'duplicate_subscription',
                                 "updatedAt" = now()
         WHERE id = $1`,
        [latest.id],
      );
      change.notices.push(
        `subscription ${subscription.id} duplicates ${keeper?.id ?? ''} for user ${userId}: ` +
          'cancelling it and refunding its payment',
      );
      await queueStripeAction(tx, change, {
        kind: 'cancel_subscription',
        target: subscription.id,
        reason: 'duplicate_subscription',
      });
      if (latest.paymentIntentId) {
        await queueStripeAction(tx, change, {
          kind: 'refund_payment',
          target: latest.paymentIntentId,
          reason: 'duplicate_subscription',
        });
      }
    }
  }
}

/** Rewrites the user's membership row from the ledger (null: never paid, no row). */
export async function recomputeMembership(
  tx: Tx,
  userId: string,
  graceDays: number,
): Promise<void> {
  // The user's whole ledger in one round trip: entitlements, then subscriptions.
  const { rows } = await tx.query<
    LedgerEntry & { kind: 'entry' | 'subscription'; status: string; endedAt: Date | null }
  >(
    `SELECT 'entry' AS kind, id, source::text, "subscriptionId", "paidAt", "periodStart",
            "periodEnd", days, state::text, NULL AS status, NULL::timestamptz AS "endedAt",
            "tierId"
     FROM entitlements WHERE "userId" = $1
     UNION ALL
     SELECT 'subscription', id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, status, "endedAt",
            NULL
     FROM subscriptions WHERE "userId" = $1`,
    [userId],
  );
  const entries = rows.filter((row) => row.kind === 'entry');
  const subscriptions = rows.filter((row) => row.kind === 'subscription');
  const derived = deriveMembership(entries, subscriptions, {
    graceDays,
    now: new Date(),
  });
  if (!derived) {
    await tx.query('DELETE FROM memberships WHERE "userId" = $1', [userId]);
    return;
  }
  await tx.query(
    `INSERT INTO memberships ("userId", plan, status, "expiresAt", "tierId", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, now())
     ON CONFLICT ("userId") DO UPDATE SET plan = EXCLUDED.plan, status = EXCLUDED.status,
                                          "expiresAt" = EXCLUDED."expiresAt",
                                          "tierId" = EXCLUDED."tierId", "updatedAt" = now()`,
    [userId, derived.plan, derived.status, derived.expiresAt, derived.tierId],
  );
}

/**
 * Places one membership fact (a year paid once, a subscription, an invoice) on the ledger, inside
 * the caller's transaction; `rewriteMemberships` then settles what it touched.
 */
export async function applyMembershipFact(
  tx: Tx,
  fact: MembershipFact,
  change: LedgerChange,
): Promise<void> {
  if (fact.kind === 'one-time') await applyOneTime(tx, fact, change);
  else if (fact.kind === 'invoice') await applyInvoice(tx, fact, change);
  else await applySubscription(tx, fact, change);
}

/**
 * Rewrites the membership of every user the change touched, after settling their duplicate
 * subscriptions when subscriptions changed. Stripe actions it queues are run after the commit.
 */
export async function rewriteMemberships(
  tx: Tx,
  change: LedgerChange,
  options: { graceDays: number; subscriptionsChanged: boolean },
): Promise<void> {
  for (const userId of change.userIds) {
    if (options.subscriptionsChanged) await settleSubscriptions(tx, userId, change);
    await recomputeMembership(tx, userId, options.graceDays);
  }
}

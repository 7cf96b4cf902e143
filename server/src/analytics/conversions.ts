import type pg from 'pg';
import { DIRECT_SOURCE, type AnalyticsTier } from '../../../contract/analytics.js';
import type { Tx } from '../db/transaction.js';
import type { PaymentFact } from '../memberships/payment-facts.js';
import { CHECKOUT_DAYS } from './rollup.js';
import { utcDay } from './visitors.js';

/** What a visitor read last today, and the source they came with. */
export interface Reading {
  postId: number | null;
  source: string;
}

/** The post a visitor read last today (null: none) and their first source of the day. */
export async function lastReadingOf(
  pool: pg.Pool | Tx,
  visitor: Buffer,
  at: Date,
): Promise<Reading> {
  const { rows } = await pool.query<Reading>(
    `SELECT (SELECT "postId" FROM "analytics_events"
              WHERE "day" = $1::date AND "visitor" = $2 AND "at" <= $3::timestamptz
                AND "postId" IS NOT NULL
              ORDER BY "at" DESC, "id" DESC LIMIT 1) AS "postId",
            coalesce((SELECT "source" FROM "analytics_visitors"
              WHERE "day" = $1::date AND "visitor" = $2), $4) AS "source"`,
    [utcDay(at), visitor, at, DIRECT_SOURCE],
  );
  return rows[0] ?? { postId: null, source: DIRECT_SOURCE };
}

/** A new account: credited once, to what its visitor read last today. */
export async function creditSignup(
  pool: pg.Pool,
  input: { userId: string; reading: Reading; at: Date },
): Promise<void> {
  await pool.query(
    `INSERT INTO "analytics_conversions" ("key", "kind", "at", "day", "postId", "source")
     VALUES ($1, 'signup', $2, $3::date, $4, $5) ON CONFLICT ("key") DO NOTHING`,
    [
      `signup:${input.userId}`,
      input.at,
      utcDay(input.at),
      input.reading.postId,
      input.reading.source,
    ],
  );
}

/**
 * A reader starts paying (a Checkout, a PaymentIntent for a year, a gift or seats): what they read
 * last is kept by their user id until the payment arrives by webhook, with no reader's address,
 * for CHECKOUT_DAYS at most. A later checkout replaces an earlier one.
 */
export async function rememberCheckout(
  pool: pg.Pool,
  input: { userId: string; reading: Reading; at: Date },
): Promise<void> {
  await pool.query(
    `INSERT INTO "analytics_checkouts" ("userId", "postId", "source", "at") VALUES ($1, $2, $3, $4)
     ON CONFLICT ("userId") DO UPDATE
       SET "postId" = excluded."postId", "source" = excluded."source", "at" = excluded."at"`,
    [input.userId, input.reading.postId, input.reading.source, input.at],
  );
}

/** A paid conversion's key: this, then its payment's Stripe id (a PaymentIntent's, an invoice's). */
const PAYMENT_KEY_PREFIX = 'payment:';

/** Who paid, the payment's own id and the amount, for a fact that is a payment made. */
function paymentOf(fact: PaymentFact): { userId: string; key: string; cents: number } | null {
  switch (fact.kind) {
    case 'one-time':
      return { userId: fact.userId, key: fact.paymentIntentId, cents: fact.amountCents };
    case 'invoice':
      if (!fact.subscription.userId || fact.trial) return null;
      return {
        userId: fact.subscription.userId,
        key: fact.paymentIntentId ?? fact.invoiceId,
        cents: fact.amountCents,
      };
    case 'gift':
      return { userId: fact.buyerUserId, key: fact.paymentIntentId, cents: fact.amountCents };
    case 'seats':
      return { userId: fact.supporterUserId, key: fact.paymentIntentId, cents: fact.amountCents };
    case 'subscription':
      return null;
  }
}

/**
 * Paid conversions (docs/analytics.md#what-is-counted): a payment that follows a checkout the
 * reader started on the site is credited to what they read before it, with its amount, once (by
 * the payment's Stripe id), and uses that checkout up; a renewal, a payment replayed or one
 * without a checkout credits nothing. Runs inside the transaction that records the payment.
 */
export async function creditPayments(tx: Tx, facts: readonly PaymentFact[]): Promise<void> {
  for (const fact of facts) {
    const payment = paymentOf(fact);
    if (!payment || payment.cents <= 0) continue;
    if ('outcome' in fact && fact.outcome.state !== 'active') continue;
    const key = `${PAYMENT_KEY_PREFIX}${payment.key}`;
    await tx.query(
      `WITH used AS (
         DELETE FROM "analytics_checkouts"
          WHERE "userId" = $1::uuid AND "at" > now() - make_interval(days => $4)
            AND NOT EXISTS (SELECT 1 FROM "analytics_conversions" WHERE "key" = $2)
         RETURNING "postId", "source"
       )
       INSERT INTO "analytics_conversions"
              ("key", "kind", "day", "postId", "source", "revenueCents")
       SELECT $2, 'payment', (now() AT TIME ZONE 'UTC')::date, "postId", "source", $3 FROM used
       ON CONFLICT ("key") DO NOTHING`,
      [payment.userId, key, payment.cents, CHECKOUT_DAYS],
    );
  }
}

/**
 * The paid conversions of a range of days by the tier each payment was for, as the ledger recorded
 * it (`tierId` of the payment's entitlement, gift or seat funding, found by the Stripe id in the
 * conversion's key): every tier in the tiers' order, zero where none converted. `postIds` as the
 * analytics' scope says (null: the whole site).
 */
export async function readConversionsByTier(
  pool: pg.Pool,
  scope: { from: string; to: string; postIds: readonly number[] | null },
): Promise<AnalyticsTier[]> {
  const { rows } = await pool.query<AnalyticsTier>(
    `WITH paid AS (
       SELECT c."revenueCents", substr(c."key", length($4) + 1) AS "payment"
         FROM "analytics_conversions" c
        WHERE c."kind" = 'payment' AND c."day" BETWEEN $1::date AND $2::date
          AND ($3::int[] IS NULL OR c."postId" = ANY($3::int[]))
     ), tiered AS (
       SELECT paid."revenueCents",
              (SELECT found."tierId" FROM (
                 SELECT "tierId", 1 AS "rank" FROM "entitlements"
                  WHERE "id" = paid."payment" OR "paymentIntentId" = paid."payment"
                 UNION ALL
                 SELECT "tierId", 2 FROM "gifts" WHERE "paymentIntentId" = paid."payment"
                 UNION ALL
                 SELECT "tierId", 3 FROM "seat_fundings" WHERE "paymentIntentId" = paid."payment"
               ) found ORDER BY found."rank" LIMIT 1) AS "tierId"
         FROM paid
     )
     SELECT t."slug", t."name", count(tiered."tierId")::int AS "paidConversions",
            coalesce(sum(tiered."revenueCents"), 0)::int AS "revenueCents"
       FROM "tiers" t LEFT JOIN tiered ON tiered."tierId" = t."id"
      GROUP BY t."id" ORDER BY t."position", t."id"`,
    [scope.from, scope.to, scope.postIds, PAYMENT_KEY_PREFIX],
  );
  return rows;
}

import type { Tx } from '../db/transaction.js';
import { FIRST_TIER_ID, type EntitlementState } from '../memberships/derive-membership.js';
import {
  lockUserId,
  onConflictNewerState,
  recomputeMembership,
  TAKEN_BACK,
} from '../memberships/ledger.js';
import type { GiftFact } from '../memberships/payment-facts.js';
import { GIFT_DAYS } from '../../../contract/gift-rules.js';

/**
 * A gift's money (docs/decisions/0024-gifts-and-solidarity-seats.md): its payment as Stripe tells
 * of it, and its claim, a year on the claimer's ledger. Both keep the ledger's promises: the
 * payment's state follows its newest read, taken back stays taken back, and a year is granted
 * once (memberships/ledger.ts places it among the claimer's other periods).
 */

/**
 * The tier a gift's or seats' payment names (the query parameter `param`, its metadata's tier id
 * or null), as their row's `tierId`: the first tier for a payment from before tiers, or for a tier
 * deleted since the payment began (the year is not lost: it is the first tier's, which every
 * member had before tiers).
 */
export const paidTier = (param: string) =>
  `COALESCE((SELECT "id" FROM "tiers" WHERE "id" = ${param}::int), ${FIRST_TIER_ID})`;
const PAID_TIER = paidTier('$15');

/** What recording a gift's payment changed. */
export interface GiftPaymentChange {
  /** The gift's row was made or its state changed: mail may be due (receipt, claim link). */
  changed: boolean;
  /** The claimer whose year changed state with it: their membership is to be rewritten. */
  claimerId: string | null;
}

/**
 * A gift's payment: its row is made from the payment the first time it is read (an abandoned
 * payment leaves nothing), and its state follows the newest read of the charge, a payment taken
 * back staying taken back. A gift already claimed carries the same state to the period it gave:
 * a refund after the claim ends that period only. Row lock on the gift first, then the user's.
 * The caller rewrites the claimer's membership with the others its facts touched.
 */
export async function recordGiftPayment(tx: Tx, fact: GiftFact): Promise<GiftPaymentChange> {
  const { rows } = await tx.query<{ claimedBy: string | null }>(
    `INSERT INTO gifts (id, "paymentIntentId", "buyerUserId", "buyerEmail", "fromName",
                        "recipientEmail", message, "sendAt", "amountCents", currency, "paidAt",
                        state, "stateReason", "stateReadAt", "tierId", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7, COALESCE($8::timestamptz, $11), $9, $10, $11, $12, $13, $14,
             ${PAID_TIER}, now())
     ${onConflictNewerState('gifts')}
     RETURNING "claimedBy"`,
    [
      fact.giftId,
      fact.paymentIntentId,
      fact.buyerUserId,
      fact.buyerEmail,
      fact.fromName,
      fact.recipientEmail,
      fact.message,
      fact.sendAt,
      fact.amountCents,
      fact.currency,
      fact.paidAt,
      fact.outcome.state,
      fact.outcome.reason,
      fact.readAt,
      fact.tierId,
    ],
  );
  const written = rows[0];
  if (!written) return { changed: false, claimerId: null }; // nothing new
  if (!written.claimedBy) return { changed: true, claimerId: null };
  await lockUserId(tx, written.claimedBy);
  const period = await tx.query(
    `UPDATE entitlements SET state = $2, "stateReason" = $3, "stateReadAt" = $4, "updatedAt" = now()
     WHERE id = $1 AND source = 'gift' AND state NOT IN ('refunded', 'revoked')`,
    [fact.paymentIntentId, fact.outcome.state, fact.outcome.reason, fact.readAt],
  );
  // The claimer's account may be gone (deleted): then there is no period left to change.
  return { changed: true, claimerId: period.rowCount ? written.claimedBy : null };
}

export type GiftClaim =
  | { claimed: true; userId: string }
  | { claimed: false; why: 'unknown' | 'taken' | 'refunded' | 'disputed'; byYou: boolean };

/**
 * Claims the gift whose link token hashes to `tokenHash` for `userId`: a ledger period of its own
 * (source `gift`, a year of the gift's tier), placed from now after the time the user holds. Once per gift; a gift
 * whose payment was taken back, or is disputed, cannot be claimed. Claiming again by the same
 * account changes nothing.
 */
export async function claimGift(
  tx: Tx,
  input: { tokenHash: string; userId: string; now: Date },
  options: { graceDays: number },
): Promise<GiftClaim> {
  const { rows } = await tx.query<{
    id: string;
    paymentIntentId: string;
    amountCents: number;
    currency: string;
    paidAt: Date;
    state: EntitlementState;
    stateReadAt: Date;
    claimedBy: string | null;
    tierId: number;
  }>(
    `SELECT id, "paymentIntentId", "amountCents", currency, "paidAt", state, "stateReadAt",
            "claimedBy", "tierId"
     FROM gifts WHERE "tokenHash" = $1 FOR UPDATE`,
    [input.tokenHash],
  );
  const gift = rows[0];
  if (!gift) return { claimed: false, why: 'unknown', byYou: false };
  if (gift.claimedBy) {
    return { claimed: false, why: 'taken', byYou: gift.claimedBy === input.userId };
  }
  if (TAKEN_BACK.includes(gift.state)) return { claimed: false, why: 'refunded', byYou: false };
  if (gift.state === 'suspended') return { claimed: false, why: 'disputed', byYou: false };
  await lockUserId(tx, input.userId);
  await tx.query(
    `INSERT INTO entitlements (id, "userId", source, "paymentIntentId", "amountCents", currency,
                               "paidAt", "periodStart", days, state, "stateReadAt", "tierId",
                               "updatedAt")
     VALUES ($1, $2, 'gift', $1, $3, $4, $5, $6, $7, 'active', $8, $9, now())`,
    [
      gift.paymentIntentId,
      input.userId,
      gift.amountCents,
      gift.currency,
      gift.paidAt,
      input.now,
      GIFT_DAYS,
      gift.stateReadAt,
      gift.tierId,
    ],
  );
  await tx.query(
    `UPDATE gifts SET "claimedAt" = $2, "claimedBy" = $3, "updatedAt" = now() WHERE id = $1`,
    [gift.id, input.now, input.userId],
  );
  await recomputeMembership(tx, input.userId, options.graceDays);
  return { claimed: true, userId: input.userId };
}

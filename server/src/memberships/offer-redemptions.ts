import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { PlanId } from '../../../contract/plan-rules.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { FIRST_TIER_ID } from './derive-membership.js';
import { assertRedeemable, countTaken, OFFER_COLUMNS, type OfferRow } from './offers.js';

/**
 * An offer's limit, kept when checkouts overlap. A checkout that redeems an offer first holds a
 * redemption, made under the offer's row lock and counted with the redemptions paid, the year paid
 * once and subscriptions alike; only then is its PaymentIntent or Checkout Session made, carrying
 * the reservation's id (metadata `offerRedemption`). The ledger turns it into the redemption when
 * the payment is recorded (ledger.ts). A checkout not paid within the hold is made unpayable at
 * Stripe (the PaymentIntent canceled, the Checkout Session expired: Stripe expires it itself at the
 * hold's end) and its reservation released, by the payments plugin's minute sweep. A reservation
 * is never released while Stripe could still take its payment, so the limit is never passed. How
 * a payment is stopped at Stripe is the Stripe module's (stripe/stop-offer-payment.ts).
 */

/**
 * How long a checkout holds its redemption: long enough to pay (a card, a bank's check), short
 * enough that abandoned checkouts do not keep an offer's last redemptions for long.
 */
export const OFFER_HOLD_MS = 60 * 60 * 1000;

/** A redemption held for one checkout. */
export interface HeldRedemption {
  id: string;
  holdUntil: Date;
}

/**
 * Holds a redemption for the checkout whose parameters `request` names (a digest of what is sent
 * to Stripe): the same visitor asking again with the same parameters gets the same one back.
 */
export type HoldRedemption = (request: string) => Promise<HeldRedemption>;

interface RedemptionRow {
  id: string;
  plan: string;
  stripeId: string | null;
}

/**
 * Makes the payment a reservation was made for unpayable where its payer has not paid yet, and
 * answers whether it could still be taken (paid, or being paid).
 */
export type StopPayment = (redemption: { plan: string; stripeId: string }) => Promise<boolean>;

type RedemptionDeps = { pool: pg.Pool; stopPayment: StopPayment };

/**
 * Runs a checkout of `plan` of the tier `tierId` (the first tier's unless said) that redeems
 * `offer`: `start` builds its parameters, calls `hold` with their digest, and makes the Stripe
 * object with the reservation's id as its idempotency key (a retry gets the same object back). The
 * object is recorded on the reservation before the visitor gets anything to pay with; a failed
 * start gives up a reservation it made.
 */
export async function redeemOffer<T extends { id: string }>(
  deps: RedemptionDeps,
  input: { offer: OfferRow; userId: string; plan: PlanId; tierId?: number },
  start: (hold: HoldRedemption) => Promise<T>,
): Promise<T> {
  const held: { redemption?: HeldRedemption & { reused: boolean } } = {};
  const hold: HoldRedemption = async (request) => {
    held.redemption = await reserveRedemption(deps, { ...input, request });
    return held.redemption;
  };
  try {
    const made = await start(hold);
    if (!held.redemption) throw new Error('The checkout redeemed its offer without holding it');
    await recordStripeObject(deps.pool, held.redemption.id, made.id);
    return made;
  } catch (error) {
    // Left behind if this fails too: with no Stripe object, the sweep releases it after its hold.
    if (held.redemption && !held.redemption.reused) {
      await deps.pool
        .query(`DELETE FROM offer_redemptions WHERE id = $1 AND "stripeId" IS NULL`, [
          held.redemption.id,
        ])
        .catch(() => {});
    }
    throw error;
  }
}

/**
 * The visitor's held redemption for this very checkout, else a new one if the offer has one left.
 * Their other holds on the offer (another plan or price, or a hold that is over) are given up
 * first, where Stripe can still stop that payment.
 */
async function reserveRedemption(
  deps: RedemptionDeps,
  input: { offer: OfferRow; userId: string; plan: PlanId; tierId?: number; request: string },
): Promise<HeldRedemption & { reused: boolean }> {
  const { rows: others } = await deps.pool.query<RedemptionRow>(
    `SELECT id, plan, "stripeId" FROM offer_redemptions
      WHERE "offerId" = $1 AND "userId" = $2 AND state = 'pending'
        AND NOT (request = $3 AND "holdUntil" > now())`,
    [input.offer.id, input.userId, input.request],
  );
  for (const other of others) await releaseRedemption(deps, other);

  return withTransaction(deps.pool, async (tx) => {
    // Reservations of one offer are made one at a time, each counting those before it.
    const { rows } = await tx.query<OfferRow>(
      `SELECT ${OFFER_COLUMNS} FROM offers WHERE id = $1 FOR UPDATE`,
      [input.offer.id],
    );
    const offer = rows[0];
    if (!offer) throw new DomainError(400, 'offer_invalid', 'This offer no longer exists.');
    const { rows: same } = await tx.query<HeldRedemption>(
      `SELECT id, "holdUntil" FROM offer_redemptions
        WHERE "offerId" = $1 AND "userId" = $2 AND request = $3 AND state = 'pending'
          AND "holdUntil" > now()`,
      [offer.id, input.userId, input.request],
    );
    const reused = same[0];
    assertRedeemable(
      offer,
      reused ? null : await countTaken(tx, offer.id),
      input.plan,
      input.tierId ?? FIRST_TIER_ID,
    );
    if (reused) return { ...reused, reused: true };
    return { ...(await insertRedemption(tx, offer.id, input)), reused: false };
  });
}

async function insertRedemption(
  tx: Tx,
  offerId: string,
  input: { userId: string; plan: PlanId; request: string },
): Promise<HeldRedemption> {
  const { rows } = await tx.query<HeldRedemption>(
    `INSERT INTO offer_redemptions (id, "offerId", "userId", plan, request, state, "holdUntil")
     VALUES ($1, $2, $3, $4, $5, 'pending', now() + $6 * interval '1 millisecond')
     RETURNING id, "holdUntil"`,
    [randomUUID(), offerId, input.userId, input.plan, input.request, OFFER_HOLD_MS],
  );
  const held = rows[0];
  if (!held) throw new Error('The offer’s redemption was not stored');
  return held;
}

/**
 * Names the Stripe object a reservation was made for. If the reservation was released meanwhile
 * (given up by a newer checkout of the same visitor), the visitor must not pay with it.
 */
async function recordStripeObject(pool: pg.Pool, id: string, stripeId: string): Promise<void> {
  const { rowCount } = await pool.query(
    `UPDATE offer_redemptions SET "stripeId" = $2
      WHERE id = $1 AND state = 'pending' AND ("stripeId" IS NULL OR "stripeId" = $2)`,
    [id, stripeId],
  );
  if (!rowCount) {
    throw new DomainError(
      409,
      'offer_checkout_replaced',
      'This checkout was replaced by a newer one: start again to pay with the offer.',
    );
  }
}

/**
 * Releases a reservation once Stripe can no longer take its payment; true if released. One whose
 * payment was made, or is under way, stays held until the ledger records it as the redemption.
 */
async function releaseRedemption(deps: RedemptionDeps, row: RedemptionRow): Promise<boolean> {
  if (row.stripeId && (await deps.stopPayment({ plan: row.plan, stripeId: row.stripeId }))) {
    return false;
  }
  // Only as read: a Stripe object recorded since then was handed to the visitor to pay.
  const { rowCount } = await deps.pool.query(
    `UPDATE offer_redemptions SET state = 'released', "settledAt" = now()
      WHERE id = $1 AND state = 'pending' AND "stripeId" IS NOT DISTINCT FROM $2`,
    [row.id, row.stripeId],
  );
  return Boolean(rowCount);
}

/**
 * The minute sweep: reservations whose hold is over are released where Stripe can no longer take
 * their payment; the others (paid, or being paid) are looked at again one hold later. Answers how
 * many were released.
 */
export async function releaseLapsedRedemptions(
  deps: RedemptionDeps & { log: { error(detail: object, message: string): void } },
): Promise<number> {
  const { rows } = await deps.pool.query<RedemptionRow>(
    `SELECT id, plan, "stripeId" FROM offer_redemptions
      WHERE state = 'pending' AND "holdUntil" <= now()
      ORDER BY "holdUntil" LIMIT 100`,
  );
  let released = 0;
  for (const row of rows) {
    try {
      if (await releaseRedemption(deps, row)) {
        released += 1;
      } else {
        await deps.pool.query(
          `UPDATE offer_redemptions SET "holdUntil" = now() + $2 * interval '1 millisecond'
            WHERE id = $1 AND state = 'pending'`,
          [row.id, OFFER_HOLD_MS],
        );
      }
    } catch (error) {
      deps.log.error(
        { err: error, redemption: row.id },
        'could not release an offer’s held redemption, will retry',
      );
    }
  }
  return released;
}

/** A paid checkout's reservation becomes its offer's redemption: counted from the ledger now. */
export async function markRedeemed(tx: Tx, redemptionId: string | null): Promise<void> {
  if (!redemptionId) return;
  await tx.query(
    `UPDATE offer_redemptions SET state = 'redeemed', "settledAt" = now()
      WHERE id = $1 AND state <> 'redeemed'`,
    [redemptionId],
  );
}

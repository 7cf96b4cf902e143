import type { Tx } from '../db/transaction.js';
import { lockUserId, onConflictNewerState, recomputeMembership } from '../memberships/ledger.js';
import type { SeatFundingFact } from '../memberships/payment-facts.js';
import { SEAT_DAYS } from '../../../contract/seat-rules.js';
import { paidTier } from '../gifts/gift-ledger.js';

/**
 * Seats' money (docs/decisions/0024-gifts-and-solidarity-seats.md): a supporter's payment for
 * seats of a tier as Stripe tells of it, and a grant from the pool, a year of that tier on the
 * reader's ledger (memberships/ledger.ts places it among the reader's other periods).
 */

/**
 * A supporter's payment for seats: its row is made from the payment the first time it is read, and
 * its state follows the newest read of the charge, taken back staying taken back. Seats already
 * granted stay granted whatever becomes of the payment (the reader was given the year); a refund
 * or a lost dispute takes back only the seats not yet granted, which the pool counts from the
 * state (seats.ts). True when the row was made or its state changed: a receipt may be due, and
 * requests may now be granted.
 */
export async function recordSeatFunding(tx: Tx, fact: SeatFundingFact): Promise<boolean> {
  const { rowCount } = await tx.query(
    `INSERT INTO seat_fundings (id, "paymentIntentId", "supporterUserId", "supporterEmail", seats,
                                "amountCents", currency, "paidAt", state, "stateReason",
                                "stateReadAt", "tierId", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, ${paidTier('$12')}, now())
     ${onConflictNewerState('seat_fundings')}`,
    [
      fact.fundingId,
      fact.paymentIntentId,
      fact.supporterUserId,
      fact.supporterEmail,
      fact.seats,
      fact.amountCents,
      fact.currency,
      fact.paidAt,
      fact.outcome.state,
      fact.outcome.reason,
      fact.readAt,
      fact.tierId,
    ],
  );
  return Boolean(rowCount);
}

/**
 * Grants an open seat request from the pool: the oldest funding with a seat left (the fundings
 * locked, so two grants never take a last seat twice) gives the reader a year of its tier (source
 * `sponsored`), placed from now after the time they hold. Null when the request is not open or
 * the pool is empty.
 */
export async function grantSeat(
  tx: Tx,
  input: { requestId: string; grantedBy: string | null; now: Date },
  options: { graceDays: number },
): Promise<{ userId: string; fundingId: string } | null> {
  const { rows: requests } = await tx.query<{ userId: string }>(
    `SELECT "userId" FROM seat_requests WHERE id = $1 AND state = 'open' FOR UPDATE`,
    [input.requestId],
  );
  const request = requests[0];
  if (!request) return null;
  // Every funding whose payment stands, locked first (grants are rare: they take turns), then
  // counted in a statement of its own, which sees the grants committed while it waited.
  await tx.query(`SELECT id FROM seat_fundings WHERE state = 'active' ORDER BY id FOR UPDATE`);
  const { rows: fundings } = await tx.query<{ id: string; currency: string; tierId: number }>(
    `SELECT f.id, f.currency, f."tierId" FROM seat_fundings f
     WHERE f.state = 'active'
       AND f.seats > (SELECT count(*) FROM seat_requests r
                      WHERE r."fundingId" = f.id AND r.state = 'granted')
     ORDER BY f."paidAt", f.id LIMIT 1`,
  );
  const funding = fundings[0];
  if (!funding) return null;
  await lockUserId(tx, request.userId);
  await tx.query(
    `INSERT INTO entitlements (id, "userId", source, "amountCents", currency, "paidAt",
                               "periodStart", days, state, "stateReadAt", "grantedBy", "tierId",
                               "updatedAt")
     VALUES ($1, $2, 'sponsored', 0, $3, $4, $4, $5, 'active', $4, $6, $7, now())`,
    [
      `seat_${input.requestId}`,
      request.userId,
      funding.currency,
      input.now,
      SEAT_DAYS,
      input.grantedBy,
      funding.tierId,
    ],
  );
  await tx.query(
    `UPDATE seat_requests SET state = 'granted', "decidedAt" = $2, "decidedBy" = $3,
                              "fundingId" = $4
     WHERE id = $1`,
    [input.requestId, input.now, input.grantedBy, funding.id],
  );
  await recomputeMembership(tx, request.userId, options.graceDays);
  return { userId: request.userId, fundingId: funding.id };
}

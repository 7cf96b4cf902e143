import { creditPayments } from '../analytics/conversions.js';
import type { Tx } from '../db/transaction.js';
import { recordGiftPayment } from '../gifts/gift-ledger.js';
import {
  applyMembershipFact,
  newLedgerChange,
  rewriteMemberships,
  type LedgerChange,
} from '../memberships/ledger.js';
import type { PaymentFact } from '../memberships/payment-facts.js';
import { recordSeatFunding } from '../seats/seat-ledger.js';

/** What placing Stripe's facts did, for the caller to act on after the transaction commits. */
export interface PaymentChange extends LedgerChange {
  /** Gifts whose payment was recorded or changed: mail may be due (receipt, claim link). */
  giftIds: string[];
  /** Seat fundings recorded or changed: a receipt may be due, requests may now be granted. */
  fundingIds: string[];
}

/**
 * Places what Stripe said, in the order it was read, each fact with the module whose rules it
 * follows (a membership's on the ledger, a gift's and a seat funding's with gifts and seats), then
 * rewrites the membership of every user it touched. Runs inside the caller's transaction; Stripe
 * actions it queues are run after the commit.
 */
export async function applyPaymentFacts(
  tx: Tx,
  facts: readonly PaymentFact[],
  options: { graceDays: number },
): Promise<PaymentChange> {
  const change: PaymentChange = { ...newLedgerChange(), giftIds: [], fundingIds: [] };
  for (const fact of facts) {
    if (fact.kind === 'gift') {
      const recorded = await recordGiftPayment(tx, fact);
      if (recorded.changed) change.giftIds.push(fact.giftId);
      if (recorded.claimerId) change.userIds.add(recorded.claimerId);
    } else if (fact.kind === 'seats') {
      if (await recordSeatFunding(tx, fact)) change.fundingIds.push(fact.fundingId);
    } else {
      await applyMembershipFact(tx, fact, change);
    }
  }
  await creditPayments(tx, facts);
  await rewriteMemberships(tx, change, {
    graceDays: options.graceDays,
    subscriptionsChanged: facts.some(
      (fact) => fact.kind === 'invoice' || fact.kind === 'subscription',
    ),
  });
  return change;
}

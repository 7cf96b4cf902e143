import type Stripe from 'stripe';
import { withTransaction } from '../db/transaction.js';
import { applyPaymentFacts, type LedgerChange } from '../memberships/ledger.js';
import type { Services } from '../services.js';
import { readEventFacts } from './event-facts.js';
import { runStripeActions } from './stripe-actions.js';

export type EventOutcome = 'applied' | 'recorded' | 'duplicate';

export type StripeEventDeps = Services & { graceDays: number };

/**
 * Records a verified Stripe event once and applies what Stripe says now about its object in the
 * same transaction: if the effect cannot be stored, neither is the event, and Stripe's retry finds
 * it new. Two deliveries of one event at once serialise on the event's primary key; the second
 * changes nothing. What the ledger then owes Stripe (a cancellation, a refund) runs after the
 * commit and never fails the webhook: it stays queued until Stripe has done it.
 */
export async function handleStripeEvent(
  deps: StripeEventDeps,
  event: Stripe.Event,
): Promise<EventOutcome> {
  const seen = await deps.db.pool.query('SELECT 1 FROM stripe_events WHERE id = $1', [event.id]);
  if (seen.rowCount) return 'duplicate';

  // Read from Stripe before the transaction, so no database transaction waits on the network.
  const facts = await readEventFacts(deps, event);
  const result = await withTransaction(deps.db.pool, async (tx) => {
    const recorded = await tx.query(
      'INSERT INTO stripe_events (id, type) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING',
      [event.id, event.type],
    );
    if (recorded.rowCount === 0) return 'duplicate' as const;
    if (facts.length === 0) return 'recorded' as const;
    return applyPaymentFacts(tx, facts, { graceDays: deps.graceDays });
  });
  if (typeof result === 'string') return result;
  await settleLedgerChange(deps, result);
  return 'applied';
}

/**
 * After a ledger change commits: tells the operator what it noticed (a duplicate subscription, a
 * deleted user's payment) and runs the Stripe actions it queued.
 */
export async function settleLedgerChange(
  deps: Pick<Services, 'db' | 'stripe' | 'log'>,
  change: LedgerChange,
): Promise<void> {
  for (const notice of change.notices) deps.log.warn(notice);
  if (change.actionIds.length > 0) await runStripeActions(deps, change.actionIds);
}

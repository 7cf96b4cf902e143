import type Stripe from 'stripe';
import { withTransaction, type Tx } from '../db/transaction.js';
import { applyPaymentFacts, type LedgerChange } from '../memberships/ledger.js';
import type { Services } from '../services.js';
import { readEventFacts } from './event-facts.js';
import { asUserId } from './read-payment-facts.js';
import { runStripeActions } from './stripe-actions.js';

export type EventOutcome = 'applied' | 'recorded' | 'duplicate';

export type StripeEventDeps = Services & {
  graceDays: number;
  /** Called after a change to a gift's payment commits: its mail may be due (the app's sweep). */
  onGifts?: () => void;
};

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
  const named = namedInEvent(event);
  const result = await withTransaction(deps.db.pool, async (tx) => {
    const recorded = await tx.query(
      `INSERT INTO stripe_events (id, type, "objectId") VALUES ($1, $2, $3)
       ON CONFLICT (id) DO NOTHING`,
      [event.id, event.type, named.objectId],
    );
    if (recorded.rowCount === 0) return 'duplicate' as const;
    const change =
      facts.length === 0 ? null : await applyPaymentFacts(tx, facts, { graceDays: deps.graceDays });
    await recordOutcome(tx, event.id, {
      outcome: change ? 'applied' : 'recorded',
      notes: change?.notices.join('\n') || null,
      userIds: [...(change?.userIds ?? [])],
      customerId: named.customerId,
      metadataUserId: named.metadataUserId,
    });
    return change ?? ('recorded' as const);
  });
  if (typeof result === 'string') return result;
  await settleLedgerChange(deps, result);
  return 'applied';
}

/**
 * Who an event names, from its own snapshot: only to list it on the desk under the right members,
 * never to decide anything about money (that is read from Stripe, above).
 */
function namedInEvent(event: Stripe.Event): {
  objectId: string | null;
  customerId: string | null;
  metadataUserId: string | null;
} {
  const object = (event as { data?: { object?: unknown } }).data?.object;
  if (typeof object !== 'object' || object === null) {
    return { objectId: null, customerId: null, metadataUserId: null };
  }
  const { id, customer, metadata } = object as {
    id?: unknown;
    customer?: unknown;
    metadata?: unknown;
  };
  const userId =
    typeof metadata === 'object' && metadata !== null
      ? (metadata as { userId?: unknown }).userId
      : undefined;
  return {
    objectId: typeof id === 'string' ? id.slice(0, 255) : null,
    customerId: typeof customer === 'string' ? customer : null,
    metadataUserId: typeof userId === 'string' ? asUserId(userId) : null,
  };
}

/**
 * Marks what the event did, and lists it under the users whose ledger it changed, the user of its
 * customer, and the user (or the account an anonymous user merged into) named in its metadata:
 * those that have a row. One statement, one round-trip (the UPDATE in the WITH runs once, to
 * completion, whatever the INSERT selects).
 */
async function recordOutcome(
  tx: Tx,
  eventId: string,
  done: {
    outcome: 'applied' | 'recorded';
    notes: string | null;
    userIds: string[];
    customerId: string | null;
    metadataUserId: string | null;
  },
): Promise<void> {
  await tx.query(
    `WITH marked AS (UPDATE stripe_events SET outcome = $5, notes = $6 WHERE id = $1)
     INSERT INTO stripe_event_users ("eventId", "userId")
     SELECT $1, u.id FROM users u
     WHERE u.id = ANY($2::uuid[])
        OR u.id = (SELECT "userId" FROM stripe_customers WHERE id = $3)
        OR u.id = $4::uuid
        OR u.id = (SELECT "toUserId" FROM user_merges WHERE "fromUserId" = $4::uuid)
     ON CONFLICT DO NOTHING`,
    [eventId, done.userIds, done.customerId, done.metadataUserId, done.outcome, done.notes],
  );
}

/**
 * After a ledger change commits: tells the operator what it noticed (a duplicate subscription, a
 * deleted user's payment) and runs the Stripe actions it queued.
 */
export async function settleLedgerChange(
  deps: Pick<Services, 'db' | 'stripe' | 'log'> & { onGifts?: () => void },
  change: LedgerChange,
): Promise<void> {
  for (const notice of change.notices) deps.log.warn(notice);
  if (change.giftIds.length > 0) deps.onGifts?.();
  if (change.actionIds.length > 0) await runStripeActions(deps, change.actionIds);
}

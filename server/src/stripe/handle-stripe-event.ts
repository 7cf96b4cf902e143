import type Stripe from 'stripe';
import { withTransaction, type Tx } from '../db/transaction.js';
import type { Services } from '../services.js';
import { applyPaymentFacts, type PaymentChange } from './apply-payment-facts.js';
import { readEventFacts } from './event-facts.js';
import { asUserId } from './read-payment-facts.js';
import { runStripeActions } from './stripe-actions.js';

export type EventOutcome = 'applied' | 'recorded' | 'duplicate';

export type StripeEventDeps = Services & {
  graceDays: number;
  /**
   * Called after a change to a gift's or seats' payment commits: mail may be due, and waiting
   * seat requests may now be granted (the app's sweep).
   */
  onGiving?: () => void;
};

/**
 * Records a verified Stripe event once and applies what Stripe says now about its object in the
 * same transaction: if the effect cannot be stored, neither is the event, and Stripe's retry finds
 * it new. The event's row is written last, with what it did, in the statement that lists it under
 * its users (one round trip fewer than a row written first and marked after). Two deliveries of
 * one event at once serialise on the users' locks and on the event's primary key: the second finds
 * the row there, and everything it wrote is rolled back, so it changes nothing. What the ledger
 * then owes Stripe (a cancellation, a refund) runs after the commit and never fails the webhook:
 * it stays queued until Stripe has done it.
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
  const result = await withTransaction(
    deps.db.pool,
    async (tx) => {
      const change =
        facts.length === 0
          ? null
          : await applyPaymentFacts(tx, facts, { graceDays: deps.graceDays });
      const recorded = await recordEvent(tx, event, {
        objectId: named.objectId,
        outcome: change ? 'applied' : 'recorded',
        notes: change?.notices.join('\n') || null,
        userIds: [...(change?.userIds ?? [])],
        customerId: named.customerId,
        metadataUserId: named.metadataUserId,
      });
      // Another delivery of this event committed first: undo what this one wrote.
      if (!recorded) throw new AlreadyRecorded();
      return change ?? ('recorded' as const);
    },
    { prepared: deps.db.preparedStatements },
  ).catch((error: unknown) => {
    if (error instanceof AlreadyRecorded) return 'duplicate' as const;
    throw error;
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

/** Thrown inside the transaction to roll back a delivery whose event is already recorded. */
class AlreadyRecorded extends Error {}

/**
 * Records the event with what it did, and lists it under the users whose ledger it changed, the
 * user of its customer, and the user (or the account an anonymous user merged into) named in its
 * metadata: those that have a row. One statement, one round trip; false when the event's row was
 * already there (the listing then adds nothing: it selects from the row just inserted).
 */
async function recordEvent(
  tx: Tx,
  event: Stripe.Event,
  done: {
    objectId: string | null;
    outcome: 'applied' | 'recorded';
    notes: string | null;
    userIds: string[];
    customerId: string | null;
    metadataUserId: string | null;
  },
): Promise<boolean> {
  const { rows } = await tx.query<{ recorded: boolean }>(
    `WITH recorded AS (
       INSERT INTO stripe_events (id, type, "objectId", outcome, notes)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO NOTHING
       RETURNING id
     ), listed AS (
       INSERT INTO stripe_event_users ("eventId", "userId")
       SELECT recorded.id, u.id FROM recorded, users u
       WHERE u.id = ANY($6::uuid[])
          OR u.id = (SELECT "userId" FROM stripe_customers WHERE id = $7)
          OR u.id = $8::uuid
          OR u.id = (SELECT "toUserId" FROM user_merges WHERE "fromUserId" = $8::uuid)
       ON CONFLICT DO NOTHING
     )
     SELECT EXISTS (SELECT 1 FROM recorded) AS recorded`,
    [
      event.id,
      event.type,
      done.objectId,
      done.outcome,
      done.notes,
      done.userIds,
      done.customerId,
      done.metadataUserId,
    ],
  );
  return rows[0]?.recorded === true;
}

/**
 * After a ledger change commits: tells the operator what it noticed (a duplicate subscription, a
 * deleted user's payment) and runs the Stripe actions it queued.
 */
export async function settleLedgerChange(
  deps: Pick<Services, 'db' | 'stripe' | 'log'> & { onGiving?: () => void },
  change: PaymentChange,
): Promise<void> {
  for (const notice of change.notices) deps.log.warn(notice);
  if (change.giftIds.length > 0 || change.fundingIds.length > 0) deps.onGiving?.();
  if (change.actionIds.length > 0) await runStripeActions(deps, change.actionIds);
}

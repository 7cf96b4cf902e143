import type pg from 'pg';
import type Stripe from 'stripe';
import { withTransaction } from '../db/transaction.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { prepareEffect } from './stripe-event-effects.js';

export type EventOutcome = 'applied' | 'recorded' | 'duplicate';

/**
 * Records a verified Stripe event once and applies its effect in the same transaction: if the
 * effect cannot be stored, neither is the event, and Stripe's retry finds it new. Two deliveries
 * of one event at once serialise on the event's primary key; the second changes nothing.
 */
export async function handleStripeEvent(
  deps: { prisma: PrismaClient; pool: pg.Pool; stripe: Stripe },
  event: Stripe.Event,
): Promise<EventOutcome> {
  const seen = await deps.pool.query('SELECT 1 FROM stripe_events WHERE id = $1', [event.id]);
  if (seen.rowCount) return 'duplicate';

  const effect = await prepareEffect(deps, event);
  return withTransaction(deps.pool, async (tx) => {
    const recorded = await tx.query(
      'INSERT INTO stripe_events (id, type) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING',
      [event.id, event.type],
    );
    if (recorded.rowCount === 0) return 'duplicate';
    if (!effect) return 'recorded';
    await effect(tx);
    return 'applied';
  });
}

import type Stripe from 'stripe';
import type { PrismaClient } from '../generated/prisma/client.js';
import { prepareEffect } from './stripe-event-effects.js';

export type EventOutcome = 'applied' | 'recorded' | 'duplicate';

/**
 * Records a verified Stripe event once and applies its effect in the same transaction: if the
 * effect cannot be stored, neither is the event, and Stripe's retry finds it new. Two deliveries
 * of one event at once serialise on the event's primary key; the second changes nothing.
 */
export async function handleStripeEvent(
  deps: { prisma: PrismaClient; stripe: Stripe },
  event: Stripe.Event,
): Promise<EventOutcome> {
  const seen = await deps.prisma.stripeEvent.findUnique({
    where: { id: event.id },
    select: { id: true },
  });
  if (seen) return 'duplicate';

  const effect = await prepareEffect(deps, event);
  return deps.prisma.$transaction(async (tx) => {
    const { count } = await tx.stripeEvent.createMany({
      data: [{ id: event.id, type: event.type }],
      skipDuplicates: true,
    });
    if (count === 0) return 'duplicate';
    if (!effect) return 'recorded';
    await effect(tx);
    return 'applied';
  });
}

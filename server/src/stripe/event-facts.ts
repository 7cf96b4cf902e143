import type Stripe from 'stripe';
import type { PaymentFact } from '../memberships/payment-facts.js';
import { retrieveOrNull } from './call-stripe.js';
import { EARLY_ACCESS_OFFER } from '../../../contract/constants.js';
import { GIFT_OFFER } from '../../../contract/gift-rules.js';
import { SEATS_OFFER } from '../../../contract/seat-rules.js';
import {
  readChargeFacts,
  readCheckoutFacts,
  readInvoiceFact,
  readPaymentIntentFact,
  readSubscriptionFact,
  type SubscriptionReader,
} from './read-payment-facts.js';

/** A verified event that is not shaped like a Stripe event: answered 400, never a 500. */
export class MalformedEventError extends Error {
  override name = 'MalformedEventError';
}

/** Event types that can change a membership. Any other verified event is recorded, no effect. */
export const MEMBERSHIP_EVENT_TYPES = [
  'payment_intent.succeeded',
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'invoice.paid',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'charge.refunded',
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
] as const;

const handled: ReadonlySet<string> = new Set(MEMBERSHIP_EVENT_TYPES);

/** The id (and for a few types one more field) of the event's object: all an event is read for. */
function objectOf(event: Stripe.Event): { id: string; metadata?: unknown } {
  const object: unknown = (event as { data?: { object?: unknown } }).data?.object;
  const id = typeof object === 'object' && object !== null ? (object as { id?: unknown }).id : null;
  if (typeof id !== 'string' || id === '') {
    throw new MalformedEventError(`Event ${event.id} has no data.object.id`);
  }
  return object as { id: string; metadata?: unknown };
}

/**
 * What Stripe says now about the object an event names. The event only says where to look: its
 * snapshot may be stale (events are not ordered) or shaped by an older API version.
 */
export async function readEventFacts(
  deps: SubscriptionReader,
  event: Stripe.Event,
): Promise<PaymentFact[]> {
  if (typeof event.type !== 'string' || typeof event.id !== 'string') {
    throw new MalformedEventError('The event has no id or type');
  }
  if (!handled.has(event.type)) return [];
  const object = objectOf(event);

  switch (event.type) {
    case 'payment_intent.succeeded': {
      // Subscription invoices' PaymentIntents carry no offer: invoice.paid covers them.
      const metadata = object.metadata as Record<string, unknown> | undefined;
      const offer = metadata?.offer;
      if (offer !== EARLY_ACCESS_OFFER && offer !== GIFT_OFFER && offer !== SEATS_OFFER) return [];
      const fact = await readPaymentIntentFact(deps, object.id);
      return fact ? [fact] : [];
    }
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = await retrieveOrNull(deps.stripe, 'read a Checkout Session', (stripe) =>
        stripe.checkout.sessions.retrieve(object.id),
      );
      return session ? readCheckoutFacts(deps, session) : [];
    }
    case 'invoice.paid': {
      const fact = await readInvoiceFact(deps, object.id);
      return fact ? [fact] : [];
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const fact = await readSubscriptionFact(deps, object.id);
      return fact ? [fact] : [];
    }
    case 'charge.refunded':
      return readChargeFacts(deps, object.id);
    default: {
      // charge.dispute.*: the dispute names its charge.
      const dispute = await retrieveOrNull(deps.stripe, 'read a dispute', (stripe) =>
        stripe.disputes.retrieve(object.id),
      );
      const chargeId = typeof dispute?.charge === 'string' ? dispute.charge : dispute?.charge.id;
      return chargeId ? readChargeFacts(deps, chargeId) : [];
    }
  }
}

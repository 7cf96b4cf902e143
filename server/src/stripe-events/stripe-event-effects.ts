import type Stripe from 'stripe';
import type { Tx } from '../db/transaction.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { HttpError } from '../http/errors.js';
import {
  applySubscriptionState,
  grantOneTimeMembership,
  revokeRefundedPayment,
} from '../memberships/memberships.js';
import {
  checkoutSessionState,
  idOf,
  readSubscriptionState,
  userIdFrom,
} from '../memberships/stripe-state.js';

/** What an event does to our data, run inside the transaction that records the event. */
export type Effect = (tx: Tx) => Promise<unknown>;

/** The PaymentIntent metadata that marks Cohort's early-access offer. */
export const EARLY_ACCESS_OFFER = 'early-access';

/** The event is about something we cannot place yet: answer 5xx so Stripe delivers it again. */
export class RetryLaterError extends HttpError {
  constructor(message: string) {
    super(503, 'retry_later', message);
  }
}

interface Dependencies {
  prisma: PrismaClient;
  stripe: Stripe;
}

/**
 * Whose subscription this is: the user holding it now (a membership can move to an account at
 * sign-in), else the user id Stripe carries in its metadata, else the user of its customer.
 */
async function ownerOf(
  prisma: PrismaClient,
  state: { subscriptionId: string; userId: string | null; customerId: string | null },
): Promise<string | null> {
  const holder = await prisma.membership.findUnique({
    where: { stripeSubscriptionId: state.subscriptionId },
    select: { userId: true },
  });
  return holder?.userId ?? state.userId ?? (await userIdForCustomer(prisma, state.customerId));
}

async function userIdForCustomer(prisma: PrismaClient, customerId: string | null) {
  if (!customerId) return null;
  const user = await prisma.user.findUnique({
    where: { stripeCustomerId: customerId },
    select: { id: true },
  });
  return user?.id ?? null;
}

/**
 * Works out an event's effect. Anything read from Stripe is read here, before the transaction,
 * so no database transaction waits on the network. Null: the event has no effect.
 */
export async function prepareEffect(
  deps: Dependencies,
  event: Stripe.Event,
): Promise<Effect | null> {
  switch (event.type) {
    case 'payment_intent.succeeded': {
      const intent = event.data.object;
      const userId = userIdFrom(intent.metadata?.userId);
      if (
        intent.metadata?.offer !== EARLY_ACCESS_OFFER ||
        !userId ||
        intent.status !== 'succeeded'
      ) {
        return null;
      }
      return (tx) =>
        grantOneTimeMembership(tx, {
          userId,
          paymentIntentId: intent.id,
          amountCents: intent.amount_received,
          currency: intent.currency,
        });
    }

    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const state = await checkoutSessionState(deps.stripe, event.data.object);
      return state && ((tx) => applySubscriptionState(tx, state));
    }

    case 'invoice.paid': {
      const invoice = event.data.object;
      const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
      if (!subscriptionId || !invoice.id) return null;
      const state = await readSubscriptionState(deps.stripe, subscriptionId, null);
      const userId = await ownerOf(deps.prisma, state);
      if (!userId) {
        throw new RetryLaterError(
          `Invoice ${invoice.id} is for a customer Cohort does not know yet; retry later.`,
        );
      }
      const invoiceState = {
        ...state,
        userId,
        invoice: { id: invoice.id, amountCents: invoice.amount_paid, currency: invoice.currency },
      };
      return (tx) => applySubscriptionState(tx, invoiceState);
    }

    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const state = await readSubscriptionState(deps.stripe, event.data.object.id, null);
      const userId = await ownerOf(deps.prisma, state);
      if (!userId) return null; // not one of ours
      return (tx) => applySubscriptionState(tx, { ...state, userId });
    }

    case 'charge.refunded': {
      const charge = event.data.object;
      if (!charge.refunded) return null; // partly refunded: the membership stands
      const refund = {
        paymentIntentId: idOf(charge.payment_intent),
        customerId: idOf(charge.customer),
      };
      return (tx) => revokeRefundedPayment(tx, refund);
    }

    default:
      return null;
  }
}

import type Stripe from 'stripe';
import { HttpError } from '../http/errors.js';
import type { SubscriptionState } from './memberships.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Our user id from Stripe metadata or a client reference, if it is one. */
export function userIdFrom(...candidates: (string | null | undefined)[]): string | null {
  return candidates.find((value): value is string => !!value && UUID.test(value)) ?? null;
}

export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

/** Stripe could not be reached or failed: the visitor gets a clear message, nothing is written. */
export class StripeUnavailableError extends HttpError {
  constructor(cause: unknown) {
    super(
      502,
      'payment_provider_unavailable',
      'The payment provider is not answering right now. Nothing was charged; please try again in a minute.',
    );
    this.cause = cause;
  }
}

/** Calls Stripe, turning its connection and server errors into a `StripeUnavailableError`. */
export async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const type = (error as { type?: string }).type;
    if (
      type === 'StripeConnectionError' ||
      type === 'StripeAPIError' ||
      type === 'StripeRateLimitError'
    ) {
      throw new StripeUnavailableError(error);
    }
    throw error;
  }
}

/** The end of the period a subscription has paid for (the latest of its items'). */
function currentPeriodEnd(subscription: Stripe.Subscription): Date {
  const ends = subscription.items.data.map((item) => item.current_period_end);
  return new Date(Math.max(0, ...ends) * 1000);
}

/**
 * Reads a subscription from Stripe now, so whatever order events arrive in, the newest state is
 * what gets stored.
 */
export async function readSubscriptionState(
  stripe: Stripe,
  subscriptionId: string,
  userIdHint: string | null,
): Promise<Omit<SubscriptionState, 'userId'> & { userId: string | null }> {
  const readAt = new Date();
  const subscription = await callStripe(() => stripe.subscriptions.retrieve(subscriptionId));
  return {
    userId: userIdFrom(subscription.metadata?.userId, userIdHint),
    subscriptionId: subscription.id,
    customerId: idOf(subscription.customer),
    status: subscription.status,
    currentPeriodEnd: currentPeriodEnd(subscription),
    readAt,
  };
}

/**
 * The subscription state a completed, paid Checkout Session stands for, or null while it is not
 * paid (asynchronous payment methods pay later). Used by the webhook and the checkout return alike.
 */
export async function checkoutSessionState(
  stripe: Stripe,
  session: Stripe.Checkout.Session,
): Promise<SubscriptionState | null> {
  if (session.mode !== 'subscription' || session.status !== 'complete') return null;
  if (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required') {
    return null;
  }
  const subscriptionId = idOf(session.subscription);
  const userId = userIdFrom(session.client_reference_id, session.metadata?.userId);
  if (!subscriptionId || !userId) return null;
  const state = await readSubscriptionState(stripe, subscriptionId, userId);
  const invoiceId = idOf(session.invoice);
  return {
    ...state,
    userId,
    customerId: state.customerId ?? idOf(session.customer),
    ...(invoiceId && {
      invoice: {
        id: invoiceId,
        amountCents: session.amount_total ?? 0,
        currency: session.currency ?? 'usd',
      },
    }),
  };
}

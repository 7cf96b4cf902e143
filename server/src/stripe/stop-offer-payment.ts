import type Stripe from 'stripe';
import type { StopPayment } from '../memberships/offer-redemptions.js';
import { callStripe, PaymentsUnavailableError, retrieveOrNull } from './call-stripe.js';

/**
 * An offer's held redemption is released only once Stripe can no longer take its payment
 * (memberships/offer-redemptions.ts): this stops that payment at Stripe where its payer has not
 * paid yet (a PaymentIntent canceled, a Checkout Session expired) and says whether it still could.
 */

/** The year paid once is stopped by its PaymentIntent, a subscription by its Checkout Session. */
export const stopOfferPayment =
  (stripe: Stripe): StopPayment =>
  ({ plan, stripeId }) =>
    plan === 'early-access'
      ? stopPaymentIntent(stripe, stripeId)
      : stopCheckoutSession(stripe, stripeId);

/** PaymentIntent states in which the payer can still pay. */
const PAYABLE_INTENT = new Set([
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
]);

/** Stripe refused to change the object as it is now (paid meanwhile, already closed). */
const refusedForItsState = (error: unknown) =>
  error instanceof PaymentsUnavailableError && error.stripe.statusCode === 400;

/**
 * Whether Stripe may still take the payment of a reservation's PaymentIntent, after canceling it
 * if it was waiting for the payer.
 */
async function stopPaymentIntent(stripe: Stripe, id: string): Promise<boolean> {
  const intent = await retrieveOrNull(stripe, 'read an offer’s PaymentIntent', (s) =>
    s.paymentIntents.retrieve(id),
  );
  if (!intent || intent.status === 'canceled') return false;
  if (!PAYABLE_INTENT.has(intent.status)) return true;
  try {
    await callStripe(stripe, 'cancel an unpaid offer’s PaymentIntent', (s) =>
      s.paymentIntents.cancel(
        id,
        { cancellation_reason: 'abandoned' },
        { idempotencyKey: `cohort-offer-cancel-${id}` },
      ),
    );
    return false;
  } catch (error) {
    if (refusedForItsState(error)) return true;
    throw error;
  }
}

/**
 * Whether Stripe may still take the payment of a reservation's Checkout Session, after expiring
 * it if it was still open. A completed one is paid or being paid, unless its subscription ended
 * without paying: never paid (`incomplete_expired`), or canceled within its free trial.
 */
async function stopCheckoutSession(stripe: Stripe, id: string): Promise<boolean> {
  const session = await retrieveOrNull(stripe, 'read an offer’s Checkout Session', (s) =>
    s.checkout.sessions.retrieve(id, { expand: ['subscription'] }),
  );
  if (!session || session.status === 'expired') return false;
  if (session.status === 'open') {
    try {
      await callStripe(stripe, 'expire an unpaid offer’s Checkout Session', (s) =>
        s.checkout.sessions.expire(id),
      );
      return false;
    } catch (error) {
      if (refusedForItsState(error)) return true;
      throw error;
    }
  }
  const subscription = typeof session.subscription === 'object' ? session.subscription : null;
  if (!subscription) return true;
  const endedInTrial =
    subscription.status === 'canceled' &&
    subscription.trial_end !== null &&
    subscription.ended_at !== null &&
    subscription.ended_at <= subscription.trial_end;
  return !(subscription.status === 'incomplete_expired' || endedInTrial);
}

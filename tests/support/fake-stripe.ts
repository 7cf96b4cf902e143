/**
 * A local stand-in for Stripe's API, for the real `stripe` SDK (STRIPE_API_URL) and the browser's
 * Stripe.js stand-in. It behaves as Stripe documents, not as the app expects:
 * - every object starts as Stripe's published fixture (stripe-fixtures.ts), with the fields a
 *   scenario needs set on top;
 * - what happens at Stripe (a card paid, a Checkout completed, a renewal paid or failed, a refund,
 *   a dispute) updates the objects as Stripe does and emits the events Stripe emits, in its usual
 *   order, with `previous_attributes` on updates; API calls that Stripe answers with events (a
 *   refund, a cancellation) emit them too;
 * - events are queued for a webhook target and delivered in order, shuffled, duplicated or held
 *   back on request; an answer other than 2xx keeps the event pending, as Stripe retries;
 * - an Idempotency-Key replays the first answer (failures included) and is refused with other
 *   parameters.
 *
 * Its parts are in fake-stripe/, one module for each kind of object, each class adding to the one
 * before: store.ts (objects by id), webhooks.ts (events and their delivery),
 * customers-and-prices.ts, payment-intents-and-charges.ts (refunds and disputes too),
 * subscriptions-and-invoices.ts (discounts too), price-changes.ts, checkout.ts, and http-api.ts
 * (the server and its routes). basics.ts holds what they share.
 */

export type { StripeObject } from './stripe-fixtures.js';
export {
  FAKE_STRIPE_KEYS,
  PINNED_API_VERSION,
  periodEnd,
  type DeliverOptions,
  type Delivery,
  type RecordedRequest,
  type StripeEvent,
} from './fake-stripe/basics.js';
export { FakeStripe, startFakeStripe } from './fake-stripe/http-api.js';

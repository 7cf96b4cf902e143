import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import { callStripe } from './call-stripe.js';
import type { Services } from '../services.js';
import { PLAN_SHAPES } from '../../../contract/plan-rules.js';
import type { PlanRow } from '../memberships/plan-catalog.js';
import type { HoldRedemption } from '../memberships/offer-redemptions.js';
import { FIRST_TIER_ID } from '../memberships/derive-membership.js';
import type { TierRow } from '../memberships/tier-catalog.js';
import {
  earlyAccessMetadata,
  giftMetadata,
  planLookupKey,
  PRICE_TIER_KEY,
  seatsMetadata,
  type GiftDetails,
  type SeatFundingDetails,
} from './cohort-sales.js';

/**
 * The calls that start a payment at Stripe: the early-access PaymentIntent, the Checkout Session
 * for the yearly subscription, and the billing portal. Nothing here grants anything: memberships
 * come only from what Stripe later says was paid (read-payment-facts.ts).
 */

type PaymentsSetup = Pick<Services, 'stripe' | 'membershipPrice'>;

/** Keys whose request failed: never sent again, so a retry after a Stripe 500 goes through. */
const failedKeys = new Set<string>();
const DOUBLE_SUBMIT_WINDOW_MS = 60_000;

/**
 * An idempotency key that means "this request": the visitor and the exact parameters, within a
 * minute (a double submit or a reload lands in the same one). A key whose call failed is not
 * used again: Stripe would replay the failure.
 */
function requestKey(parts: unknown[]): string {
  const window = Math.floor(Date.now() / DOUBLE_SUBMIT_WINDOW_MS);
  const base = createHash('sha256')
    .update(JSON.stringify([...parts, window]))
    .digest('hex');
  let key = base;
  for (let retry = 1; failedKeys.has(key); retry += 1) key = `${base}-${retry}`;
  return key;
}

async function withRequestKey<T>(parts: unknown[], call: (key: string) => Promise<T>) {
  const key = requestKey(parts);
  try {
    return await call(key);
  } catch (error) {
    if (failedKeys.size > 10_000) failedKeys.clear();
    failedKeys.add(key);
    throw error;
  }
}

/** The tier a plan is sold for: its id names it to Stripe, its name to the member. */
export type SellingTier = Pick<TierRow, 'id' | 'name'>;

/** The first tier, as the calls made before tiers sell it. */
const FIRST_TIER: SellingTier = { id: FIRST_TIER_ID, name: '' };

/** The digest of a checkout's parameters: what a held redemption is for. */
const digestOf = (params: unknown) =>
  createHash('sha256').update(JSON.stringify(params)).digest('hex');

/**
 * A PaymentIntent for one year of membership at the one-time plan's price, set here. The same
 * visitor asking again with the same price at once (a double submit, a reload) gets the same
 * PaymentIntent back; with an offer, for as long as the redemption it holds.
 */
export async function createEarlyAccessPayment(
  payments: PaymentsSetup,
  input: {
    userId: string;
    siteName: string;
    plan: PlanRow;
    /** The tier whose year it is (the first when left out). */
    tier?: SellingTier;
    /** An offer redeemed: the price with its discount, set here, and the redemption's hold. */
    offer?: { id: string; amountCents: number; hold: HoldRedemption };
  },
): Promise<{ id: string; clientSecret: string }> {
  const price = {
    priceCents: input.offer?.amountCents ?? input.plan.amountCents,
    currency: input.plan.currency,
  };
  const tier = input.tier ?? FIRST_TIER;
  const params = {
    amount: price.priceCents,
    currency: price.currency,
    automatic_payment_methods: { enabled: true },
    description:
      tier.id === FIRST_TIER_ID
        ? `${input.siteName} early access: one year of membership`
        : `${input.siteName} early access: one year of ${tier.name} membership`,
    metadata: {
      ...earlyAccessMetadata(input.userId, price, tier.id),
      ...(input.offer && {
        discountOffer: input.offer.id,
        fullPriceCents: String(input.plan.amountCents),
      }),
    },
  };
  const { offer } = input;
  const intent = offer
    ? await offer
        .hold(digestOf(params))
        .then((redemption) =>
          callStripe(payments.stripe, 'create a PaymentIntent', (stripe) =>
            stripe.paymentIntents.create(
              { ...params, metadata: { ...params.metadata, offerRedemption: redemption.id } },
              { idempotencyKey: `early-access-offer-${redemption.id}` },
            ),
          ),
        )
    : await withRequestKey(['early-access', input.userId, params], (key) =>
        callStripe(payments.stripe, 'create a PaymentIntent', (stripe) =>
          stripe.paymentIntents.create(params, { idempotencyKey: `early-access-${key}` }),
        ),
      );
  if (!intent.client_secret) {
    throw new Error('Stripe returned a PaymentIntent without a client secret');
  }
  return { id: intent.id, clientSecret: intent.client_secret };
}

/** A UUID made from a request's key: the same request (a double submit) names the same gift. */
function uuidFromKey(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  const variant = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A PaymentIntent for a gift (docs/decisions/0024-gifts-and-solidarity-seats.md): a year at the
 * one-time plan's price, set here, with the gift itself in its metadata, so the gift exists only
 * once it is paid. A double submit gets the same PaymentIntent, and the same gift, back.
 */
export async function createGiftPayment(
  payments: PaymentsSetup,
  input: {
    gift: Omit<GiftDetails, 'giftId'>;
    siteName: string;
    price: { priceCents: number; currency: string };
  },
): Promise<{ clientSecret: string; giftId: string }> {
  const made = await createPaidOncePayment(payments, {
    kind: 'gift',
    request: [input.gift, input.price],
    amount: input.price.priceCents,
    currency: input.price.currency,
    description: `${input.siteName}: a year of membership, given to ${input.gift.recipientEmail}`,
    metadata: (giftId) => giftMetadata({ ...input.gift, giftId }, input.price),
  });
  return { clientSecret: made.clientSecret, giftId: made.id };
}

/**
 * A PaymentIntent for solidarity seats: `seats` years at the one-time plan's price,
 * the total set here, the seats in its metadata (the funding exists only once it is paid).
 */
export async function createSeatsPayment(
  payments: PaymentsSetup,
  input: {
    funding: Omit<SeatFundingDetails, 'fundingId'>;
    siteName: string;
    price: { priceCents: number; currency: string };
  },
): Promise<{ clientSecret: string; fundingId: string }> {
  const made = await createPaidOncePayment(payments, {
    kind: 'seats',
    request: [input.funding, input.price],
    amount: input.price.priceCents,
    currency: input.price.currency,
    description: `${input.siteName}: ${input.funding.seats} year(s) of membership for readers who cannot pay`,
    metadata: (fundingId) => seatsMetadata({ ...input.funding, fundingId }, input.price),
  });
  return { clientSecret: made.clientSecret, fundingId: made.id };
}

/** Payment states in which the buyer can still pay (the same PaymentIntent, re-sent). */
const OPEN_INTENT = new Set([
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
]);

/**
 * A PaymentIntent for something paid once whose record is made from its metadata once paid (a
 * gift, seats): the record's id comes from the request's key, so a double submit names the same
 * record and gets the same PaymentIntent. The same request again after that one was paid is a new
 * purchase, not the paid one again.
 */
async function createPaidOncePayment(
  payments: PaymentsSetup,
  input: {
    kind: 'gift' | 'seats';
    request: unknown[];
    amount: number;
    currency: string;
    description: string;
    metadata: (id: string) => Record<string, string>;
  },
): Promise<{ clientSecret: string; id: string }> {
  for (let attempt = 0; ; attempt += 1) {
    const made = await withRequestKey([input.kind, ...input.request], async (key) => {
      const id = uuidFromKey(key);
      const params = {
        amount: input.amount,
        currency: input.currency,
        automatic_payment_methods: { enabled: true },
        description: input.description,
        metadata: input.metadata(id),
      };
      const intent = await callStripe(payments.stripe, 'create a PaymentIntent', (stripe) =>
        stripe.paymentIntents.create(params, { idempotencyKey: `${input.kind}-${key}` }),
      );
      if (!intent.client_secret) {
        throw new Error('Stripe returned a PaymentIntent without a client secret');
      }
      return { clientSecret: intent.client_secret, id, key, open: OPEN_INTENT.has(intent.status) };
    });
    if (made.open || attempt >= 2) return made;
    failedKeys.add(made.key);
  }
}

export type SubscriptionPlan = PlanRow & { id: 'monthly' | 'yearly' };

const priceIds = new WeakMap<Stripe, Map<string, Promise<string>>>();

/**
 * A tier's subscription plan's Stripe Price at its price now: the operator's own (STRIPE_PRICE_ID,
 * the first tier's yearly plan while its price is unchanged), else the one Cohort made, found again
 * by its lookup key (made once per tier, plan and price, never one per Checkout Session), with the
 * tier in its metadata.
 */
export async function planPriceId(
  payments: PaymentsSetup,
  plan: SubscriptionPlan,
  siteName: string,
  tier: SellingTier = FIRST_TIER,
): Promise<string> {
  const { stripe } = payments;
  if (plan.stripePriceId) return plan.stripePriceId;
  const key = planLookupKey(plan.id, plan.amountCents, plan.currency, tier.id);
  const cache = priceIds.get(stripe) ?? new Map<string, Promise<string>>();
  priceIds.set(stripe, cache);
  const cached = cache.get(key);
  if (cached) return cached;
  const lookup = (async () => {
    const found = await callStripe(stripe, 'find the membership Price', (s) =>
      s.prices.list({ lookup_keys: [key], active: true, limit: 1 }),
    );
    const existing = found.data[0];
    if (existing) return existing.id;
    const created = await callStripe(stripe, 'create the membership Price', (s) =>
      s.prices.create(
        {
          unit_amount: plan.amountCents,
          currency: plan.currency,
          recurring: { interval: PLAN_SHAPES[plan.id].interval },
          lookup_key: key,
          metadata: { [PRICE_TIER_KEY]: String(tier.id) },
          product_data: {
            name:
              tier.id === FIRST_TIER_ID
                ? `${siteName} membership (${plan.id})`
                : `${siteName} membership: ${tier.name} (${plan.id})`,
          },
        },
        { idempotencyKey: `cohort-price-${key}` },
      ),
    );
    return created.id;
  })();
  cache.set(key, lookup);
  lookup.catch(() => cache.delete(key));
  return lookup;
}

/**
 * A Stripe-hosted Checkout for a monthly or yearly subscription; answers its id and URL. With an
 * offer, the same visitor asking again with the same parameters gets the same Checkout back, for
 * as long as the redemption it holds: Stripe expires it at the hold's end.
 */
export async function createMembershipCheckout(
  payments: PaymentsSetup,
  input: {
    userId: string;
    email: string | null;
    customerId: string | null;
    siteUrl: string;
    siteName: string;
    plan: SubscriptionPlan;
    /** The tier it is a plan of (the first when left out). */
    tier?: SellingTier;
    /** A free trial this reader may have (memberships/plan-catalog.ts `mayStartTrial`). */
    trial?: { days: number; needsCard: boolean };
    /** An offer redeemed, through its Stripe Promotion Code, and the redemption's hold. */
    offer?: { id: string; promotionCodeId: string; hold: HoldRedemption };
  },
): Promise<{ id: string; url: string }> {
  const price = await planPriceId(payments, input.plan, input.siteName, input.tier);
  const { trial, offer } = input;
  const params = {
    mode: 'subscription' as const,
    line_items: [{ price, quantity: 1 }],
    client_reference_id: input.userId,
    metadata: { userId: input.userId, plan: input.plan.id },
    ...(offer && { discounts: [{ promotion_code: offer.promotionCodeId }] }),
    subscription_data: {
      metadata: {
        userId: input.userId,
        plan: input.plan.id,
        ...(offer && { offer: offer.id }),
      },
      ...(trial && {
        trial_period_days: trial.days,
        // Without a card the trial ends the subscription, never an unpaid invoice.
        ...(!trial.needsCard && {
          trial_settings: { end_behavior: { missing_payment_method: 'cancel' as const } },
        }),
      }),
    },
    ...(trial && !trial.needsCard && { payment_method_collection: 'if_required' as const }),
    ...(input.customerId
      ? { customer: input.customerId }
      : input.email
        ? { customer_email: input.email }
        : {}),
    success_url: `${input.siteUrl}/?checkout_session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${input.siteUrl}/`,
  };
  const checkout = offer
    ? await offer.hold(digestOf(params)).then((redemption) =>
        callStripe(payments.stripe, 'create a Checkout Session', (stripe) =>
          stripe.checkout.sessions.create(
            {
              ...params,
              metadata: { ...params.metadata, offerRedemption: redemption.id },
              subscription_data: {
                ...params.subscription_data,
                metadata: { ...params.subscription_data.metadata, offerRedemption: redemption.id },
              },
              expires_at: Math.floor(redemption.holdUntil.getTime() / 1000),
            },
            { idempotencyKey: `checkout-offer-${redemption.id}` },
          ),
        ),
      )
    : await callStripe(payments.stripe, 'create a Checkout Session', (stripe) =>
        stripe.checkout.sessions.create(params),
      );
  if (!checkout.url) throw new Error('Stripe returned a Checkout Session without a URL');
  return { id: checkout.id, url: checkout.url };
}

/** The Stripe billing portal for a customer, returning to the account page. */
export async function createPortalUrl(
  { stripe }: Pick<Services, 'stripe'>,
  input: { customerId: string; returnUrl: string },
): Promise<string> {
  const portal = await callStripe(stripe, 'open the billing portal', (s) =>
    s.billingPortal.sessions.create({
      customer: input.customerId,
      return_url: input.returnUrl,
    }),
  );
  return portal.url;
}

/**
 * Moves a live subscription to another plan's Price (monthly ↔ yearly), as Stripe does it for a
 * change of interval: a new period from now, the old one's unused time credited, the new one
 * invoiced at once; with `pending_if_incomplete`, nothing changes unless that payment succeeds.
 * Answers the subscription as Stripe has it after.
 */
/** A subscription's item moved to a tier's plan's Price. */
interface SubscriptionMove {
  subscriptionId: string;
  itemId: string;
  plan: SubscriptionPlan;
  siteName: string;
  /** The tier of the plan (the first when left out). */
  tier?: SellingTier;
  /**
   * What the caller knows of the subscription's state (when it was last read): a request made
   * again in the same state within a minute is the same call to Stripe, one after a change is not.
   */
  version?: string;
}

export async function switchSubscriptionPlan(
  payments: PaymentsSetup,
  input: SubscriptionMove,
): Promise<Stripe.Subscription> {
  return chargeSubscriptionMove(payments, input, 'switch', 'switch the subscription’s plan');
}

/**
 * Moves a live subscription to a dearer tier's Price for the same interval, as Stripe does a
 * change of price within a period with `always_invoice`: the period stays, the unused time at the
 * old Price is credited and the time left at the new one charged, on an invoice of prorations
 * paid at once; with `pending_if_incomplete`, nothing changes unless that payment succeeds.
 */
export async function moveSubscriptionUp(
  payments: PaymentsSetup,
  input: SubscriptionMove,
): Promise<Stripe.Subscription> {
  return chargeSubscriptionMove(payments, input, 'tier-up', 'move the subscription to a tier');
}

async function chargeSubscriptionMove(
  payments: PaymentsSetup,
  input: SubscriptionMove,
  kind: string,
  what: string,
): Promise<Stripe.Subscription> {
  const price = await planPriceId(payments, input.plan, input.siteName, input.tier);
  return withRequestKey([kind, input.subscriptionId, price, input.version], (key) =>
    callStripe(payments.stripe, what, (stripe) =>
      stripe.subscriptions.update(
        input.subscriptionId,
        {
          items: [{ id: input.itemId, price }],
          proration_behavior: 'always_invoice',
          // Stripe takes only the items and the billing parameters with this behaviour.
          payment_behavior: 'pending_if_incomplete',
        },
        { idempotencyKey: `${kind}-${key}` },
      ),
    ),
  );
}

/**
 * Moves a subscription to its plan's Price now, to be charged from its next renewal: Stripe's
 * price change with proration off (nothing is charged or credited for the period already paid).
 * A new price of the same tier (the desk's), or a cheaper tier (a move down, from the period's
 * end: the paid period's invoice keeps its Price, so its tier, and the next one is the new tier's).
 */
export async function moveSubscriptionPrice(
  payments: PaymentsSetup,
  input: SubscriptionMove,
): Promise<Stripe.Subscription> {
  const price = await planPriceId(payments, input.plan, input.siteName, input.tier);
  return withRequestKey(['move', input.subscriptionId, price, input.version], (key) =>
    callStripe(payments.stripe, 'move a subscription to the new price', (stripe) =>
      stripe.subscriptions.update(
        input.subscriptionId,
        { items: [{ id: input.itemId, price }], proration_behavior: 'none' },
        { idempotencyKey: `move-${key}` },
      ),
    ),
  );
}

/**
 * A move to a cheaper tier undone before the period's end: the item back on the Price the period
 * was paid at, with proration off (nothing charged or credited), so it renews as before.
 */
export async function restoreSubscriptionPrice(
  payments: PaymentsSetup,
  input: { subscriptionId: string; itemId: string; price: string; version?: string },
): Promise<Stripe.Subscription> {
  return withRequestKey(['restore', input.subscriptionId, input.price, input.version], (key) =>
    callStripe(payments.stripe, 'keep the subscription’s tier', (stripe) =>
      stripe.subscriptions.update(
        input.subscriptionId,
        { items: [{ id: input.itemId, price: input.price }], proration_behavior: 'none' },
        { idempotencyKey: `restore-${key}` },
      ),
    ),
  );
}

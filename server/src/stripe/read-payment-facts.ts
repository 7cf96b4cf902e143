import type Stripe from 'stripe';
import { UUID_PATTERN } from '../../../contract/constants.js';
import type {
  GiftFact,
  InvoiceFact,
  SeatFundingFact,
  OneTimeFact,
  PaymentFact,
  PaymentOutcome,
  SubscriptionFact,
} from '../memberships/payment-facts.js';
import { idOf, retrieveOrNull } from './call-stripe.js';
import type { Database } from '../db/database.js';
import type { Services } from '../services.js';
import {
  earlyAccessTierId,
  giftDetails,
  isCohortPrice,
  isPaidEarlyAccess,
  isPaidGift,
  isPaidSeats,
  priceTierId,
  seatFundingDetails,
} from './cohort-sales.js';

/**
 * Reads payments from Stripe itself, through the SDK's pinned API version, and turns them into
 * the facts the ledger records. Never trusts an event's snapshot: whatever order events arrive
 * in, and whatever API version the endpoint was made with, what is read now is what counts.
 * Null: the object is not Cohort's (another product, another sale) or does not exist.
 */

/** Our user id, if the value is one. */
export const asUserId = (value: string | null | undefined): string | null =>
  value && UUID_PATTERN.test(value) ? value : null;

const fromSeconds = (seconds: number) => new Date(seconds * 1000);

const ACTIVE: PaymentOutcome = { state: 'active', reason: null };

/** Dispute statuses after which the money stays with the merchant. */
const DISPUTE_SETTLED_FOR_US = new Set(['won', 'warning_closed', 'prevented']);

/** What became of a charge: kept, refunded in full, or under / lost in a dispute. */
async function chargeOutcome(
  deps: Pick<Services, 'stripe'>,
  charge: Stripe.Charge | null,
): Promise<PaymentOutcome> {
  if (!charge) return ACTIVE;
  if (charge.refunded || (charge.amount > 0 && charge.amount_refunded >= charge.amount)) {
    return { state: 'refunded', reason: 'refund' };
  }
  if (!charge.disputed) return ACTIVE;
  const disputes = await retrieveOrNull(deps.stripe, 'list a charge’s disputes', (stripe) =>
    stripe.disputes.list({ charge: charge.id, limit: 10 }),
  );
  const latest = disputes?.data.sort((a, b) => b.created - a.created)[0];
  if (!latest) return ACTIVE;
  if (latest.status === 'lost') return { state: 'revoked', reason: 'dispute_lost' };
  if (DISPUTE_SETTLED_FOR_US.has(latest.status)) return ACTIVE;
  return { state: 'suspended', reason: 'dispute' };
}

async function paymentIntentWithCharge(deps: Pick<Services, 'stripe'>, id: string) {
  const intent = await retrieveOrNull(deps.stripe, 'read a PaymentIntent', (stripe) =>
    stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] }),
  );
  const charge = intent && typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  return { intent, charge };
}

/**
 * A Cohort PaymentIntent, paid at the price the server set: the early-access year (for the payer),
 * a gift (for whoever claims it) or solidarity seats (for readers granted them). Null for any
 * other payment, or one not paid.
 */
export async function readPaymentIntentFact(
  deps: Pick<Services, 'stripe' | 'membershipPrice'>,
  paymentIntentId: string,
): Promise<OneTimeFact | GiftFact | SeatFundingFact | null> {
  const readAt = new Date();
  const { intent, charge } = await paymentIntentWithCharge(deps, paymentIntentId);
  if (!intent) return null;
  const paidAt = fromSeconds(charge?.created ?? intent.created);
  // What every payment's fact says of it: its amount, when it was paid and what became of it.
  const payment = async () => ({
    paymentIntentId: intent.id,
    amountCents: intent.amount_received,
    currency: intent.currency,
    paidAt,
    outcome: await chargeOutcome(deps, charge),
    readAt,
  });
  if (isPaidGift(intent)) {
    const gift = giftDetails(intent);
    return gift ? { kind: 'gift', ...gift, ...(await payment()) } : null;
  }
  if (isPaidSeats(intent)) {
    const funding = seatFundingDetails(intent);
    return funding ? { kind: 'seats', ...funding, ...(await payment()) } : null;
  }
  if (!isPaidEarlyAccess(intent, deps.membershipPrice)) return null;
  const userId = asUserId(intent.metadata?.userId);
  if (!userId) return null;
  return {
    kind: 'one-time',
    userId,
    customerId: idOf(intent.customer),
    ...(await payment()),
    offerId: asUserId(intent.metadata?.discountOffer),
    offerRedemptionId: asUserId(intent.metadata?.offerRedemption),
    tierId: earlyAccessTierId(intent),
  };
}

/** The plans an imported Stripe Price may count as (`npm run import -- … --price <price>=<plan>`). */
export const IMPORTED_PRICE_PLANS = ['monthly', 'yearly'] as const;
export type ImportedPricePlan = (typeof IMPORTED_PRICE_PLANS)[number];
export const isImportedPricePlan = (plan: string): plan is ImportedPricePlan =>
  (IMPORTED_PRICE_PLANS as readonly string[]).includes(plan);
/** What an imported Stripe Price counts as here: a plan, of a tier (by id). */
export interface ImportedPrice {
  plan: ImportedPricePlan;
  tierId: number;
}
/** The billing interval each plan stands for, as Stripe names it. */
export const INTERVAL_OF_PLAN: Record<ImportedPricePlan, string> = {
  monthly: 'month',
  yearly: 'year',
};

/**
 * What reads a subscription. Besides Cohort's own Prices (the membership price), a Price another platform
 * sold memberships at in the same Stripe account counts once an import mapped it to a plan: the
 * `imported_prices` rows, read through `db` (the webhook and reconcile pass it, so renewals at
 * such a Price count too), and `importedPrices`, the mapping of an import that has not written it
 * (a dry run). Without either, only Cohort's Prices count.
 */
export type SubscriptionReader = Pick<Services, 'stripe' | 'membershipPrice'> & {
  db?: Pick<Database, 'pool'>;
  importedPrices?: ReadonlyMap<string, ImportedPrice>;
};

/** The plans (and tiers) the given Prices were mapped to by an import, by Price id. */
async function importedPlansOf(
  deps: SubscriptionReader,
  priceIds: readonly string[],
): Promise<Map<string, ImportedPrice>> {
  const plans = new Map<string, ImportedPrice>();
  if (deps.db) {
    const { rows } = await deps.db.pool.query<{ priceId: string; plan: string; tierId: number }>(
      'SELECT "priceId", plan, "tierId" FROM imported_prices WHERE "priceId" = ANY($1::text[])',
      [priceIds],
    );
    for (const { priceId, plan, tierId } of rows) {
      if (isImportedPricePlan(plan)) plans.set(priceId, { plan, tierId });
    }
  }
  for (const priceId of priceIds) {
    const plan = deps.importedPrices?.get(priceId);
    if (plan) plans.set(priceId, plan);
  }
  return plans;
}

/**
 * The subscription's item that makes it a membership, with its billing interval: a Cohort Price's
 * own, or the plan an imported Price was mapped to (and its tier). Null for any other product's
 * subscription.
 */
async function membershipItem(
  deps: SubscriptionReader,
  subscription: Stripe.Subscription,
): Promise<{
  item: Stripe.SubscriptionItem;
  interval: string | null;
  tierId: number | null;
} | null> {
  const items = subscription.items.data;
  const own = items.find((each) => isCohortPrice(each.price, deps.membershipPrice));
  if (own) {
    return {
      item: own,
      interval: own.price.recurring?.interval ?? null,
      tierId: priceTierId(own.price, deps.membershipPrice),
    };
  }
  // Only another product's subscription (or an imported one) costs the extra look-up.
  const imported = await importedPlansOf(
    deps,
    items.map((each) => each.price.id),
  );
  for (const item of items) {
    const mapped = imported.get(item.price.id);
    if (mapped) {
      return { item, interval: INTERVAL_OF_PLAN[mapped.plan], tierId: mapped.tierId };
    }
  }
  return null;
}

/**
 * A subscription to one of Cohort's Prices (monthly or yearly), or to a Price an import mapped to
 * one of its plans; null for any other product's.
 */
export async function readSubscriptionFact(
  deps: SubscriptionReader,
  subscriptionId: string,
): Promise<SubscriptionFact | null> {
  const readAt = new Date();
  const subscription = await retrieveOrNull(deps.stripe, 'read a subscription', (stripe) =>
    stripe.subscriptions.retrieve(subscriptionId),
  );
  if (!subscription) return null;
  const membership = await membershipItem(deps, subscription);
  if (!membership) return null;
  const { item, interval, tierId } = membership;
  const customerId = idOf(subscription.customer);
  if (!customerId) return null;
  return {
    kind: 'subscription',
    subscriptionId: subscription.id,
    userId: asUserId(subscription.metadata?.userId),
    customerId,
    status: subscription.status,
    interval,
    priceId: item.price.id,
    amountCents: item.price.unit_amount,
    createdAt: fromSeconds(subscription.created),
    endedAt: subscription.ended_at ? fromSeconds(subscription.ended_at) : null,
    trialEnd: subscription.trial_end ? fromSeconds(subscription.trial_end) : null,
    offerId: asUserId(subscription.metadata?.offer),
    offerRedemptionId: asUserId(subscription.metadata?.offerRedemption),
    latestInvoiceId: idOf(subscription.latest_invoice),
    tierId,
    readAt,
  };
}

/** A paid invoice of a Cohort subscription, with the period it paid for and its charge's fate. */
export async function readInvoiceFact(
  deps: SubscriptionReader,
  invoiceId: string,
): Promise<InvoiceFact | null> {
  const readAt = new Date();
  const invoice = await retrieveOrNull(deps.stripe, 'read an invoice', (stripe) =>
    stripe.invoices.retrieve(invoiceId, { expand: ['payments'] }),
  );
  if (!invoice?.id || invoice.status !== 'paid') return null;
  const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
  if (!subscriptionId) return null;
  const subscription = await readSubscriptionFact(deps, subscriptionId);
  if (!subscription) return null;
  const lines = recordedLines(invoice.lines.data);
  const last = periodLine(lines);
  if (!last) return null;

  const periodStart = Math.min(...lines.map((line) => line.period.start));
  const periodEnd = Math.max(...lines.map((line) => line.period.end));
  const paid = invoice.payments?.data.find((payment) => payment.status === 'paid');
  const paymentIntentId = idOf(paid?.payment.payment_intent);
  const { charge } = paymentIntentId
    ? await paymentIntentWithCharge(deps, paymentIntentId)
    : { charge: null };
  return {
    kind: 'invoice',
    invoiceId: invoice.id,
    subscription,
    paymentIntentId,
    amountCents: invoice.amount_paid,
    currency: invoice.currency,
    paidAt: fromSeconds(invoice.status_transitions.paid_at ?? invoice.created),
    periodStart: fromSeconds(periodStart),
    periodEnd: fromSeconds(periodEnd),
    // Nothing charged for a period inside the trial: the trial's, not a payment.
    trial:
      invoice.amount_paid === 0 &&
      invoice.total === 0 &&
      subscription.trialEnd !== null &&
      periodEnd <= subscription.trialEnd.getTime() / 1000,
    // The subscription's offer, on the invoices its discount took something off.
    offerId: (invoice.total_discount_amounts ?? []).some((discount) => discount.amount > 0)
      ? subscription.offerId
      : null,
    tierId: await lineTierId(deps, last, subscription),
    outcome: await chargeOutcome(deps, charge),
    readAt,
  };
}

/**
 * The lines of an invoice that say what period it paid for: the new period's, not the credit for
 * unused time on a Price the subscription left (a proration covering the rest of the old period).
 * An invoice of prorations alone (a move to a dearer tier within the period) paid for the time
 * left at the new Price: its charged lines, not its credits.
 */
function recordedLines(lines: readonly Stripe.InvoiceLineItem[]): Stripe.InvoiceLineItem[] {
  const isProration = (line: Stripe.InvoiceLineItem) =>
    line.parent?.subscription_item_details?.proration === true;
  const period = lines.filter((line) => !isProration(line));
  if (period.length > 0) return period;
  const charged = lines.filter((line) => line.amount >= 0);
  return charged.length > 0 ? charged : [...lines];
}

/**
 * Of an invoice's recorded lines, the one that ends last: the new period's, whose Price is the
 * tier of the time paid for. Null for an invoice without lines.
 */
function periodLine(lines: readonly Stripe.InvoiceLineItem[]): Stripe.InvoiceLineItem | null {
  return lines.reduce<Stripe.InvoiceLineItem | null>(
    (a, b) => (a === null || b.period.end > a.period.end ? b : a),
    null,
  );
}

/** The id of the Price an invoice charged the period it records at (null: none to read). */
export function periodPriceId(invoice: Stripe.Invoice): string | null {
  const price = periodLine(recordedLines(invoice.lines.data))?.pricing?.price_details?.price;
  if (!price) return null;
  return typeof price === 'string' ? price : price.id;
}

/**
 * The tier of the Price an invoice's line charges: the subscription's when it is the Price the
 * subscription has now, else read from Stripe (a Price the subscription has left since, a move
 * at the period's end). Null for a Price that is neither Cohort's nor mapped by an import: the
 * subscription's tier then counts, as before tiers.
 */
async function lineTierId(
  deps: SubscriptionReader,
  line: Stripe.InvoiceLineItem,
  subscription: SubscriptionFact,
): Promise<number | null> {
  const charged = line.pricing?.price_details?.price;
  if (!charged) return null;
  const priceId = typeof charged === 'string' ? charged : charged.id;
  if (priceId === subscription.priceId) return subscription.tierId;
  const price =
    typeof charged === 'string'
      ? await retrieveOrNull(deps.stripe, 'read a Price', (stripe) =>
          stripe.prices.retrieve(priceId),
        )
      : charged;
  if (!price) return null;
  const own = priceTierId(price, deps.membershipPrice);
  if (own !== null) return own;
  return (await importedPlansOf(deps, [priceId])).get(priceId)?.tierId ?? null;
}

/**
 * What a charge paid for: the early-access or gift PaymentIntent, or the subscription invoice whose
 * payment it was. Refund and dispute events come through here.
 */
export async function readChargeFacts(
  deps: SubscriptionReader,
  chargeId: string,
): Promise<PaymentFact[]> {
  const charge = await retrieveOrNull(deps.stripe, 'read a charge', (stripe) =>
    stripe.charges.retrieve(chargeId),
  );
  const paymentIntentId = idOf(charge?.payment_intent);
  if (!paymentIntentId) return [];
  const paidOnce = await readPaymentIntentFact(deps, paymentIntentId);
  if (paidOnce) return [paidOnce];
  const payments = await retrieveOrNull(deps.stripe, 'find a charge’s invoice', (stripe) =>
    stripe.invoicePayments.list({
      payment: { type: 'payment_intent', payment_intent: paymentIntentId },
      limit: 1,
    }),
  );
  const invoiceId = idOf(payments?.data[0]?.invoice);
  const invoice = invoiceId ? await readInvoiceFact(deps, invoiceId) : null;
  return invoice ? [invoice] : [];
}

/**
 * A completed Checkout Session for the subscription: the subscription and its first invoice.
 * Empty while it is not paid (asynchronous payment methods pay later). Used by the webhook and
 * the checkout return alike.
 */
export async function readCheckoutFacts(
  deps: SubscriptionReader,
  session: Stripe.Checkout.Session,
): Promise<PaymentFact[]> {
  if (session.mode !== 'subscription' || session.status !== 'complete') return [];
  if (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required') {
    return [];
  }
  const subscriptionId = idOf(session.subscription);
  if (!subscriptionId) return [];
  const invoiceId = idOf(session.invoice);
  const invoice = invoiceId ? await readInvoiceFact(deps, invoiceId) : null;
  if (invoice) return [invoice];
  const subscription = await readSubscriptionFact(deps, subscriptionId);
  return subscription ? [subscription] : [];
}

import type Stripe from 'stripe';
import type { Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import type { PaymentFact } from '../memberships/payment-facts.js';
import { applyPaymentFacts } from '../stripe/apply-payment-facts.js';
import { PaymentsUnavailableError, retrieveOrNull } from '../stripe/call-stripe.js';
import {
  INTERVAL_OF_PLAN,
  IMPORTED_PRICE_PLANS,
  isImportedPricePlan,
  type ImportedPrice,
  type ImportedPricePlan,
  type SubscriptionReader,
} from '../stripe/read-payment-facts.js';
import { defaultTier, type TierRow } from '../memberships/tier-catalog.js';
import { listAll, readSubscriptionWithInvoices } from '../stripe/reconcile.js';
import type { AccountRow } from './member-accounts.js';

// The Stripe side of an import's members (import-members.ts): the `--price` mapping checked and its
// tiers found, what a member's customer pays for read from Stripe (only read: nothing is charged or
// created), and those payments placed on the ledger once the customer is the account's.

const invalidPriceMap = (message: string) => new DomainError(400, 'invalid_price_map', message);

/** What `--price <price id>=[<tier>/]<plan>` maps a Price to: a plan, of a tier (null: the first). */
export interface PriceMapping {
  plan: ImportedPricePlan;
  /** The tier's slug as given; null when the mapping names none. */
  tier: string | null;
}

const TIER_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A mapping's value, `<plan>` or `<tier>/<plan>`, as the command line writes it. */
const mappingText = (mapping: PriceMapping) =>
  mapping.tier === null ? mapping.plan : `${mapping.tier}/${mapping.plan}`;

/**
 * Checks `--price <price id>=[<tier>/]<plan>` before anything is written: each plan one of the
 * site's subscription plans, each tier a slug, each Price one Stripe has in this account, billed
 * at that plan's interval. Answers the mapping; throws a DomainError saying which one is wrong.
 * Reads Stripe, never writes. Whether the tiers are the site's is `priceTiersOf`'s to say.
 */
export async function checkPriceMap(
  deps: { stripe: Stripe | null },
  prices: Record<string, string>,
): Promise<Map<string, PriceMapping>> {
  const mapping = new Map<string, PriceMapping>();
  for (const [priceId, value] of Object.entries(prices)) {
    const slash = value.lastIndexOf('/');
    const tier = slash < 0 ? null : value.slice(0, slash).trim();
    const plan = value.slice(slash + 1).trim();
    if (!isImportedPricePlan(plan)) {
      throw invalidPriceMap(
        `--price ${priceId}=${value}: the plan must be one of ${IMPORTED_PRICE_PLANS.join(', ')}, after the tier's slug if you name one (as in --price ${priceId}=founder/yearly).`,
      );
    }
    if (tier !== null && !TIER_SLUG.test(tier)) {
      throw invalidPriceMap(
        `--price ${priceId}=${value}: "${tier}" is not a tier's slug (lower-case words joined by hyphens, as in --price ${priceId}=founder/${plan}).`,
      );
    }
    if (!/^[\w.-]{1,255}$/.test(priceId)) {
      throw invalidPriceMap(`--price ${priceId}=${value}: that is not a Stripe price id.`);
    }
    mapping.set(priceId, { plan, tier });
  }
  if (mapping.size === 0) return mapping;
  const { stripe } = deps;
  if (!stripe) {
    throw invalidPriceMap(
      '--price maps Stripe prices, but payments are off on this site: set its Stripe keys first (docs/payments.md).',
    );
  }
  for (const [priceId, mapped] of mapping) {
    const { plan } = mapped;
    const price = await retrieveOrNull(stripe, 'read a price', (s) => s.prices.retrieve(priceId));
    if (!price) {
      throw invalidPriceMap(
        `--price ${priceId}=${mappingText(mapped)}: Stripe has no such price in this account.`,
      );
    }
    const interval = price.recurring?.interval;
    if (interval !== INTERVAL_OF_PLAN[plan]) {
      throw invalidPriceMap(
        `--price ${priceId}=${mappingText(mapped)}: that price is ${interval ? `billed every ${interval}` : 'not a subscription'}, and the ${plan} plan is billed every ${INTERVAL_OF_PLAN[plan]}.`,
      );
    }
  }
  return mapping;
}

/**
 * The mapped Prices with the ids of their tiers: the site's tier of each slug, the first tier
 * (defaultTier) for a mapping that names none. A slug in `coming` (a tier the same import makes
 * from its export, not yet made in a dry run) stands for the first tier: its rows are rolled back.
 * Any other slug is a 400 naming the tiers there are.
 */
export function priceTiersOf(
  mapping: ReadonlyMap<string, PriceMapping>,
  tiers: readonly TierRow[],
  coming: readonly string[] = [],
): Map<string, ImportedPrice> {
  const first = defaultTier(tiers);
  const resolved = new Map<string, ImportedPrice>();
  for (const [priceId, mapped] of mapping) {
    const tier =
      mapped.tier === null
        ? first
        : (tiers.find((row) => row.slug === mapped.tier) ??
          (coming.includes(mapped.tier) ? first : null));
    if (!tier) {
      throw invalidPriceMap(
        `--price ${priceId}=${mappingText(mapped)}: there is no "${mapped.tier}" tier here (the tiers are ${tiers.map((row) => row.slug).join(', ')}).`,
      );
    }
    resolved.set(priceId, { plan: mapped.plan, tierId: tier.id });
  }
  return resolved;
}

/** What Stripe says a member's customer pays for, read before the member's transaction. */
export type CustomerPayments =
  | { found: true; facts: PaymentFact[]; unmappedPrices: string[] }
  | { found: false; reason: string };

export async function readCustomerPayments(
  reader: SubscriptionReader,
  customerId: string,
): Promise<CustomerPayments> {
  const customer = await retrieveOrNull(reader.stripe, 'read a customer', (s) =>
    s.customers.retrieve(customerId),
  );
  if (!customer) {
    return {
      found: false,
      reason: `Stripe has no customer ${customerId} in this account: no paid membership`,
    };
  }
  if (customer.deleted) {
    return {
      found: false,
      reason: `Stripe customer ${customerId} was deleted: no paid membership`,
    };
  }
  const subscriptions = await listAll(reader.stripe, 'list subscriptions', (s, startingAfter) =>
    s.subscriptions.list({
      customer: customerId,
      status: 'all',
      limit: 100,
      ...(startingAfter && { starting_after: startingAfter }),
    }),
  );
  const facts: PaymentFact[] = [];
  const unmappedPrices: string[] = [];
  for (const subscription of subscriptions) {
    const read = await readSubscriptionWithInvoices(reader, subscription.id);
    if (read) facts.push(...read);
    else unmappedPrices.push(...subscription.items.data.map((item) => item.price.id));
  }
  return { found: true, facts, unmappedPrices };
}

export function describeStripeFailure(error: unknown): string {
  if (!(error instanceof PaymentsUnavailableError)) throw error;
  const { type, statusCode, message } = error.stripe;
  return `${type}${statusCode ? ` ${statusCode}` : ''}: ${message}`;
}

/**
 * The customer's payments, placed by the webhook's own ledger code once the customer is the
 * account's. A customer already linked to another account here stays that account's. What the
 * ledger noticed (a duplicate subscription it revoked) is reported with the member; a cancellation
 * or refund it queues for Stripe is not run by the import, which only reads Stripe: the running
 * site's retry (plugins/app/payments.ts) runs it, as for any queued action.
 */
export async function writePayments(
  tx: Tx,
  account: AccountRow,
  customerId: string,
  facts: PaymentFact[],
  graceDays: number,
): Promise<{ linked: boolean; notes: string[] }> {
  // Linked here unless it already is (to this account, or another: a payment made here before).
  const linked = await tx.query(
    `INSERT INTO stripe_customers (id, "userId") VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`,
    [customerId, account.id],
  );
  const { rows } = await tx.query<{ userId: string; email: string | null }>(
    `SELECT c."userId", u.email FROM stripe_customers c LEFT JOIN users u ON u.id = c."userId"
     WHERE c.id = $1`,
    [customerId],
  );
  const holder = rows[0];
  if (holder?.userId !== account.id) {
    return {
      linked: false,
      notes: [
        `Stripe customer ${customerId} belongs to another account here (${holder?.email ?? 'an anonymous one'}): its payments stay there`,
      ],
    };
  }
  const change = facts.length > 0 ? await applyPaymentFacts(tx, facts, { graceDays }) : null;
  return { linked: linked.rowCount === 1, notes: change?.notices ?? [] };
}

// What the site sells (docs/decisions/0022-plans.md): one year paid once (`early-access`, the
// Payment Element on /early-access), and a subscription paid monthly or yearly (Stripe Checkout).
// Owners turn each on or off and price it in the desk.

export const PLAN_IDS = ['early-access', 'monthly', 'yearly'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
export const SUBSCRIPTION_PLAN_IDS = ['monthly', 'yearly'] as const;
export type SubscriptionPlanId = (typeof SUBSCRIPTION_PLAN_IDS)[number];

/** Each plan's kind and billing interval: fixed by its id. */
export const PLAN_SHAPES = {
  'early-access': { kind: 'one-time', interval: null },
  monthly: { kind: 'subscription', interval: 'month' },
  yearly: { kind: 'subscription', interval: 'year' },
} as const satisfies Record<PlanId, { kind: string; interval: string | null }>;

/** Stripe's smallest charge in most currencies is 50 cents; a plan costs at most $10,000. */
export const MIN_PLAN_CENTS = 50;
export const MAX_PLAN_CENTS = 1_000_000;
/** The longest free trial a plan may give. */
export const MAX_TRIAL_DAYS = 90;

/**
 * What a price label reads of a plan (a `Plan` of plans-api.ts has it): plans-api.ts builds its
 * schemas from the limits above, so the rules import nothing of it.
 */
export interface PlanPrice {
  amountCents: number;
  currency: string;
  interval: 'month' | 'year' | null;
}

/** "$1 a month", "$12 a year", "$12 once". */
export function planPriceLabel(plan: PlanPrice) {
  const price = formatMoney(plan.amountCents, plan.currency);
  return plan.interval ? `${price} a ${plan.interval}` : `${price} for a year`;
}

/** A monthly price as a year of it: "$12 a year". */
export const perYearLabel = (plan: Pick<PlanPrice, 'amountCents' | 'currency'>) =>
  `${formatMoney(plan.amountCents * 12, plan.currency)} a year`;

export function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: cents % 100 === 0 ? 0 : 2,
  }).format(cents / 100);
}

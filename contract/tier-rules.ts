import type { PlanId } from './plan-rules.js';

// Tiers (docs/decisions/0030-tiers-and-readers.md): what the site sells. Each has a name, a
// description, a list of benefits and its own prices, one for each plan (plan-rules.ts): monthly
// and yearly subscriptions, and a year paid once. The membership sold before tiers is the first,
// `supporter`; members, gifts, seats, offers and comps name a tier (the first when they do not say).
// The rules here are what the browser needs without the schemas (tiers.ts, which builds on them):
// the home page's script carries no schema library.

/** The first tier's slug on a new site and on a site from before tiers. */
export const FIRST_TIER_SLUG = 'supporter';
export const MAX_TIERS = 12;
export const MAX_TIER_NAME = 60;
export const MAX_TIER_DESCRIPTION = 500;
export const MAX_TIER_BENEFITS = 12;
export const MAX_TIER_BENEFIT = 140;

/** A tier's prices, by name (tiers.ts TierPrices). */
export type TierPriceName = 'monthly' | 'yearly' | 'once';

/** The plan each of a tier's prices is (plan-rules.ts). */
export const TIER_PRICE_PLANS = {
  monthly: 'monthly',
  yearly: 'yearly',
  once: 'early-access',
} as const satisfies Record<TierPriceName, PlanId>;

export const MAX_TIER_SLUG = 60;

/**
 * The slug a new tier is given from its name when the owner gives none: "Founder's Circle" →
 * `founder-s-circle` (`tier` for a name without a letter or digit).
 */
export function tierSlugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_TIER_SLUG)
    .replace(/^-+|-+$/g, '');
  return slug || 'tier';
}

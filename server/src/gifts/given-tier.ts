import { DomainError } from '../domain-error.js';
import { FIRST_TIER_ID } from '../memberships/derive-membership.js';
import {
  defaultTier,
  tierBySlug,
  type TierCatalog,
  type TierRow,
} from '../memberships/tier-catalog.js';

/**
 * The tier a gift or a seat is a year of (docs/decisions/0024-gifts-and-solidarity-seats.md), and
 * what that year costs: the tier's year paid once (its `early-access` plan). A reader names a
 * visible tier, or none for the default one. The first tier's year is given at its price whether
 * or not it is on sale itself, as before tiers; another tier's only while it sells that year.
 */
export interface GivenTier {
  tier: TierRow;
  /** One year's price, in the site's currency's cents. */
  yearCents: number;
  currency: string;
}

/**
 * The tier `slug` names (a visible one; the default tier when undefined) with its year's price,
 * or a 400: `unknown_tier` for a tier there is not (or a hidden one), `tier_not_given` for a tier
 * that does not sell a year paid once. `what` is how the refusal names the purchase ("given",
 * "funded as seats").
 */
export function givenTier(catalog: TierCatalog, slug: string | undefined, what: string): GivenTier {
  const tier =
    slug === undefined
      ? defaultTier(catalog.tiers)
      : tierBySlug(
          catalog.tiers.filter((each) => each.visible),
          slug,
        );
  const year = catalog.plans.get(tier.id)?.find((plan) => plan.id === 'early-access');
  if (!year || (!year.enabled && tier.id !== FIRST_TIER_ID)) {
    throw new DomainError(
      400,
      'tier_not_given',
      `${tier.name} is not sold as a year paid once, so it cannot be ${what}: choose another tier.`,
    );
  }
  return { tier, yearCents: year.amountCents, currency: year.currency };
}

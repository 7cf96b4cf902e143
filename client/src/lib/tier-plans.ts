import type { SiteConfig } from '../../../contract/api';
import { PLAN_SHAPES } from '../../../contract/plan-rules';
import type { Plan } from '../../../contract/plans-api';
import { TIER_PRICE_PLANS } from '../../../contract/tier-rules';
import type { PublicTier, TierPrices } from '../../../contract/tiers';
import type { SubscriptionPlanId } from '../../../contract/plan-rules';
import { paths } from '../config/paths';

/**
 * The tiers a Join offers (contract/tiers.ts): the visible ones that sell something, in their
 * order, or of those only the ones `slugs` names (a post's page offers the tiers that unlock it).
 */
export function offeredTiers(
  config: Pick<SiteConfig, 'tiers'>,
  slugs?: readonly string[],
): PublicTier[] {
  return config.tiers.filter(
    (tier) =>
      (slugs === undefined || slugs.includes(tier.slug)) &&
      Object.values(tier.prices).some((price) => price !== null),
  );
}

/**
 * A tier's plans on sale, as the Join dialog shows them. The first tier's plans are `/api/config`'s
 * own `plans` (each with its own trial): a tier with exactly their prices is read from them.
 */
export function plansOfTier(tier: PublicTier, config: Pick<SiteConfig, 'plans'>): Plan[] {
  const plans = (Object.keys(TIER_PRICE_PLANS) as (keyof TierPrices)[]).flatMap((key): Plan[] => {
    const amountCents = tier.prices[key];
    if (amountCents === null) return [];
    const id = TIER_PRICE_PLANS[key];
    return [
      {
        id,
        ...PLAN_SHAPES[id],
        amountCents,
        currency: tier.currency,
        trialDays: id === 'early-access' ? 0 : tier.trialDays,
      },
    ];
  });
  const first = config.plans;
  const same =
    first.length === plans.length &&
    plans.every((plan) =>
      first.some(
        (each) =>
          each.id === plan.id &&
          each.amountCents === plan.amountCents &&
          each.currency === plan.currency,
      ),
    );
  return same ? [...first] : plans;
}

/** "$3 a month · $36 a year, or $36 once": what a tier costs, plan by plan. */
export function tierPriceLine(
  tier: PublicTier,
  format: (cents: number, currency: string) => string,
): string {
  const { monthly, yearly, once } = tier.prices;
  const subscriptions = [
    monthly !== null && `${format(monthly, tier.currency)} a month`,
    yearly !== null && `${format(yearly, tier.currency)} a year`,
  ].filter((part): part is string => typeof part === 'string');
  const paidOnce = once === null ? null : `${format(once, tier.currency)} once`;
  if (!paidOnce) return subscriptions.join(' · ');
  return subscriptions.length > 0 ? `${subscriptions.join(' · ')}, or ${paidOnce}` : paidOnce;
}

/** The year paid once's form, for a tier (none: the default tier, as before tiers), with a code. */
export function earlyAccessPath(tier: string | undefined, offer?: string): string {
  const query = new URLSearchParams({
    ...(tier && { tier }),
    ...(offer && { offer }),
  }).toString();
  return `${paths.earlyAccess}${query ? `?${query}` : ''}#payment`;
}

/** What a Join without a plan named does next (join-button.tsx). */
export type JoinStep =
  | {
      kind: 'choose';
      choices: { tiers: PublicTier[]; plansOf: (tier: PublicTier | null) => Plan[] };
    }
  | { kind: 'early-access'; path: string }
  | { kind: 'checkout'; plan: SubscriptionPlanId; tier: string | undefined };

/**
 * A Join's next step, from the tiers offered (`slugs`: those a post's page names): with several,
 * choose a tier; with one, its only subscription straight to Checkout, its only year paid once to
 * the early-access form, else choose among its plans (the site's own plans, as before tiers,
 * unless `slugs` names the tier).
 */
export function joinStep(
  config: Pick<SiteConfig, 'tiers' | 'plans'>,
  slugs: readonly string[] | undefined,
): JoinStep {
  const offered = offeredTiers(config, slugs);
  const plansOf = (each: PublicTier | null) =>
    each ? plansOfTier(each, config) : [...config.plans];
  if (offered.length > 1) return { kind: 'choose', choices: { tiers: offered, plansOf } };
  const [only] = offered;
  const named = slugs !== undefined && only !== undefined ? only : null;
  const plans = plansOf(named);
  const subscriptions = plans.flatMap((each) =>
    each.id === 'monthly' || each.id === 'yearly' ? [each.id] : [],
  );
  const once = plans.some((each) => each.kind === 'one-time');
  const [subscription] = subscriptions;
  if (subscriptions.length === 1 && subscription && !once) {
    return { kind: 'checkout', plan: subscription, tier: named?.slug };
  }
  if (subscriptions.length === 0 && once) {
    return { kind: 'early-access', path: named ? earlyAccessPath(named.slug) : paths.earlyAccess };
  }
  return { kind: 'choose', choices: { tiers: named ? [named] : [], plansOf } };
}

import { createHash } from 'node:crypto';
import type { ReadingRule } from '../../../contract/reading.js';
import { publicTier, type TierCatalog } from '../memberships/tier-catalog.js';
import { ghostTierId } from '../imports/ghost-ids.js';
import { parseFilter } from './filter.js';
import { listOf, paginate, pick, type GhostQuery } from './ghost-query.js';

/**
 * The site's tiers (memberships/tier-catalog.ts) in the shape of Ghost's `tiers/`
 * (docs/ghost-api.md): Ghost's free tier first (the site's registered readers), then each tier of
 * the site as a paid one, with its description, benefits, monthly and yearly prices and trial.
 * The year paid once has no Ghost counterpart and is left out. A tier the site does not offer
 * readers is Ghost's `visibility: 'none'`: listed to the Admin API and in a post's tiers, never by
 * the Content API's `tiers/`.
 */

export interface GhostTier {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  active: true;
  type: 'free' | 'paid';
  welcome_page_url: null;
  created_at: string;
  updated_at: string;
  visibility: 'public' | 'none';
  benefits: string[];
  trial_days: number;
  /** Paid tiers only, as Ghost's: the upper-case ISO code and prices in its cents. */
  currency?: string;
  monthly_price?: number | null;
  yearly_price?: number | null;
}

/** What Ghost's tiers are made with. */
export interface GhostTierSite {
  siteUrl: string;
  /** Whether anything is sold (Stripe's keys set): without, a tier's prices are null. */
  selling: boolean;
  /** The site's currency, for a tier without plans. */
  currency: string;
}

/** Every tier, Ghost's free one first, then the site's in their order. */
export function ghostTiers(catalog: TierCatalog, site: GhostTierSite): GhostTier[] {
  const first = catalog.tiers.reduce<Date | null>(
    (earliest, tier) => (!earliest || tier.updatedAt < earliest ? tier.updatedAt : earliest),
    null,
  );
  const at = (first ?? new Date(0)).toISOString();
  const free: GhostTier = {
    id: ghostTierId(site.siteUrl, 'free'),
    name: 'Free',
    slug: 'free',
    description: null,
    active: true,
    type: 'free',
    welcome_page_url: null,
    created_at: at,
    updated_at: at,
    visibility: 'public',
    benefits: [],
    trial_days: 0,
  };
  const paid = catalog.tiers.map((tier): GhostTier => {
    const shown = publicTier(tier, catalog.plans.get(tier.id) ?? [], site);
    const updated = tier.updatedAt.toISOString();
    return {
      id: ghostTierId(site.siteUrl, tier.id),
      name: shown.name,
      slug: shown.slug,
      description: shown.description === '' ? null : shown.description,
      active: true,
      type: 'paid',
      welcome_page_url: null,
      created_at: updated,
      updated_at: updated,
      visibility: tier.visible ? 'public' : 'none',
      benefits: shown.benefits,
      trial_days: shown.trialDays,
      currency: shown.currency.toUpperCase(),
      monthly_price: shown.prices.monthly,
      yearly_price: shown.prices.yearly,
    };
  });
  return [free, ...paid];
}

/**
 * The tiers a post's readers come from, as Ghost lists them with the post (`include=tiers`): every
 * tier for a public post or one for anyone signed up, the paid ones for paying members, the ones
 * it names for a tier's members.
 */
export function ghostPostTiers(rule: ReadingRule, tiers: readonly GhostTier[]): GhostTier[] {
  switch (rule.visibility) {
    case 'public':
    case 'registered':
      return [...tiers];
    case 'members':
      return tiers.filter((tier) => tier.type === 'paid');
    case 'tiers':
      return tiers.filter((tier) => tier.type === 'paid' && rule.tiers.includes(tier.slug));
  }
}

const TIER_FILTER_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'slug',
  'name',
  'type',
  'visibility',
  'active',
]);

/**
 * A browse of tiers as Ghost answers it: those the filter keeps (`type:paid`), a page of them,
 * only the fields asked for. `include` (`monthly_price,yearly_price,benefits`, which Ghost 4's
 * clients send) is taken: every tier carries them.
 */
export function browseGhostTiers(tiers: readonly GhostTier[], query: GhostQuery) {
  const filter =
    query.filter === undefined || query.filter === ''
      ? null
      : parseFilter(query.filter, TIER_FILTER_FIELDS);
  const chosen = filter
    ? tiers.filter((tier) =>
        filter((field) => [(tier as unknown as Record<string, string | boolean>)[field] ?? null]),
      )
    : tiers;
  const { items, pagination } = paginate(chosen, { ...query, limit: query.limit ?? 'all' });
  const fields = listOf(query.fields);
  return {
    tiers: items.map((tier) => pick({ ...tier }, fields)),
    meta: { pagination },
  };
}

/**
 * The tiers the Content API lists: Ghost's free one and those the site offers readers, by
 * increasing monthly price as Ghost's are (a tier without one last), else in the site's order.
 */
export function visibleGhostTiers(tiers: readonly GhostTier[]): GhostTier[] {
  const price = (tier: GhostTier) =>
    tier.type === 'free' ? -1 : (tier.monthly_price ?? Number.POSITIVE_INFINITY);
  return tiers
    .filter((tier) => tier.visibility === 'public')
    .sort((a, b) => (price(a) === price(b) ? 0 : price(a) < price(b) ? -1 : 1));
}

const stamps = new WeakMap<readonly GhostTier[], string>();

/** A short fingerprint of the tiers: answers that carry them are kept under it. */
export function tiersStamp(tiers: readonly GhostTier[]): string {
  let stamp = stamps.get(tiers);
  if (stamp === undefined) {
    stamp = createHash('sha1').update(JSON.stringify(tiers)).digest('hex').slice(0, 16);
    stamps.set(tiers, stamp);
  }
  return stamp;
}

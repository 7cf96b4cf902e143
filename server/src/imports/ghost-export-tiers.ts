import type pg from 'pg';
import { topicSlug } from '../../../contract/topics.js';
import {
  readTierCatalog,
  tierPrices,
  tierTrialDays,
  type TierRow,
} from '../memberships/tier-catalog.js';
import { ghostId, ghostTierId } from './ghost-ids.js';

/**
 * The site's tiers in a Ghost export (Ghost's `products`, the table its tiers are kept in): Ghost's
 * free tier, then each tier of the site as a paid one with its description, monthly and yearly
 * prices, trial and whether readers are offered it (`visibility` `public`, else `none`); its
 * benefits as Ghost's `benefits` and `products_benefits`. The year paid once has no Ghost
 * counterpart and is left out. Ids are the Content and Admin APIs' (ghost-ids.ts).
 */

/** A tier as the export writes it. */
export interface ExportedTier extends TierRow {
  createdAt: Date;
  monthly: number | null;
  yearly: number | null;
  /** Upper-case ISO code, as Ghost keeps it. */
  currency: string;
  trialDays: number;
}

/**
 * Every tier, in the site's order, with its prices (whether or not anything is sold);
 * `siteCurrency` for a tier without plans (else the first tier's).
 */
export async function readExportedTiers(
  pool: Pick<pg.Pool, 'query'>,
  siteCurrency?: string,
): Promise<ExportedTier[]> {
  const [catalog, { rows: made }] = await Promise.all([
    readTierCatalog(pool),
    pool.query<{ id: number; createdAt: Date }>(`SELECT "id", "createdAt" FROM "tiers"`),
  ]);
  const createdAt = new Map(made.map((row) => [row.id, row.createdAt]));
  const fallback = siteCurrency ?? [...catalog.plans.values()].flat()[0]?.currency ?? 'usd';
  return catalog.tiers.map((tier) => {
    const plans = catalog.plans.get(tier.id) ?? [];
    const prices = tierPrices(plans);
    return {
      ...tier,
      createdAt: createdAt.get(tier.id) ?? tier.updatedAt,
      monthly: prices.monthly,
      yearly: prices.yearly,
      currency: (plans[0]?.currency ?? fallback).toUpperCase(),
      trialDays: tierTrialDays(plans),
    };
  });
}

/** The tables of the tiers: `products`, `benefits`, `products_benefits` (each `,"name":[…]`). */
export function tiersTables(siteUrl: string, tiers: readonly ExportedTier[], now: Date) {
  const id = (kind: string, key: string | number) => ghostId(siteUrl, kind, key);
  const stamp = now.toISOString();
  const first = tiers.reduce<Date>((at, tier) => (tier.createdAt < at ? tier.createdAt : at), now);
  const products = [
    {
      id: ghostTierId(siteUrl, 'free'),
      name: 'Free',
      slug: 'free',
      active: true,
      welcome_page_url: null,
      visibility: 'public',
      trial_days: 0,
      description: null,
      type: 'free',
      currency: null,
      monthly_price: null,
      yearly_price: null,
      created_at: first.toISOString(),
      updated_at: first.toISOString(),
      monthly_price_id: null,
      yearly_price_id: null,
    },
    ...tiers.map((tier) => ({
      id: ghostTierId(siteUrl, tier.id),
      name: tier.name,
      slug: tier.slug,
      active: true,
      welcome_page_url: null,
      visibility: tier.visible ? 'public' : 'none',
      trial_days: tier.trialDays,
      description: tier.description === '' ? null : tier.description,
      type: 'paid',
      currency: tier.currency,
      monthly_price: tier.monthly,
      yearly_price: tier.yearly,
      created_at: tier.createdAt.toISOString(),
      updated_at: tier.updatedAt.toISOString(),
      monthly_price_id: null,
      yearly_price_id: null,
    })),
  ];
  // One benefit per name (Ghost's are unique by slug), shared by the tiers that list it.
  const benefits = new Map<string, { id: string; name: string; slug: string }>();
  const productsBenefits: {
    id: string;
    product_id: string;
    benefit_id: string;
    sort_order: number;
  }[] = [];
  for (const tier of tiers) {
    tier.benefits.forEach((name, order) => {
      const slug = topicSlug(name) || id('benefit', name);
      let benefit = benefits.get(slug);
      if (!benefit) {
        benefit = { id: id('benefit', slug), name, slug };
        benefits.set(slug, benefit);
      }
      productsBenefits.push({
        id: id('product-benefit', `${tier.id}:${slug}`),
        product_id: ghostTierId(siteUrl, tier.id),
        benefit_id: benefit.id,
        sort_order: order,
      });
    });
  }
  return {
    products,
    benefits: [...benefits.values()].map((benefit) => ({
      ...benefit,
      created_at: stamp,
      updated_at: stamp,
    })),
    products_benefits: productsBenefits,
  };
}

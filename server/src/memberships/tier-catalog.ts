import type pg from 'pg';
import type { TierName } from '../../../contract/reading.js';
import { DomainError } from '../domain-error.js';

/**
 * The tiers (contract/tiers.ts, docs/decisions/0030-tiers-and-readers.md): rows of `tiers`, each
 * with its three plans (plan-catalog.ts, by `tierId`). Rows elsewhere name a tier by id, so an
 * owner may change a tier's slug and name; readers, the APIs and the desk know it by slug.
 */
export interface TierRow {
  id: number;
  slug: string;
  name: string;
  description: string;
  benefits: string[];
  visible: boolean;
  /** Its place among the tiers (the API's `order`), from 0. */
  position: number;
  updatedAt: Date;
}

const TIER_COLUMNS = `"id", "slug", "name", "description", "benefits", "visible", "position",
  "updatedAt"`;

/** Every tier, in the order readers see them (the first is what a join without one buys). */
export async function readTiers(pool: Pick<pg.Pool, 'query'>): Promise<TierRow[]> {
  const { rows } = await pool.query<TierRow>(
    `SELECT ${TIER_COLUMNS} FROM "tiers" ORDER BY "position", "id"`,
  );
  return rows;
}

/**
 * The tier a join, a gift, a seat, an offer or a comp is for when it names none: the first in
 * the tiers' order that is visible, else the first.
 */
export function defaultTier(tiers: readonly TierRow[]): TierRow {
  const first = tiers.find((tier) => tier.visible) ?? tiers[0];
  if (!first) throw new Error('The site has no tier: the tiers migration makes the first.');
  return first;
}

/** The tier of this slug, or a 400 naming the tiers there are. */
export function tierBySlug(tiers: readonly TierRow[], slug: string): TierRow {
  const tier = tiers.find((row) => row.slug === slug);
  if (tier) return tier;
  throw new DomainError(
    400,
    'unknown_tier',
    `There is no "${slug}" tier; the tiers are ${tiers.map((row) => `"${row.slug}"`).join(', ')}.`,
  );
}

/** The tiers' slugs and names, for what a reader is told unlocks a post (contract/reading.ts). */
export const tierNames = (tiers: readonly TierRow[]): TierName[] =>
  tiers.filter((tier) => tier.visible).map(({ slug, name }) => ({ slug, name }));

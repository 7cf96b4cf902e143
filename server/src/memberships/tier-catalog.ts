import type pg from 'pg';
import type { TierName } from '../../../contract/reading.js';
import {
  TIER_PRICE_PLANS,
  type DeskTier,
  type PublicTier,
  type TierPrices,
} from '../../../contract/tiers.js';
import { DomainError } from '../domain-error.js';
import { ACCESS_STATUSES } from './derive-membership.js';
import { readPlansByTier, type PlanRow } from './plan-catalog.js';

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

/**
 * The tier a reader's request names (`TierChoiceSchema`): a visible one by its slug, or the
 * default tier when it names none; a 400 `unknown_tier` for a tier there is not, or a hidden one.
 */
export const chosenTier = (tiers: readonly TierRow[], slug: string | undefined): TierRow =>
  slug === undefined
    ? defaultTier(tiers)
    : tierBySlug(
        tiers.filter((tier) => tier.visible),
        slug,
      );

/** The tiers' slugs and names, for what a reader is told unlocks a post (contract/reading.ts). */
export const tierNames = (tiers: readonly TierRow[]): TierName[] =>
  tiers.filter((tier) => tier.visible).map(({ slug, name }) => ({ slug, name }));

/** The tiers with each one's plans, read together: what the site sells. */
export interface TierCatalog {
  /** In the order readers see them. */
  tiers: TierRow[];
  /** Each tier's plans, by tier id, in the order they are shown. */
  plans: ReadonlyMap<number, PlanRow[]>;
}

export async function readTierCatalog(pool: Pick<pg.Pool, 'query'>): Promise<TierCatalog> {
  const [tiers, plans] = await Promise.all([readTiers(pool), readPlansByTier(pool)]);
  return { tiers, plans };
}

/** A tier's price for each plan, from its plans: null for a plan not on sale. */
export function tierPrices(plans: readonly PlanRow[]): TierPrices {
  const price = (id: PlanRow['id']) => {
    const row = plans.find((plan) => plan.id === id);
    return row?.enabled ? row.amountCents : null;
  };
  return {
    monthly: price(TIER_PRICE_PLANS.monthly),
    yearly: price(TIER_PRICE_PLANS.yearly),
    once: price(TIER_PRICE_PLANS.once),
  };
}

/**
 * The days of free trial a tier's subscriptions start with: the longest of its subscription
 * plans' (the tier's API sets both alike; the first tier's plans may each have their own).
 */
export const tierTrialDays = (plans: readonly PlanRow[]) =>
  Math.max(0, ...plans.filter((plan) => plan.id !== 'early-access').map((plan) => plan.trialDays));

/**
 * A tier as readers are told of it. `selling`: whether anything is sold (Stripe's keys set);
 * without, every price is null. `currency`: the site's, for a tier without plans.
 */
export function publicTier(
  tier: TierRow,
  plans: readonly PlanRow[],
  options: { selling: boolean; currency: string },
): PublicTier {
  const prices = tierPrices(plans);
  return {
    slug: tier.slug,
    name: tier.name,
    description: tier.description,
    benefits: tier.benefits,
    prices: options.selling ? prices : { monthly: null, yearly: null, once: null },
    currency: plans[0]?.currency ?? options.currency,
    trialDays: tierTrialDays(plans),
    order: tier.position,
  };
}

/** The visible tiers, in their order, as `/api/config` lists them. */
export const publicTiers = (
  catalog: TierCatalog,
  options: { selling: boolean; currency: string },
): PublicTier[] =>
  catalog.tiers
    .filter((tier) => tier.visible)
    .map((tier) => publicTier(tier, catalog.plans.get(tier.id) ?? [], options));

/**
 * The desk's tiers: every one, in order, with its prices whether or not Stripe's keys are set,
 * how many members hold it now and how many posts (drafts and the Trash included) name it.
 */
export async function readDeskTiers(
  pool: Pick<pg.Pool, 'query'>,
  currency: string,
): Promise<DeskTier[]> {
  const [catalog, counts] = await Promise.all([
    readTierCatalog(pool),
    pool.query<{ id: number; members: number; posts: number }>(
      `SELECT t."id",
              (SELECT count(*) FROM "memberships" m
                WHERE m."tierId" = t."id" AND m."status" = ANY($1) AND m."expiresAt" > now())::int
                AS members,
              (SELECT count(*) FROM "posts" p WHERE t."id" = ANY(p."tierIds"))::int AS posts
         FROM "tiers" t`,
      [[...ACCESS_STATUSES]],
    ),
  ]);
  const held = new Map(counts.rows.map((row) => [row.id, row]));
  return catalog.tiers.map((tier) => ({
    ...publicTier(tier, catalog.plans.get(tier.id) ?? [], { selling: true, currency }),
    visible: tier.visible,
    members: held.get(tier.id)?.members ?? 0,
    posts: held.get(tier.id)?.posts ?? 0,
    updatedAt: tier.updatedAt.toISOString(),
  }));
}

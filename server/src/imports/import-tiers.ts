import type pg from 'pg';
import {
  MAX_PLAN_CENTS,
  MIN_PLAN_CENTS,
  PLAN_IDS,
  formatMoney,
} from '../../../contract/plan-rules.js';
import { cleanLine } from '../../../contract/text-hygiene.js';
import {
  MAX_TIER_BENEFIT,
  MAX_TIER_BENEFITS,
  MAX_TIER_DESCRIPTION,
  MAX_TIER_NAME,
  MAX_TIERS,
  tierSlugOf,
} from '../../../contract/tiers.js';
import { contentChanged } from '../content/content-changes.js';
import { cutAtWord } from '../content/post-summary.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { FIRST_TIER_ID } from '../memberships/derive-membership.js';
import { readPlans } from '../memberships/plan-catalog.js';
import { readTiers, type TierRow } from '../memberships/tier-catalog.js';
import type { SourceTier } from './source.js';

/**
 * The tiers an export sells, made here before its posts (which name them) when the site has no
 * tier of that slug: each with its name, description and benefits cut to the site's limits, and
 * its three plans (memberships/plan-catalog.ts), the monthly and yearly ones priced as the export
 * priced them and on sale, else not sold (and the tier hidden until an owner prices it in the
 * desk). A tier the site has already is the one its posts are for, left as it is. All in one
 * transaction, every tier's row locked first as the desk does; a dry run rolls it back.
 */

export interface ImportedTiers {
  /** The site's tier id for each of the export's tier slugs (none for a tier not made). */
  ids: Map<string, number>;
  notes: string[];
}

class DryRunDone extends Error {
  constructor(readonly outcome: ImportedTiers) {
    super('dry run: rolled back');
  }
}

export async function ensureTiers(
  pool: pg.Pool,
  tiers: readonly SourceTier[],
  options: { dryRun: boolean; currency: string },
): Promise<ImportedTiers> {
  if (tiers.length === 0) return { ids: new Map(), notes: [] };
  try {
    return await withTransaction(pool, async (tx) => {
      const outcome = await makeTiers(tx, tiers, options.currency);
      if (options.dryRun) throw new DryRunDone(outcome);
      return outcome;
    });
  } catch (error) {
    if (error instanceof DryRunDone) return error.outcome;
    throw error;
  }
}

async function makeTiers(
  tx: Tx,
  tiers: readonly SourceTier[],
  defaultCurrency: string,
): Promise<ImportedTiers> {
  await tx.query(`SELECT "id" FROM "tiers" ORDER BY "id" FOR UPDATE`);
  const site: TierRow[] = await readTiers(tx);
  // A new tier's plans are in the site's currency, and a plan not sold keeps the first tier's
  // price of its kind (as the desk's new tiers do), to be put on sale later.
  const firstPlans = await readPlans(tx, FIRST_TIER_ID);
  const currency = firstPlans[0]?.currency ?? defaultCurrency.toLowerCase();
  const outcome: ImportedTiers = { ids: new Map(), notes: [] };
  let made = 0;
  for (const tier of tiers) {
    const slug = tierSlugOf(tier.slug || tier.name);
    const held = site.find((row) => row.slug === slug);
    if (held) {
      outcome.ids.set(tier.slug, held.id);
      continue;
    }
    const name = cutAtWord(cleanLine(tier.name), MAX_TIER_NAME) || slug;
    if (site.length >= MAX_TIERS) {
      outcome.notes.push(
        `tier "${name}" not made: a site has at most ${MAX_TIERS} tiers, so its posts are for every paying member`,
      );
      continue;
    }
    const { prices, notes } = pricesOf(tier, name, currency);
    outcome.notes.push(...notes);
    const sold = prices.monthly !== null || prices.yearly !== null;
    const { rows } = await tx.query<TierRow>(
      `INSERT INTO "tiers" ("slug", "name", "description", "benefits", "visible", "position",
                            "updatedAt")
       VALUES ($1, $2, $3, $4, $5, $6, now())
       RETURNING "id", "slug", "name", "description", "benefits", "visible", "position",
                 "updatedAt"`,
      [
        slug,
        name,
        cutAtWord(tier.description.trim(), MAX_TIER_DESCRIPTION),
        tier.benefits
          .map((benefit) => cutAtWord(cleanLine(benefit), MAX_TIER_BENEFIT))
          .filter((benefit) => benefit !== '')
          .slice(0, MAX_TIER_BENEFITS),
        tier.visible && sold,
        Math.max(-1, ...site.map((row) => row.position)) + 1,
      ],
    );
    const row = rows[0] as TierRow;
    site.push(row);
    made += 1;
    for (const plan of PLAN_IDS) {
      const price = plan === 'early-access' ? null : prices[plan];
      const kept = firstPlans.find((row) => row.id === plan)?.amountCents ?? MIN_PLAN_CENTS;
      await tx.query(
        `INSERT INTO "plans" ("tierId", "id", "enabled", "amountCents", "currency", "updatedAt")
         VALUES ($1, $2, $3, $4, $5, now())`,
        [row.id, plan, price !== null, price ?? kept, currency],
      );
    }
    outcome.ids.set(tier.slug, row.id);
    outcome.notes.push(
      `tier "${name}" (${slug}) made from the export: ${saleOf(prices, currency)}`,
    );
  }
  // The tiers are on the site's pages (what unlocks a post, the join page).
  if (made > 0) await contentChanged(tx);
  return outcome;
}

/** A tier's monthly and yearly prices as the site sells them: null for one it cannot take. */
function pricesOf(tier: SourceTier, name: string, currency: string) {
  const notes: string[] = [];
  const prices = { ...tier.prices };
  if (tier.currency && tier.currency !== currency && (prices.monthly ?? prices.yearly) !== null) {
    notes.push(
      `tier "${name}": its prices are in ${tier.currency.toUpperCase()} and the site sells in ${currency.toUpperCase()}, so it is not sold until priced in the desk`,
    );
    return { prices: { monthly: null, yearly: null }, notes };
  }
  for (const plan of ['monthly', 'yearly'] as const) {
    const cents = prices[plan];
    if (cents !== null && (cents < MIN_PLAN_CENTS || cents > MAX_PLAN_CENTS)) {
      notes.push(
        `tier "${name}": its ${plan} price ${formatMoney(cents, currency)} is not one the site takes (${formatMoney(MIN_PLAN_CENTS, currency)} to ${formatMoney(MAX_PLAN_CENTS, currency)}), so that plan is not sold`,
      );
      prices[plan] = null;
    }
  }
  return { prices, notes };
}

function saleOf(prices: SourceTier['prices'], currency: string): string {
  const sold = [
    prices.monthly !== null && `${formatMoney(prices.monthly, currency)} a month`,
    prices.yearly !== null && `${formatMoney(prices.yearly, currency)} a year`,
  ].filter((part): part is string => typeof part === 'string');
  return sold.length > 0 ? sold.join(', ') : 'not sold, and hidden, until you price it in the desk';
}

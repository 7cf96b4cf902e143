// Who may read each post of a Ghost export (contract/reading.ts), and the tiers it sells. Ghost's
// words are read by ghost-visibility.ts (`members` is `registered` here, `paid` is `members`);
// `tiers` is the members of the tiers `posts_products` names (Ghost's tiers are the rows of
// `products`, with `benefits` through `products_benefits` and, before Ghost 5, their prices in
// `stripe_prices`). Any other word is `members`, failing closed, with a note.
import { tierSlugOf } from '../../../contract/tiers.js';
import { byId, groupBy, id, isRow, text, truthy, type Row, type Tables } from './ghost-tables.js';
import { visibilityOfGhost } from './ghost-visibility.js';
import type { SourcePost, SourceTier } from './source.js';

type Access = Pick<SourcePost, 'visibility' | 'tiers' | 'accessNote'>;

/** A price in cents, or null for none (Ghost keeps 0 or nothing for a price it does not sell). */
function cents(value: unknown): number | null {
  const amount = typeof value === 'string' ? Number(value) : value;
  return typeof amount === 'number' && Number.isInteger(amount) && amount > 0 ? amount : null;
}

/** Ghost's free tier: what every free member has, which is not a tier here (`registered` is). */
const isFree = (tier: Row) => tier.type === 'free';

/** A tier's slug as posts name it: Ghost's own, else one made from its name. */
const slugOfTier = (tier: Row) => text(tier.slug) ?? tierSlugOf(text(tier.name) ?? id(tier.id));

function benefitNames(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .map((benefit: unknown) =>
      typeof benefit === 'string' ? benefit : isRow(benefit) ? text(benefit.name) : undefined,
    )
    .filter((name): name is string => name !== undefined && name.trim() !== '');
}

/**
 * Reads the export's tiers (`products`, or a `tiers` table of the same rows, or the tiers its
 * posts carry, as Ghost's Admin API gives them) and answers them with what each post's
 * visibility means here.
 */
export function readGhostAccess(tables: Tables): {
  tiers: SourceTier[];
  accessOf: (post: Row) => Access;
} {
  const rows = [...(tables.products ?? []), ...(tables.tiers ?? [])];
  // Tiers only a post names (an export of posts with their tiers, and no products table).
  for (const post of tables.posts ?? []) {
    if (!Array.isArray(post.tiers)) continue;
    for (const row of (post.tiers as unknown[]).filter(isRow)) {
      const known = rows.some(
        (other) => id(other.id) === id(row.id) || slugOfTier(other) === slugOfTier(row),
      );
      if (!known) rows.push(row);
    }
  }
  const tiersById = byId(rows);
  const prices = byId(tables.stripe_prices);
  const benefits = byId(tables.benefits);
  const benefitsOf = groupBy(tables.products_benefits, 'product_id');
  const namedBy = groupBy(tables.posts_products, 'post_id');

  const tiers: SourceTier[] = [];
  for (const row of rows) {
    if (isFree(row) || tiers.some((tier) => tier.slug === slugOfTier(row))) continue;
    // Ghost 5 keeps a tier's prices on it; Ghost 4 in the Stripe prices it names.
    const monthly = prices.get(id(row.monthly_price_id));
    const yearly = prices.get(id(row.yearly_price_id));
    const joined = (benefitsOf.get(id(row.id)) ?? [])
      .map((link) => text(benefits.get(id(link.benefit_id))?.name))
      .filter((name): name is string => name !== undefined);
    const tier: SourceTier = {
      slug: slugOfTier(row),
      name: text(row.name) ?? slugOfTier(row),
      description: text(row.description) ?? '',
      benefits: joined.length > 0 ? joined : benefitNames(row.benefits),
      prices: {
        monthly: cents(row.monthly_price) ?? cents(monthly?.amount),
        yearly: cents(row.yearly_price) ?? cents(yearly?.amount),
      },
      visible: (row.active === undefined || truthy(row.active)) && row.visibility !== 'none',
    };
    const currency = text(row.currency) ?? text(monthly?.currency) ?? text(yearly?.currency);
    if (currency) tier.currency = currency.toLowerCase();
    tiers.push(tier);
  }

  /** The tiers a post names: its join rows', else the tiers it carries. */
  const tiersNamedBy = (post: Row): (Row | undefined)[] => {
    const links = namedBy.get(id(post.id));
    if (links) return links.map((link) => tiersById.get(id(link.product_id)));
    if (!Array.isArray(post.tiers)) return [];
    return (post.tiers as unknown[])
      .filter(isRow)
      .map(
        (row) =>
          tiersById.get(id(row.id)) ?? rows.find((known) => slugOfTier(known) === slugOfTier(row)),
      );
  };

  const accessOf = (post: Row): Access => {
    const word = text(post.visibility) ?? 'public';
    const visibility = visibilityOfGhost(word);
    if (visibility === null) {
      return {
        visibility: 'members',
        tiers: [],
        accessNote: `for paying members here, failing closed: its Ghost visibility "${word}" is not one Cohort knows`,
      };
    }
    if (visibility !== 'tiers') return { visibility, tiers: [] };
    const named = tiersNamedBy(post).filter((tier): tier is Row => tier !== undefined);
    const paid = [...new Set(named.filter((tier) => !isFree(tier)).map(slugOfTier))];
    if (paid.length > 0 && !named.some(isFree)) return { visibility: 'tiers', tiers: paid };
    if (paid.length > 0) {
      return {
        visibility: 'tiers',
        tiers: paid,
        accessNote: `for the tiers ${paid.join(', ')} here: Ghost also let its free members read it (make it "registered" in the desk if every signed-in reader may)`,
      };
    }
    // Only Ghost's free tier: every signed-in reader, as a free member is here.
    if (named.length > 0) return { visibility: 'registered', tiers: [] };
    return {
      visibility: 'members',
      tiers: [],
      accessNote:
        'for paying members here, failing closed: its Ghost visibility "tiers" names no tier the export has',
    };
  };

  return { tiers, accessOf };
}

import type { DeskTierRevenue } from '../../../contract/desk-api.js';
import type { Services } from '../services.js';
import { hasAccessSql } from './member-filters.js';

/**
 * The dashboard's tiers (docs/decisions/0030-tiers-and-readers.md): for each tier, in the tiers'
 * order, its members now and what was paid for it in the site's currency, this month and over the
 * dashboard's twelve months (from `since`), by the tier each payment names: a one-time year's or
 * a subscription invoice's (entitlements), a gift's, a seat funding's. Payments are counted as the
 * months' revenue counts them, by the day they were paid (refunds are the months' to show).
 */
export async function readRevenueByTier(
  { db }: Pick<Services, 'db'>,
  options: { currency: string; since: Date; monthStart: Date; now: Date },
): Promise<DeskTierRevenue[]> {
  const { rows } = await db.pool.query<DeskTierRevenue>(
    `WITH payments AS (
       SELECT "tierId", "amountCents", "paidAt" FROM entitlements
        WHERE source NOT IN ('comp', 'gift', 'sponsored') AND currency = $1
       UNION ALL
       SELECT "tierId", "amountCents", "paidAt" FROM gifts WHERE currency = $1
       UNION ALL
       SELECT "tierId", "amountCents", "paidAt" FROM seat_fundings WHERE currency = $1
     ), paid AS (
       SELECT "tierId",
              coalesce(sum("amountCents") FILTER (WHERE "paidAt" >= $3), 0)::int AS "monthCents",
              coalesce(sum("amountCents"), 0)::int AS "yearCents"
         FROM payments WHERE "paidAt" >= $2 AND "paidAt" <= $4
        GROUP BY "tierId"
     ), held AS (
       SELECT m."tierId", count(*)::int AS members FROM memberships m
        WHERE ${hasAccessSql('$4')} GROUP BY m."tierId"
     )
     SELECT t.slug, t.name, coalesce(held.members, 0) AS members,
            coalesce(paid."monthCents", 0) AS "monthCents",
            coalesce(paid."yearCents", 0) AS "yearCents"
       FROM tiers t
       LEFT JOIN paid ON paid."tierId" = t.id
       LEFT JOIN held ON held."tierId" = t.id
      ORDER BY t.position, t.id`,
    [options.currency, options.since, options.monthStart, options.now],
  );
  return rows;
}

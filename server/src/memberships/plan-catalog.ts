import type pg from 'pg';
import { PLAN_IDS, PLAN_SHAPES, type PlanId } from '../../../contract/plan-rules.js';
import type { DeskPlan, Plan } from '../../../contract/plans-api.js';
import { DomainError } from '../domain-error.js';
import { FIRST_TIER_ID } from './derive-membership.js';

/**
 * The plans on sale (docs/decisions/0022-plans.md): rows in `plans`, made at the first start from
 * the environment's prices and changed by owners in the desk after. A price is what the server
 * charges from then on: a Checkout for a new price gets a new Stripe Price
 * (membership-checkout.ts), and members who subscribed at the old one keep it. Owners' changes,
 * with their audit entries, are the desk's (desk/plan-actions.ts).
 */

export interface PlanRow {
  id: PlanId;
  enabled: boolean;
  amountCents: number;
  currency: string;
  /** The operator's own Stripe Price (yearly), while its price is the one it was made with. */
  stripePriceId: string | null;
  /** Days of free trial (subscription plans; 0: none). */
  trialDays: number;
  trialNeedsCard: boolean;
  updatedAt: Date;
}

export interface PlanDefaults {
  yearCents: number;
  monthCents: number;
  currency: string;
  /** STRIPE_PRICE_ID: the operator's yearly Price. */
  yearlyPriceId: string | null;
}

/**
 * Makes the first tier's plans that do not exist yet, from the first start's settings; changes
 * none.
 */
export async function ensurePlans(pool: Pick<pg.Pool, 'query'>, defaults: PlanDefaults) {
  await pool.query(
    `INSERT INTO "plans" ("tierId", "id", "enabled", "amountCents", "currency", "stripePriceId",
                          "updatedAt")
     VALUES (${FIRST_TIER_ID}, 'early-access', true, $1, $3, NULL, now()),
            (${FIRST_TIER_ID}, 'monthly', true, $2, $3, NULL, now()),
            (${FIRST_TIER_ID}, 'yearly', true, $1, $3, $4, now())
     ON CONFLICT ("tierId", "id") DO NOTHING`,
    [defaults.yearCents, defaults.monthCents, defaults.currency, defaults.yearlyPriceId],
  );
}

/** The plans in the order they are shown. */
export const PLAN_ORDER = `array_position(ARRAY['early-access', 'monthly', 'yearly'], "id")`;
export const PLAN_COLUMNS = `"id", "enabled", "amountCents", "currency", "stripePriceId", "trialDays",
                 "trialNeedsCard", "updatedAt"`;

/** A tier's plans (the first tier's unless it says), in the order they are shown. */
export async function readPlans(
  pool: Pick<pg.Pool, 'query'>,
  tierId = FIRST_TIER_ID,
): Promise<PlanRow[]> {
  const { rows } = await pool.query<PlanRow>(
    `SELECT ${PLAN_COLUMNS} FROM "plans" WHERE "id" = ANY($1) AND "tierId" = $2
      ORDER BY ${PLAN_ORDER}`,
    [PLAN_IDS, tierId],
  );
  return rows;
}

/** A plan as `/api/config` lists it. */
export const planJson = (row: PlanRow): Plan => ({
  id: row.id,
  ...PLAN_SHAPES[row.id],
  amountCents: row.amountCents,
  currency: row.currency,
  trialDays: row.id === 'early-access' ? 0 : row.trialDays,
});

/** The plans a visitor can buy now. */
export const onSale = (rows: readonly PlanRow[]): Plan[] =>
  rows.filter((row) => row.enabled).map(planJson);

/** A plan that is not on sale, asked for by name: the visitor is told which are. */
export function planUnavailable(id: string, rows: readonly PlanRow[]): DomainError {
  const sold = rows.filter((row) => row.enabled).map((row) => `"${row.id}"`);
  return new DomainError(
    400,
    'plan_unavailable',
    sold.length > 0
      ? `The "${id}" plan is not on sale; on sale: ${sold.join(', ')}.`
      : `The "${id}" plan is not on sale; nothing is on sale right now.`,
  );
}

/** Every tier's plans, by tier id, each tier's in the order they are shown. */
export async function readPlansByTier(
  pool: Pick<pg.Pool, 'query'>,
): Promise<Map<number, PlanRow[]>> {
  const { rows } = await pool.query<PlanRow & { tierId: number }>(
    `SELECT "tierId", ${PLAN_COLUMNS} FROM "plans" WHERE "id" = ANY($1)
      ORDER BY "tierId", ${PLAN_ORDER}`,
    [PLAN_IDS],
  );
  const byTier = new Map<number, PlanRow[]>();
  for (const { tierId, ...row } of rows) byTier.set(tierId, [...(byTier.get(tierId) ?? []), row]);
  return byTier;
}

/**
 * The desk's view of every tier's plans, on sale or not, with how many members hold each (those
 * whose subscription, or year paid once, is for that tier), by tier id.
 */
export async function readDeskPlansByTier(
  pool: Pick<pg.Pool, 'query'>,
): Promise<Map<number, DeskPlan[]>> {
  const [byTier, counts] = await Promise.all([
    readPlansByTier(pool),
    pool.query<{ tierId: number; plan: PlanId; members: number; otherPrices: number }>(
      `SELECT s."tierId", CASE s."interval" WHEN 'month' THEN 'monthly' ELSE 'yearly' END AS plan,
              count(DISTINCT s."userId")::int AS members,
              count(DISTINCT s."userId") FILTER (
                WHERE s."amountCents" <> p."amountCents")::int AS "otherPrices"
         FROM "subscriptions" s
         JOIN "plans" p ON p."tierId" = s."tierId"
                       AND p.id = CASE s."interval" WHEN 'month' THEN 'monthly' ELSE 'yearly' END
        WHERE s."status" IN ('active', 'trialing', 'past_due')
        GROUP BY 1, 2
       UNION ALL
       SELECT "tierId", 'early-access', count(DISTINCT "userId")::int, 0 FROM "entitlements"
        WHERE "source" = 'one-time' AND "state" = 'active'
          AND "paidAt" + make_interval(days => coalesce("days", 365)) > now()
        GROUP BY 1`,
    ),
  ]);
  const members = new Map(counts.rows.map((row) => [`${row.tierId}:${row.plan}`, row]));
  return new Map(
    [...byTier].map(([tierId, rows]) => [
      tierId,
      rows.map((row) => {
        const held = members.get(`${tierId}:${row.id}`);
        return {
          ...planJson(row),
          enabled: row.enabled,
          trialNeedsCard: row.trialNeedsCard,
          updatedAt: row.updatedAt.toISOString(),
          members: held?.members ?? 0,
          membersOnOtherPrices: held?.otherPrices ?? 0,
        };
      }),
    ]),
  );
}

/** The desk's view of a tier's plans (the first tier's unless it says). */
export async function readDeskPlans(
  pool: Pick<pg.Pool, 'query'>,
  tierId = FIRST_TIER_ID,
): Promise<DeskPlan[]> {
  return (await readDeskPlansByTier(pool)).get(tierId) ?? [];
}

/**
 * Whether this reader may start a free trial: one per reader, counted by account, by address (the
 * account's now, and the address each trial was taken with) and by Stripe customer (a trial taken
 * by any of them counts for all). Only a reader with an account
 * whose address is proven may (an anonymous visitor could take one per browser).
 */
export async function mayStartTrial(
  pool: Pick<pg.Pool, 'query'>,
  reader: { userId: string; email: string | null; emailVerified: boolean },
): Promise<boolean> {
  if (!reader.email || !reader.emailVerified) return false;
  const { rows } = await pool.query(
    `SELECT 1 FROM entitlements e
       LEFT JOIN subscriptions s ON s.id = e."subscriptionId"
       LEFT JOIN users u ON u.id = e."userId"
      WHERE e.trial
        AND (e."userId" = $1 OR lower(u.email) = lower($2) OR lower(e."trialEmail") = lower($2)
             OR s."customerId" IN (SELECT id FROM stripe_customers WHERE "userId" = $1))
      LIMIT 1`,
    [reader.userId, reader.email],
  );
  return rows.length === 0;
}

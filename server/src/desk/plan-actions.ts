import { MIN_PLAN_CENTS, PLAN_IDS, type PlanId } from '../../../contract/plan-rules.js';
import type { PlanChange } from '../../../contract/plans-api.js';
import { TIER_PRICE_PLANS, type TierPrices } from '../../../contract/tiers.js';
import type { Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { FIRST_TIER_ID } from '../memberships/derive-membership.js';
import { PLAN_COLUMNS, PLAN_ORDER, type PlanRow } from '../memberships/plan-catalog.js';
import { writeAudit } from '../staff/audit.js';
import type { Staff } from '../staff/staff.js';

/**
 * What an owner can do to the plans from the desk (docs/decisions/0022-plans.md): each change and
 * its audit entry commit together; what a plan is and who may buy it stay in memberships/plan-catalog.ts.
 */

/**
 * An owner's change to one of the first tier's plans (`PUT /api/desk/plans/:id`, from before
 * tiers), with its audit entry, in the caller's transaction. One of its plans stays on sale (a
 * site that stops selling removes its Stripe keys); a new price leaves the operator's own Stripe
 * Price behind. Another tier's prices change with the tier (`setTierPlans`).
 */
export async function changePlan(
  tx: Tx,
  actor: Pick<Staff, 'userId' | 'email'>,
  id: PlanId,
  change: PlanChange,
): Promise<PlanRow> {
  const { rows } = await tx.query<PlanRow>(
    `SELECT ${PLAN_COLUMNS} FROM "plans" WHERE "tierId" = $1 ORDER BY ${PLAN_ORDER} FOR UPDATE`,
    [FIRST_TIER_ID],
  );
  const before = rows.find((row) => row.id === id);
  if (!before) throw new DomainError(404, 'not_found', `No plan "${id}".`);
  const enabled = change.enabled ?? before.enabled;
  if (!enabled && !rows.some((row) => row.id !== id && row.enabled)) {
    throw new DomainError(
      400,
      'last_plan',
      'One plan stays on sale: turn another on first (a site that sells nothing removes its Stripe keys).',
    );
  }
  if (id === 'early-access' && (change.trialDays ?? 0) > 0) {
    throw new DomainError(
      400,
      'trial_subscriptions_only',
      'A free trial is for the monthly and yearly plans: the year paid once has none.',
    );
  }
  const amountCents = change.amountCents ?? before.amountCents;
  const stripePriceId = amountCents === before.amountCents ? before.stripePriceId : null;
  const updated = await tx.query<PlanRow>(
    `UPDATE "plans" SET "enabled" = $2, "amountCents" = $3, "stripePriceId" = $4,
                        "trialDays" = $5, "trialNeedsCard" = $6,
                        "updatedAt" = now(), "updatedBy" = $7
      WHERE "tierId" = $8 AND "id" = $1
      RETURNING ${PLAN_COLUMNS}`,
    [
      id,
      enabled,
      amountCents,
      stripePriceId,
      change.trialDays ?? before.trialDays,
      change.trialNeedsCard ?? before.trialNeedsCard,
      actor.userId,
      FIRST_TIER_ID,
    ],
  );
  const after = updated.rows[0];
  if (!after) throw new Error(`Plan ${id} vanished while it was changed`);
  const shown = (row: PlanRow) => ({
    plan: row.id,
    enabled: row.enabled,
    amountCents: row.amountCents,
    currency: row.currency,
    ...(row.id !== 'early-access' && {
      trialDays: row.trialDays,
      trialNeedsCard: row.trialNeedsCard,
    }),
  });
  await writeAudit(tx, actor, {
    action: 'plan_change',
    targetUserId: null,
    before: shown(before),
    after: shown(after),
  });
  return after;
}

/** What one of a tier's plans costs: its price, or null when it is not sold. */
const priceOf = (prices: TierPrices, id: PlanId): number | null => {
  const key = (Object.keys(TIER_PRICE_PLANS) as (keyof TierPrices)[]).find(
    (each) => TIER_PRICE_PLANS[each] === id,
  );
  return key === undefined ? null : prices[key];
};

/** A tier's prices, one for each plan: at least one is sold. */
function requireOnePrice(prices: TierPrices) {
  if (Object.values(prices).every((price) => price === null)) {
    throw new DomainError(
      400,
      'invalid_tier',
      'Invalid tier: prices: a tier sells at least one plan: give it a monthly, a yearly or a once price (hide the tier to stop offering it).',
    );
  }
}

/**
 * A new tier's three plans, in the caller's transaction: each priced, or (null) not on sale and
 * priced as the first tier's plan of its kind, to be put on sale later. Its subscriptions start
 * with `trialDays` of free trial.
 */
export async function createTierPlans(
  tx: Tx,
  actor: Pick<Staff, 'userId'>,
  tierId: number,
  plans: { prices: TierPrices; trialDays: number; currency: string },
): Promise<void> {
  requireOnePrice(plans.prices);
  const first = await tx.query<{ id: PlanId; amountCents: number; currency: string }>(
    `SELECT "id", "amountCents", "currency" FROM "plans" WHERE "tierId" = $1`,
    [FIRST_TIER_ID],
  );
  const currency = first.rows[0]?.currency ?? plans.currency;
  for (const id of PLAN_IDS) {
    const price = priceOf(plans.prices, id);
    const kept = first.rows.find((row) => row.id === id)?.amountCents ?? MIN_PLAN_CENTS;
    await tx.query(
      `INSERT INTO "plans" ("tierId", "id", "enabled", "amountCents", "currency", "trialDays",
                            "updatedAt", "updatedBy")
       VALUES ($1, $2, $3, $4, $5, $6, now(), $7)`,
      [
        tierId,
        id,
        price !== null,
        price ?? kept,
        currency,
        id === 'early-access' ? 0 : plans.trialDays,
        actor.userId,
      ],
    );
  }
}

/**
 * A tier's prices and trial changed with it (`PATCH /api/desk/tiers/:slug`), in the caller's
 * transaction: a plan priced null goes off sale and keeps its amount; a new amount leaves the
 * operator's own Stripe Price behind. Answers whether anything changed.
 */
export async function setTierPlans(
  tx: Tx,
  actor: Pick<Staff, 'userId'>,
  tierId: number,
  change: { prices?: TierPrices; trialDays?: number },
): Promise<boolean> {
  if (change.prices) requireOnePrice(change.prices);
  const { rows } = await tx.query<PlanRow>(
    `SELECT ${PLAN_COLUMNS} FROM "plans" WHERE "tierId" = $1 ORDER BY ${PLAN_ORDER} FOR UPDATE`,
    [tierId],
  );
  let changed = false;
  for (const before of rows) {
    const price = change.prices ? priceOf(change.prices, before.id) : undefined;
    const enabled = price === undefined ? before.enabled : price !== null;
    const amountCents = price ?? before.amountCents;
    const trialDays = before.id === 'early-access' ? 0 : (change.trialDays ?? before.trialDays);
    if (
      enabled === before.enabled &&
      amountCents === before.amountCents &&
      trialDays === before.trialDays
    ) {
      continue;
    }
    changed = true;
    await tx.query(
      `UPDATE "plans" SET "enabled" = $3, "amountCents" = $4, "stripePriceId" = $5,
                          "trialDays" = $6, "updatedAt" = now(), "updatedBy" = $7
        WHERE "tierId" = $1 AND "id" = $2`,
      [
        tierId,
        before.id,
        enabled,
        amountCents,
        amountCents === before.amountCents ? before.stripePriceId : null,
        trialDays,
        actor.userId,
      ],
    );
  }
  return changed;
}

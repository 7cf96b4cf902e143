import type { PlanId } from '../../../contract/plan-rules.js';
import type { PlanChange } from '../../../contract/plans-api.js';
import type { Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { PLAN_COLUMNS, PLAN_ORDER, type PlanRow } from '../memberships/plan-catalog.js';
import { writeAudit } from '../staff/audit.js';
import type { Staff } from '../staff/staff.js';

/**
 * What an owner can do to the plans from the desk (docs/decisions/0022-plans.md): each change and
 * its audit entry commit together; what a plan is and who may buy it stay in memberships/plan-catalog.ts.
 */

/**
 * An owner's change to a plan, with its audit entry, in the caller's transaction. One plan stays
 * on sale (a site that stops selling removes its Stripe keys); a new price leaves the operator's
 * own Stripe Price behind.
 */
export async function changePlan(
  tx: Tx,
  actor: Pick<Staff, 'userId' | 'email'>,
  id: PlanId,
  change: PlanChange,
): Promise<PlanRow> {
  const { rows } = await tx.query<PlanRow>(
    `SELECT ${PLAN_COLUMNS} FROM "plans" ORDER BY ${PLAN_ORDER} FOR UPDATE`,
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
      WHERE "id" = $1
      RETURNING ${PLAN_COLUMNS}`,
    [
      id,
      enabled,
      amountCents,
      stripePriceId,
      change.trialDays ?? before.trialDays,
      change.trialNeedsCard ?? before.trialNeedsCard,
      actor.userId,
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

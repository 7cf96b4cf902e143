import { randomUUID } from 'node:crypto';
import type { Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { FIRST_TIER_ID } from './derive-membership.js';
import { lockUserId, recomputeMembership } from './ledger.js';

/**
 * Comp memberships: time given by staff rather than paid, each a ledger entry of its own
 * (`source = 'comp'`, no money, a fixed period of one tier from the grant to its end date). The ledger counts
 * it like any fixed period, so one-time purchases place their days around it and no paid time is
 * lost; ending a comp early shortens its period to now. Both run inside the caller's transaction
 * (the desk writes its audit entry in the same one) and rewrite the membership from the ledger.
 */

/** The longest a comp may run: beyond this, it is not a comp. */
export const MAX_COMP_DAYS = 10 * 366;
export const MAX_COMP_REASON_LENGTH = 500;

export interface CompEntry {
  id: string;
  periodStart: Date;
  periodEnd: Date;
  reason: string;
  /** The tier it gives (by id). */
  tierId: number;
}

export interface CompGrant {
  userId: string;
  /** When the comp ends: in the future, at most MAX_COMP_DAYS away. */
  until: Date;
  reason: string;
  /** The staff member granting it; null for a comp an import brought from another platform. */
  grantedBy: string | null;
  /** The configured currency (a comp's amount is 0 of it). */
  currency: string;
  /** The tier it gives (by id); the first tier when not said. */
  tierId?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A user with a row who is not deleted, locked for the rest of the transaction. */
async function lockExistingUser(tx: Tx, userId: string): Promise<void> {
  await lockUserId(tx, userId);
  const { rowCount } = await tx.query('SELECT 1 FROM users WHERE id = $1', [userId]);
  if (!rowCount) throw new DomainError(404, 'member_not_found', 'There is no such member.');
}

function requireReason(reason: string): string {
  const trimmed = reason.trim();
  if (trimmed.length < 3 || trimmed.length > MAX_COMP_REASON_LENGTH) {
    throw new DomainError(
      400,
      'invalid_reason',
      `Give a reason of 3 to ${MAX_COMP_REASON_LENGTH} characters: it goes on the ledger and in the audit log.`,
    );
  }
  return trimmed;
}

/** Grants a comp from now until `until`; answers its ledger entry. */
export async function grantComp(
  tx: Tx,
  grant: CompGrant,
  options: { graceDays: number; now?: Date },
): Promise<CompEntry> {
  const now = options.now ?? new Date();
  const reason = requireReason(grant.reason);
  if (Number.isNaN(grant.until.getTime()) || grant.until.getTime() <= now.getTime()) {
    throw new DomainError(400, 'invalid_end_date', 'A comp’s end date must be in the future.');
  }
  if (grant.until.getTime() - now.getTime() > MAX_COMP_DAYS * DAY_MS) {
    throw new DomainError(
      400,
      'invalid_end_date',
      `A comp can run for at most ${MAX_COMP_DAYS} days.`,
    );
  }
  await lockExistingUser(tx, grant.userId);
  // A comp is given to the person behind an address: not to whoever registered it unproven. An
  // account without a password (an imported member's) signs in only by a link or code mailed to
  // the address, which proves it: only its owner can ever use the comp.
  const { rows } = await tx.query<{ unproven: boolean }>(
    `SELECT email IS NOT NULL AND "emailVerifiedAt" IS NULL AND "passwordHash" IS NOT NULL
              AS unproven
     FROM users WHERE id = $1`,
    [grant.userId],
  );
  if (rows[0]?.unproven) {
    throw new DomainError(
      409,
      'address_unproven',
      'This account has not proven its address yet (it never used a link mailed to it): no comp until it does.',
    );
  }
  const id = `comp_${randomUUID()}`;
  const tierId = grant.tierId ?? FIRST_TIER_ID;
  await tx.query(
    `INSERT INTO entitlements (id, "userId", source, "amountCents", currency, "paidAt",
                               "periodStart", "periodEnd", state, "stateReadAt", "compReason",
                               "grantedBy", "tierId", "updatedAt")
     VALUES ($1, $2, 'comp', 0, $3, $4, $4, $5, 'active', $4, $6, $7, $8, now())`,
    [id, grant.userId, grant.currency, now, grant.until, reason, grant.grantedBy, tierId],
  );
  await recomputeMembership(tx, grant.userId, options.graceDays);
  return { id, periodStart: now, periodEnd: grant.until, reason, tierId };
}

/**
 * Ends a running comp now: its period is cut to now (the time it gave stays given). 404 for a
 * comp that is not this user's, 409 for one that has already ended.
 */
export async function endComp(
  tx: Tx,
  input: { userId: string; compId: string },
  options: { graceDays: number; now?: Date },
): Promise<{ before: CompEntry; after: CompEntry }> {
  const now = options.now ?? new Date();
  await lockExistingUser(tx, input.userId);
  const { rows } = await tx.query<{
    periodStart: Date;
    periodEnd: Date;
    compReason: string | null;
    tierId: number;
  }>(
    `SELECT "periodStart", "periodEnd", "compReason", "tierId" FROM entitlements
     WHERE id = $1 AND "userId" = $2 AND source = 'comp' FOR UPDATE`,
    [input.compId, input.userId],
  );
  const comp = rows[0];
  if (!comp) throw new DomainError(404, 'comp_not_found', 'This member has no such comp.');
  if (comp.periodEnd.getTime() <= now.getTime()) {
    throw new DomainError(409, 'comp_ended', 'This comp has already ended.');
  }
  const end = now;
  await tx.query(`UPDATE entitlements SET "periodEnd" = $2, "updatedAt" = now() WHERE id = $1`, [
    input.compId,
    end,
  ]);
  await recomputeMembership(tx, input.userId, options.graceDays);
  const entry = {
    id: input.compId,
    periodStart: comp.periodStart,
    reason: comp.compReason ?? '',
    tierId: comp.tierId,
  };
  return {
    before: { ...entry, periodEnd: comp.periodEnd },
    after: { ...entry, periodEnd: end },
  };
}

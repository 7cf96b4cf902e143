import type pg from 'pg';
import { withTransaction } from '../db/transaction.js';
import { writeAudit } from '../staff/audit.js';
import type { Staff } from '../staff/staff.js';
import { createAdminKey, type KeySecrets } from '../integrations/integrations.js';

/**
 * A staff member's own admin key, Ghost's "staff access token" (what Ulysses and iA Writer ask
 * for): made from the desk's profile page, shown once, acting with its owner's role
 * (admin-caller.ts). Making one again replaces it: the old one stops at once. It stops too when
 * its owner is no longer staff (checked on every request).
 */

export interface StaffTokenState {
  /** The key's id (not a secret), when there is one. */
  keyId: string | null;
  createdAt: string | null;
}

export async function readStaffToken(
  db: Pick<pg.Pool, 'query'>,
  userId: string,
): Promise<StaffTokenState> {
  const { rows } = await db.query<{ id: string; createdAt: Date }>(
    `SELECT "id", "createdAt" FROM "api_keys" WHERE "userId" = $1 AND "kind" = 'admin'
      ORDER BY "createdAt" DESC LIMIT 1`,
    [userId],
  );
  const row = rows[0];
  return { keyId: row?.id ?? null, createdAt: row?.createdAt.toISOString() ?? null };
}

/** Makes the staff member's token, replacing any they had; answers it whole, this once. */
export async function regenerateStaffToken(
  pool: pg.Pool,
  secrets: KeySecrets,
  staff: Pick<Staff, 'userId' | 'email'>,
): Promise<string> {
  return withTransaction(pool, async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `DELETE FROM "api_keys" WHERE "userId" = $1 AND "kind" = 'admin' RETURNING "id"`,
      [staff.userId],
    );
    const token = await createAdminKey(tx, secrets, { userId: staff.userId });
    await writeAudit(tx, staff, {
      action: 'staff_token_create',
      targetUserId: staff.userId,
      before: rows[0] ? { keyId: rows[0].id } : null,
      after: { keyId: token.split(':')[0] },
    });
    return token;
  });
}

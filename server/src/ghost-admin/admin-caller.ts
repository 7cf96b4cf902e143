import type pg from 'pg';
import type { Actor } from '../content/post-actors.js';
import type { StaffConfig } from '../config.js';
import { requireChangingRole, requireMaySeeMembers, staffRoleOf } from '../staff/staff.js';
import { DomainError } from '../domain-error.js';
import { adminKeySecret, type KeySecrets } from '../integrations/integrations.js';
import { invalidToken, keyIdOf, tokenOf, verifyAdminToken } from './admin-token.js';

/**
 * Who calls the Admin API (docs/ghost-api.md#admin-api): an integration, which acts as an editor
 * on posts and reads, adds and edits members (never money, plans, staff or integrations), or a
 * staff member through their own admin key (Ghost's staff access token), with exactly the desk
 * rights the configuration gives them now: a key of someone no longer staff stops working at once.
 */
export interface AdminCaller {
  /** Who acts, for the post store's rights. An integration's userId is its own id. */
  actor: Actor;
  /** The integration, or null for a staff member's own key. */
  integrationId: string | null;
  /** How the audit log names the caller: `Integration “Name”`, or the staff member's email. */
  label: string;
}

export async function readAdminCaller(
  db: Pick<pg.Pool, 'query'>,
  site: { keySecrets: KeySecrets; staff: StaffConfig },
  authorization: string | undefined,
): Promise<AdminCaller> {
  const token = tokenOf(authorization);
  if (!token) {
    throw new DomainError(
      401,
      'NO_AUTH',
      'Authorization failed: send "Authorization: Ghost <token>", a token made with an admin key.',
      { ghostType: 'UnauthorizedError' },
    );
  }
  const keyId = keyIdOf(token);
  const key = await adminKeySecret(db, site.keySecrets, keyId);
  // A content key's id, a deleted integration's key, a regenerated staff token: all unknown here.
  if (!key) throw invalidToken('Unknown admin API key: it was deleted, or never was one.');
  await verifyAdminToken(token, key.secret);
  if (key.integrationId) {
    const { rows } = await db.query<{ name: string }>(
      `SELECT "name" FROM "integrations" WHERE "id" = $1`,
      [key.integrationId],
    );
    const name = rows[0]?.name;
    if (name === undefined) throw invalidToken('Unknown admin API key: its integration is gone.');
    const label = `Integration “${name}”`;
    return {
      actor: { userId: key.integrationId, email: label, role: 'editor' },
      integrationId: key.integrationId,
      label,
    };
  }
  const { rows } = await db.query<{ email: string | null; proven: boolean }>(
    `SELECT "email", "emailVerifiedAt" IS NOT NULL AS "proven" FROM "users" WHERE "id" = $1`,
    [key.userId],
  );
  const user = rows[0];
  const role = user?.proven ? staffRoleOf(site.staff, user.email) : null;
  if (!user?.email || !role || !key.userId) {
    throw invalidToken('This staff access token belongs to someone who is no longer staff.');
  }
  return {
    actor: { userId: key.userId, email: user.email, role },
    integrationId: null,
    label: user.email,
  };
}

/**
 * The right an Admin API route needs, declared on each route (`config: {ghostAccess}`) and checked
 * by the area's one gate (routes/ghost-admin): `anyone` (no token), `posts` (every caller: the post
 * store's own rules say what a writer may do), `see-members`, `change-members`.
 */
export type GhostAccess = 'anyone' | 'posts' | 'see-members' | 'change-members';

/**
 * Lets the caller in, or refuses with 403 (Ghost's NoPermissionError) in the desk's words: a staff
 * token by the desk's rules for its owner's role (staff/staff.ts), without the desk's 12-hour
 * sign-in (a token is only made within 12 hours of one); an integration by its documented rights.
 */
export function requireGhostAccess(caller: AdminCaller, access: GhostAccess): void {
  // An integration reads and changes members (it is how mailing tools sync them).
  if (caller.integrationId) return;
  switch (access) {
    case 'anyone':
    case 'posts':
      return;
    case 'see-members':
      return requireMaySeeMembers(caller.actor);
    case 'change-members':
      return requireChangingRole(caller.actor);
  }
}

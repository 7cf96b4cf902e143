import type { Services } from '../services.js';
import { toMembershipView, type MembershipState } from '../memberships/memberships.js';
import type { User } from '../../../contract/api.js';

export interface SessionUserRow {
  id: string;
  email: string | null;
  sessionVersion: number;
  membership: MembershipState | null;
}

interface SessionUserSqlRow {
  id: string;
  email: string | null;
  sessionVersion: number;
  plan: 'one-time' | 'subscription' | null;
  status: string | null;
  expiresAt: Date | null;
}

/**
 * The user behind a session, with their membership: read on nearly every API request. Raw SQL on
 * purpose: through Prisma this primary-key lookup costs about twice as much
 * (tests/bench/session-me.ts), and it is the hottest query of the site. Everything else goes
 * through Prisma.
 */
export async function findSessionUser(
  { db }: Pick<Services, 'db'>,
  id: string,
): Promise<SessionUserRow | null> {
  const { rows } = await db.pool.query<SessionUserSqlRow>({
    // Named, so each connection plans this join once instead of on every request (~25% of the
    // request's cost otherwise).
    ...(db.namedStatements && { name: 'find-session-user' }),
    text: `SELECT u.id, u.email, u."sessionVersion",
                  m.plan, m.status, m."expiresAt"
           FROM users u LEFT JOIN memberships m ON m."userId" = u.id
           WHERE u.id = $1`,
    values: [id],
  });
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    sessionVersion: row.sessionVersion,
    membership:
      row.plan && row.status && row.expiresAt
        ? {
            plan: row.plan,
            status: row.status,
            expiresAt: row.expiresAt,
          }
        : null,
  };
}

/** A visitor without a row is an ordinary anonymous reader. */
export function toUser(id: string, row: SessionUserRow | null): User {
  return { id, email: row?.email ?? null, ...toMembershipView(row?.membership ?? null) };
}

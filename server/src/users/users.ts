import type { Services } from '../services.js';
import { toMembershipView, type MembershipState } from '../memberships/memberships.js';
import type { User } from '../../../contract/api.js';

export interface SessionUserRow {
  id: string;
  email: string | null;
  /** The owner proved the address by a link or code mailed to it (docs/decisions/0014). */
  emailVerified: boolean;
  sessionVersion: number;
  membership: MembershipState | null;
  /** When the token's session was last seen; null when the token names none, or a gone one. */
  sessionSeenAt: Date | null;
}

interface SessionUserSqlRow {
  id: string;
  email: string | null;
  emailVerified: boolean;
  sessionVersion: number;
  sessionSeenAt: Date | null;
  plan: 'one-time' | 'subscription' | null;
  status: string | null;
  expiresAt: Date | null;
  tier: string | null;
}

/**
 * The user behind a session, with their membership and the session the token names: read on
 * nearly every API request, in one round trip. Raw SQL on purpose (through Prisma this lookup
 * costs about twice as much, tests/bench/session-me.ts), and through the `cohort_session_user`
 * function (migration 20261123200000_sessions), whose plan PostgreSQL keeps per connection: the
 * same join as a plain statement is planned again on every request, and a named prepared
 * statement would break behind PgBouncer in transaction mode. Everything else goes through Prisma.
 */
export async function findSessionUser(
  { db }: Pick<Services, 'db'>,
  id: string,
  sessionId: string | null = null,
): Promise<SessionUserRow | null> {
  const { rows } = await db.pool.query<SessionUserSqlRow>(
    'SELECT * FROM cohort_session_user($1, $2)',
    [id, sessionId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    emailVerified: row.emailVerified,
    sessionVersion: row.sessionVersion,
    sessionSeenAt: row.sessionSeenAt,
    membership:
      row.plan && row.status && row.expiresAt
        ? {
            plan: row.plan,
            status: row.status,
            expiresAt: row.expiresAt,
            tier: row.tier ?? undefined,
          }
        : null,
  };
}

/** A visitor without a row is an ordinary anonymous reader. */
export function toUser(id: string, row: SessionUserRow | null): User {
  return { id, email: row?.email ?? null, ...toMembershipView(row?.membership ?? null) };
}

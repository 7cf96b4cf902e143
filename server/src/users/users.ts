import type pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { UserView } from './user-schema.js';

export interface SessionUserRow {
  id: string;
  email: string | null;
  sessionVersion: number;
}

/**
 * The user behind a session, read on nearly every API request. Raw SQL on purpose: through
 * Prisma this one primary-key lookup costs about twice as much (tests/bench/session-me.ts), and
 * it is the hottest query of the site. Everything else goes through Prisma.
 */
export async function findSessionUser(pool: pg.Pool, id: string): Promise<SessionUserRow | null> {
  const { rows } = await pool.query<SessionUserRow>(
    'SELECT id, email, "sessionVersion" FROM users WHERE id = $1',
    [id],
  );
  return rows[0] ?? null;
}

/**
 * Creates the user's row if it does not exist yet. Readers never get one; the first thing that
 * needs a row (a payment, a registration) calls this. Safe to call twice, and concurrently.
 */
export async function ensureUserRow(prisma: PrismaClient, id: string): Promise<void> {
  // INSERT … ON CONFLICT DO NOTHING: two requests racing to create the row both succeed.
  await prisma.user.createMany({ data: [{ id }], skipDuplicates: true });
}

/** A visitor without a row is an ordinary anonymous reader. */
export function toUserView(id: string, row: SessionUserRow | null): UserView {
  return { id, email: row?.email ?? null, isSubscribed: false, membership: null };
}

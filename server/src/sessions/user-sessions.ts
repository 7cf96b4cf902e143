import { randomUUID } from 'node:crypto';
import type { Services } from '../services.js';
import type { SignInMethod } from '../../../contract/sign-in-methods.js';

/**
 * A registered user's signed-in browsers (the `sessions` table). Signing in makes one; its id
 * rides in the session token, and a token whose session is gone is no session. Anonymous readers
 * have none: their token alone is their session, and no row is written for them.
 */

export interface UserSession {
  id: string;
  userAgent: string | null;
  createdAt: Date;
  lastSeenAt: Date;
  signedInAt: Date | null;
  /** Null for a session from before methods were recorded. */
  signInMethod: SignInMethod | null;
}

/** `lastSeenAt` moves forward at most this often, so reading a session stays a single SELECT. */
export const LAST_SEEN_RESOLUTION_MS = 5 * 60 * 1000;

const MAX_USER_AGENT = 300;

/**
 * A new session row. `signedIn`: the user just proved who they are (a password, a mailed link or
 * code, a passkey: `method`), so
 * `signedInAt` is now; false for a token from before sessions were stored, turned into one, whose
 * sign-in time nobody knows (the desk asks such a session to sign in again before any change).
 */
export async function createUserSession(
  { db }: Pick<Services, 'db'>,
  userId: string,
  userAgent: string | undefined,
  { signedIn, method = null }: { signedIn: boolean; method?: SignInMethod | null },
): Promise<string> {
  const id = randomUUID();
  await db.pool.query(
    `INSERT INTO sessions (id, "userId", "userAgent", "signedInAt", "signInMethod")
     VALUES ($1, $2, $3, CASE WHEN $4::boolean THEN now() END, $5)`,
    [id, userId, userAgent ? userAgent.slice(0, MAX_USER_AGENT) : null, signedIn, method],
  );
  return id;
}

/** When and how the session signed in; null when the session is gone. */
export async function sessionSignIn(
  { db }: Pick<Services, 'db'>,
  sessionId: string,
): Promise<Pick<UserSession, 'signedInAt' | 'signInMethod'> | null> {
  const { rows } = await db.pool.query<Pick<UserSession, 'signedInAt' | 'signInMethod'>>(
    'SELECT "signedInAt", "signInMethod" FROM sessions WHERE id = $1',
    [sessionId],
  );
  return rows[0] ?? null;
}

/** When the session's user typed their password for it; null when unknown or gone. */
export async function sessionSignedInAt(
  services: Pick<Services, 'db'>,
  sessionId: string,
): Promise<Date | null> {
  return (await sessionSignIn(services, sessionId))?.signedInAt ?? null;
}

export async function listUserSessions(
  { db }: Pick<Services, 'db'>,
  userId: string,
): Promise<UserSession[]> {
  const { rows } = await db.pool.query<UserSession>(
    `SELECT id, "userAgent", "createdAt", "lastSeenAt", "signedInAt", "signInMethod" FROM sessions
     WHERE "userId" = $1 ORDER BY "lastSeenAt" DESC, "createdAt" DESC`,
    [userId],
  );
  return rows;
}

/** Ends one session of the user; false when it is not theirs or already ended. */
export async function endUserSession(
  { db }: Pick<Services, 'db'>,
  userId: string,
  sessionId: string,
): Promise<boolean> {
  const { rowCount } = await db.pool.query('DELETE FROM sessions WHERE id = $1 AND "userId" = $2', [
    sessionId,
    userId,
  ]);
  return (rowCount ?? 0) > 0;
}

/** Ends every session of the user but `keep` (none kept when null). */
export async function endOtherUserSessions(
  { db }: Pick<Services, 'db'>,
  userId: string,
  keep: string | null,
): Promise<number> {
  const { rowCount } = await db.pool.query(
    'DELETE FROM sessions WHERE "userId" = $1 AND ($2::uuid IS NULL OR id <> $2::uuid)',
    [userId, keep],
  );
  return rowCount ?? 0;
}

/** Moves `lastSeenAt` forward when it is older than the resolution; never fails a request. */
export async function touchUserSession(
  { db }: Pick<Services, 'db'>,
  sessionId: string,
): Promise<void> {
  await db.pool.query(
    `UPDATE sessions SET "lastSeenAt" = now()
     WHERE id = $1 AND "lastSeenAt" < now() - make_interval(secs => $2)`,
    [sessionId, LAST_SEEN_RESOLUTION_MS / 1000],
  );
}

import { randomUUID } from 'node:crypto';
import { normalizeEmail } from '../../contract/account-rules.js';
import type { SignInMethod } from '../../contract/sign-in-methods.js';
import { SESSION_COOKIE } from '../../server/src/plugins/app/sessions.js';
import { createSessionTokens } from '../../server/src/sessions/session-token.js';
import { TEST_SESSION_SECRET, type TestApp } from './test-app.js';

/** An account made by `seedMember`, with the cookie of its signed-in browser. */
export interface SeededMember {
  userId: string;
  email: string;
  sessionId: string;
  cookie: string;
}

/**
 * An account with a proven address, signed in on a browser of its own, written straight to the
 * database in one call: for tests about what a member or staff member can do, not about how they
 * got an account (registration by mail is tested in the accounts tests). Staff roles come from the
 * address, as in production: name it in the test app's STAFF_EMAILS, EDITOR_EMAILS or
 * WRITER_EMAILS.
 */
export async function seedMember(
  t: Pick<TestApp, 'database'>,
  options: {
    email?: string;
    /** When this browser signed in (now unless said): the desk's 12-hour rule reads it. */
    signedInAt?: Date;
    method?: SignInMethod;
  } = {},
): Promise<SeededMember> {
  const userId = randomUUID();
  const sessionId = randomUUID();
  const email = normalizeEmail(options.email ?? `member-${userId}@example.com`);
  const sessionVersion = 1;
  await t.database.pool.query(
    `INSERT INTO users (id, email, "emailVerifiedAt", "sessionVersion", "updatedAt")
     VALUES ($1, $2, now(), $3, now())`,
    [userId, email, sessionVersion],
  );
  await t.database.pool.query(
    `INSERT INTO sessions (id, "userId", "signedInAt", "signInMethod") VALUES ($1, $2, $3, $4)`,
    [sessionId, userId, options.signedInAt ?? new Date(), options.method ?? 'password'],
  );
  const token = await createSessionTokens(TEST_SESSION_SECRET).sign(
    userId,
    sessionVersion,
    sessionId,
  );
  return { userId, email, sessionId, cookie: `${SESSION_COOKIE}=${token}` };
}

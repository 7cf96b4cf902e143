import { randomUUID } from 'node:crypto';
import { normalizeEmail } from '../../contract/account-rules.js';
import type { SignInMethod } from '../../contract/sign-in-methods.js';
import { getPasswordHash } from '../../server/src/accounts/passwords.js';
import { withTransaction } from '../../server/src/db/transaction.js';
import { staffRoleOf, type StaffRole } from '../../server/src/desk/staff.js';
import { applyPaymentFacts } from '../../server/src/stripe/apply-payment-facts.js';
import { SESSION_COOKIE } from '../../server/src/plugins/app/sessions.js';
import { createSessionTokens } from '../../server/src/sessions/session-token.js';
import { TEST_SESSION_SECRET, type TestApp } from './test-app.js';

/** An account made by `seedMember`, with the cookie of its signed-in browser. */
let addresses = 0;

/**
 * An address no account has yet: its prefix says which test file made it, the time and a count
 * keep it apart from every other.
 */
export const uniqueEmail = (prefix: string) =>
  `${prefix}${Date.now()}${(addresses += 1)}@example.com`;

export interface SeededMember {
  userId: string;
  email: string;
  sessionId: string;
  cookie: string;
}

/** Where the test app's env lists each staff role, for a clear message when a role is missing. */
const ROLE_LISTS = {
  owner: ['owners', 'STAFF_EMAILS'],
  editor: ['editors', 'EDITOR_EMAILS'],
  writer: ['writers', 'WRITER_EMAILS'],
} as const satisfies Record<StaffRole, readonly [string, string]>;

type SeedingSite = Pick<TestApp, 'database' | 'config'>;

/**
 * The address a staff member of `role` signs in with: `email` when the site lists it for that role
 * (the same rule the desk applies), else the first address listed for it that has no account yet.
 */
async function staffAddress(t: SeedingSite, role: StaffRole, email?: string): Promise<string> {
  const [list, variable] = ROLE_LISTS[role];
  if (email !== undefined) {
    const address = normalizeEmail(email);
    if (staffRoleOf(t.config.staff, address) !== role) {
      throw new Error(`${address} is not listed as ${role} in the test app's ${variable}`);
    }
    return address;
  }
  const listed = t.config.staff[list];
  const { rows } = await t.database.pool.query<{ email: string }>(
    'SELECT email FROM users WHERE email = ANY($1)',
    [listed],
  );
  const taken = new Set(rows.map((row) => row.email));
  const free = listed.find((address) => !taken.has(address));
  if (!free) {
    throw new Error(`Every address in the test app's ${variable} has an account: list another`);
  }
  return free;
}

/**
 * A year paid once, placed on the ledger by `applyPaymentFacts` (the webhook's path), so the
 * membership row is what the ledger derives. It has no object at the fake Stripe: tests of what
 * Stripe does with a payment pay through the fake Stripe instead.
 */
async function payForAYear(t: SeedingSite, userId: string): Promise<void> {
  const now = new Date();
  await withTransaction(t.database.pool, (tx) =>
    applyPaymentFacts(
      tx,
      [
        {
          kind: 'one-time',
          paymentIntentId: `pi_seeded_${randomUUID().replaceAll('-', '')}`,
          userId,
          customerId: null,
          amountCents: t.config.membership.priceCents,
          currency: t.config.membership.currency,
          paidAt: now,
          outcome: { state: 'active', reason: null },
          readAt: now,
          offerId: null,
          offerRedemptionId: null,
        },
      ],
      { graceDays: t.config.membership.graceDays },
    ),
  );
}

/**
 * An account with a proven address, signed in on a browser of its own, written straight to the
 * database in one call: for tests about what a member or staff member can do, not about how they
 * got an account (registration by mail is tested in the accounts tests). Staff roles come from the
 * address, as in production: `role` takes an address the test app's STAFF_EMAILS, EDITOR_EMAILS or
 * WRITER_EMAILS lists for it.
 */
export async function seedMember(
  t: SeedingSite,
  options: {
    email?: string;
    /** A staff role: the address is `email` if it is listed for it, else the next one listed. */
    role?: StaffRole;
    /** A year paid once, on the ledger. */
    paid?: boolean;
    /** A password to sign in with (else none: the account signs in by mailed link only). */
    password?: string;
    /** When this browser signed in (now unless said): the desk's 12-hour rule reads it. */
    signedInAt?: Date;
    method?: SignInMethod;
    /** The User-Agent this browser signed in with, as the session keeps it. */
    userAgent?: string;
  } = {},
): Promise<SeededMember> {
  const userId = randomUUID();
  const sessionId = randomUUID();
  const email = options.role
    ? await staffAddress(t, options.role, options.email)
    : normalizeEmail(options.email ?? `member-${userId}@example.com`);
  const passwordHash = options.password ? await getPasswordHash(options.password) : null;
  const sessionVersion = 1;
  await t.database.pool.query(
    `INSERT INTO users (id, email, "passwordHash", "emailVerifiedAt", "sessionVersion", "updatedAt")
     VALUES ($1, $2, $3, now(), $4, now())`,
    [userId, email, passwordHash, sessionVersion],
  );
  await t.database.pool.query(
    `INSERT INTO sessions (id, "userId", "signedInAt", "signInMethod", "userAgent")
     VALUES ($1, $2, $3, $4, $5)`,
    [
      sessionId,
      userId,
      options.signedInAt ?? new Date(),
      options.method ?? 'password',
      options.userAgent ?? null,
    ],
  );
  if (options.paid) await payForAYear(t, userId);
  const token = await createSessionTokens(TEST_SESSION_SECRET).sign(
    userId,
    sessionVersion,
    sessionId,
  );
  return { userId, email, sessionId, cookie: `${SESSION_COOKIE}=${token}` };
}

/**
 * One signed-in staff member per role named, in that order, each on the next address the test
 * app's env lists for the role: `const [owner, editor] = await seedStaff(t, 'owner', 'editor')`.
 */
export async function seedStaff<const Roles extends readonly StaffRole[]>(
  t: SeedingSite,
  ...roles: Roles
): Promise<{ [K in keyof Roles]: SeededMember }> {
  const staff: SeededMember[] = [];
  // One after another: two seeds of one role must not both take its first free address.
  for (const role of roles) staff.push(await seedMember(t, { role }));
  return staff as { [K in keyof Roles]: SeededMember };
}

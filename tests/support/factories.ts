import { randomUUID } from 'node:crypto';
import type { HTTPMethods, LightMyRequestResponse } from 'fastify';
import { normalizeEmail } from '../../contract/account-rules.js';
import type { PostJson, PostKind } from '../../contract/posts.js';
import type { SignInMethod } from '../../contract/sign-in-methods.js';
import { getPasswordHash } from '../../server/src/accounts/passwords.js';
import { withTransaction } from '../../server/src/db/transaction.js';
import { staffRoleOf, type StaffRole } from '../../server/src/staff/staff.js';
import { applyPaymentFacts } from '../../server/src/stripe/apply-payment-facts.js';
import { SESSION_COOKIE } from '../../server/src/plugins/app/sessions.js';
import { createSessionTokens } from '../../server/src/sessions/session-token.js';
import { TEST_SESSION_SECRET, type TestApp } from './test-app.js';

// The test data of server tests, each made in one call as Outline's factories make theirs
// (`buildUser(overrides)`): a member or staff member signed in, a post live on the site, a
// comment under it, an integration's keys. Members and comments are written straight to the
// database; posts and integrations go through the desk's own API, as a staff member, so they are
// what the desk would have made. How an account is registered, a post published or a comment
// written is tested once, in those areas' own tests.

let made = 0;
/** A number no other call in this process answers: for addresses, slugs and titles. */
const next = () => `${Date.now()}${(made += 1)}`;

/**
 * An address no account has yet: its prefix says which test file made it, the time and a count
 * keep it apart from every other.
 */
export const uniqueEmail = (prefix: string) => `${prefix}${next()}@example.com`;

/** An account made by `buildMember`, with the cookie of its signed-in browser. */
export interface Member {
  userId: string;
  email: string;
  sessionId: string;
  cookie: string;
  /** The staff role its address is listed for, if any. */
  role: StaffRole | null;
}

/** What the factories need of a site: the real app (for the calls), its database and config. */
type FactorySite = Pick<TestApp, 'app' | 'database' | 'config'>;
type SeedingSite = Pick<TestApp, 'database' | 'config'>;

/** Where the test app's env lists each staff role, for a clear message when a role is missing. */
const ROLE_LISTS = {
  owner: ['owners', 'STAFF_EMAILS'],
  editor: ['editors', 'EDITOR_EMAILS'],
  writer: ['writers', 'WRITER_EMAILS'],
} as const satisfies Record<StaffRole, readonly [string, string]>;

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
async function payForAYear(t: SeedingSite, userId: string, tier?: string): Promise<void> {
  const now = new Date();
  await withTransaction(t.database.pool, async (tx) => {
    // The year is for the tier named, as the early-access PaymentIntent's metadata says it.
    const { rows } = await tx.query<{ id: number }>('SELECT id FROM tiers WHERE slug = $1', [
      tier ?? null,
    ]);
    const tierId = rows[0]?.id ?? null;
    if (tier !== undefined && tierId === null) {
      throw new Error(`There is no "${tier}" tier: make it with buildTier`);
    }
    await applyPaymentFacts(
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
          tierId,
        },
      ],
      { graceDays: t.config.membership.graceDays },
    );
  });
}

interface SignIn {
  /** When this browser signed in (now unless said): the desk's 12-hour rule reads it. */
  signedInAt?: Date;
  method?: SignInMethod;
  /** The User-Agent this browser signed in with, as the session keeps it. */
  userAgent?: string;
}

/** A new session of the account, as signing in makes one: its id and the browser's cookie. */
async function signIn(t: SeedingSite, userId: string, options: SignIn = {}) {
  const sessionId = randomUUID();
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
  const { rows } = await t.database.pool.query<{ sessionVersion: number }>(
    `SELECT "sessionVersion" FROM users WHERE id = $1`,
    [userId],
  );
  const token = await createSessionTokens(TEST_SESSION_SECRET).sign(
    userId,
    rows[0]?.sessionVersion ?? 1,
    sessionId,
  );
  return { sessionId, cookie: `${SESSION_COOKIE}=${token}` };
}

/**
 * An account with a proven address, signed in on a browser of its own, written straight to the
 * database in one call: for tests about what a member or staff member can do, not about how they
 * got an account (registration by mail is tested in the accounts tests). Staff roles come from the
 * address, as in production: `role` takes an address the test app's STAFF_EMAILS, EDITOR_EMAILS or
 * WRITER_EMAILS lists for it.
 */
export async function buildMember(
  t: SeedingSite,
  overrides: SignIn & {
    email?: string;
    /** A staff role: the address is `email` if it is listed for it, else the next one listed. */
    role?: StaffRole;
    /** A year paid once, on the ledger. */
    paid?: boolean;
    /** The slug of the tier the year paid is for (`buildTier` makes one); the first tier if not. */
    tier?: string;
    /** No proven address (a registered reader who never followed the mailed link). */
    unproven?: boolean;
    /** A password to sign in with (else none: the account signs in by mailed link only). */
    password?: string;
    /** The name the account shows (on its comments, as an author). */
    name?: string;
  } = {},
): Promise<Member> {
  const userId = randomUUID();
  const email = overrides.role
    ? await staffAddress(t, overrides.role, overrides.email)
    : normalizeEmail(overrides.email ?? `member-${userId}@example.com`);
  const passwordHash = overrides.password ? await getPasswordHash(overrides.password) : null;
  await t.database.pool.query(
    `INSERT INTO users (id, email, name, "passwordHash", "emailVerifiedAt", "sessionVersion", "updatedAt")
     VALUES ($1, $2, $3, $4, CASE WHEN $5 THEN NULL ELSE now() END, 1, now())`,
    [userId, email, overrides.name ?? null, passwordHash, overrides.unproven === true],
  );
  const session = await signIn(t, userId, overrides);
  if (overrides.paid || overrides.tier) await payForAYear(t, userId, overrides.tier);
  return { userId, email, ...session, role: staffRoleOf(t.config.staff, email) ?? null };
}

/**
 * One signed-in staff member per role named, in that order, each on the next address the test
 * app's env lists for the role: `const [owner, editor] = await buildStaff(t, 'owner', 'editor')`.
 */
export async function buildStaff<const Roles extends readonly StaffRole[]>(
  t: SeedingSite,
  ...roles: Roles
): Promise<{ [K in keyof Roles]: Member }> {
  const staff: Member[] = [];
  // One after another: two of one role must not both take its first free address.
  for (const role of roles) staff.push(await buildMember(t, { role }));
  return staff as { [K in keyof Roles]: Member };
}

/**
 * Who makes a post or an integration when a test names nobody: the site's first owner with an
 * account (or editor, for `roles` that allow one), signed in anew, else a new owner on the next
 * address STAFF_EMAILS lists.
 */
async function deskStaff(t: SeedingSite, roles: readonly StaffRole[]): Promise<Member> {
  for (const role of roles) {
    const listed = t.config.staff[ROLE_LISTS[role][0]];
    const { rows } = await t.database.pool.query<{ id: string; email: string }>(
      'SELECT id, email FROM users WHERE email = ANY($1) ORDER BY "createdAt", email LIMIT 1',
      [listed],
    );
    const found = rows[0];
    if (found)
      return { userId: found.id, email: found.email, role, ...(await signIn(t, found.id)) };
  }
  if (t.config.staff.owners.length === 0) {
    throw new Error('The factory acts as an owner: list one in STAFF_EMAILS, or pass `by`');
  }
  return buildMember(t, { role: 'owner' });
}

/** The app's answer to `who`, which must be `status`: its JSON. */
async function answer<T>(
  t: FactorySite,
  who: Member,
  method: HTTPMethods,
  url: string,
  payload: object,
  status: number,
): Promise<T> {
  const response: LightMyRequestResponse = await t.app.inject({
    method,
    url,
    headers: { cookie: who.cookie },
    payload,
  });
  if (response.statusCode !== status) {
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  }
  return response.json<T>();
}

/** What `buildPost` takes: the post's fields (its kind's, contract/post-fields.ts) and how it is. */
export type PostOverrides = Record<string, unknown> & {
  kind?: PostKind;
  /** Published (the default, now unless `at` says when), a draft, or scheduled for `at`. */
  status?: 'published' | 'draft' | 'scheduled';
  /** An ISO date-time: when it was (or, scheduled, will be) published. */
  at?: string;
  /** The staff member who writes and publishes it (else the site's first owner or editor). */
  by?: Member;
};

/** A kind's fields as far as publishing needs them, each made unique by `n`. */
const POST_DEFAULTS: Partial<Record<PostKind, (n: string) => Record<string, unknown>>> = {
  article: (n) => ({
    title: `Renting, part ${n}`,
    category: 'Wealth',
    summary: 'Deposits, inventories and what a landlord may not ask for.',
    readingMinutes: 3,
    body: 'Read the whole lease, then read it again.\n',
  }),
  campaign: (n) => ({
    title: `Fund the night bus, part ${n}`,
    category: 'Direct Action',
    summary: 'Keep the night bus running for shift workers.',
    externalLink: 'https://nightbus.example.org/',
  }),
  boycott: (n) => ({
    title: `Skip the fast fashion sale, part ${n}`,
    reason: 'They still will not publish their factories.',
    boycottStatus: 'Ongoing',
    alternative: { name: 'Repair cafés', description: 'Mend what you have.' },
    updates: [
      { date: '2026-01-05', note: 'It began.' },
      { date: '2026-02-05', note: 'It grew.' },
    ],
  }),
  page: (n) => ({ title: `About us, part ${n}`, body: 'We are a cooperative.\n' }),
};

/**
 * A post made in the desk (`POST /api/desk/posts`) and, unless a draft, published or scheduled
 * (`/publish`), as `by` or the site's first owner: an article unless `kind` says, its fields the
 * kind's defaults (a title no other post has, so its slug too) and `overrides`. Answers the post
 * as the desk answered it (`id`, `slug`, `path`, `version`…), once the site shows it.
 */
export async function buildPost(t: FactorySite, overrides: PostOverrides = {}): Promise<PostJson> {
  const { status = 'published', at, by, kind = 'article', ...fields } = overrides;
  const writer = by ?? (await deskStaff(t, ['owner', 'editor']));
  const n = next();
  const { post } = await answer<{ post: PostJson }>(
    t,
    writer,
    'POST',
    '/api/desk/posts',
    { kind, ...POST_DEFAULTS[kind]?.(n), ...fields },
    201,
  );
  if (status === 'draft') return post;
  if (status === 'scheduled' && !at) throw new Error('A scheduled post needs `at`, a date ahead');
  const published = await answer<{ post: PostJson }>(
    t,
    writer,
    'POST',
    `/api/desk/posts/${post.id}/publish`,
    { version: post.version, ...(at && { at }) },
    200,
  );
  return published.post;
}

/** A comment as `buildComment` wrote it. */
export interface BuiltComment {
  id: string;
  postId: number;
  userId: string;
}

/**
 * A comment under a post, written straight to the database (writing one is tested with the
 * comments' API): by `by` (else a new paying member), visible, its HTML the body in a paragraph,
 * now unless `createdAt` says; `likes`, `status`, `parentId` as given.
 */
export async function buildComment(
  t: SeedingSite,
  overrides: {
    post: Pick<PostJson, 'id'>;
    by?: Pick<Member, 'userId'>;
    body?: string;
    html?: string;
    parentId?: string;
    status?: 'visible' | 'hidden' | 'pending';
    likes?: number;
    createdAt?: Date;
  },
): Promise<BuiltComment> {
  const userId = (overrides.by ?? (await buildMember(t, { paid: true }))).userId;
  const body = overrides.body ?? `A comment, ${next()}.`;
  const id = randomUUID();
  await t.database.pool.query(
    `INSERT INTO comments (id, "postId", "parentId", "userId", body, html, status, likes, "createdAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      id,
      overrides.post.id,
      overrides.parentId ?? null,
      userId,
      body,
      overrides.html ?? `<p>${body}</p>`,
      overrides.status ?? 'visible',
      overrides.likes ?? 0,
      overrides.createdAt ?? new Date(),
    ],
  );
  return { id, postId: overrides.post.id, userId };
}

/** An integration as the desk made it: its id and its two keys, shown this once. */
export interface BuiltIntegration {
  id: string;
  name: string;
  /** The Content API's `key`. */
  contentKey: string;
  /** The Admin API's key, `<id>:<secret in hex>`. */
  adminKey: string;
}

/** An integration made in the desk (`POST /api/desk/integrations`) by `by` or the first owner. */
export async function buildIntegration(
  t: FactorySite,
  overrides: { name?: string; by?: Member } = {},
): Promise<BuiltIntegration> {
  const owner = overrides.by ?? (await deskStaff(t, ['owner']));
  const { integration } = await answer<{ integration: BuiltIntegration }>(
    t,
    owner,
    'POST',
    '/api/desk/integrations',
    { name: overrides.name ?? `Integration ${next()}` },
    201,
  );
  return integration;
}

/** A tier made by `buildTier`. */
export interface BuiltTier {
  id: number;
  slug: string;
  name: string;
}

/**
 * The one tier a site from before tiers shows readers (`GET /api/config`'s `tiers`): Supporter,
 * priced as the plans it sold, in cents.
 */
export const firstTierAsShown = (prices: { monthly: number; yearly: number; once: number }) => ({
  slug: 'supporter',
  name: 'Supporter',
  description: '',
  benefits: [],
  prices,
  currency: 'usd',
  trialDays: 0,
  order: 0,
});

/**
 * A tier beside the first, with its three plans (a year paid once, monthly and yearly), after the
 * tiers there are: `await buildTier(t, { slug: 'founder' })`. Written straight to the database;
 * how an owner makes one is tested in the desk's tier tests.
 */
export async function buildTier(
  t: SeedingSite,
  overrides: { slug?: string; name?: string; visible?: boolean; cents?: number } = {},
): Promise<BuiltTier> {
  const slug = overrides.slug ?? `tier-${next()}`;
  const name = overrides.name ?? slug.charAt(0).toUpperCase() + slug.slice(1).replaceAll('-', ' ');
  const cents = overrides.cents ?? t.config.membership.priceCents * 2;
  return withTransaction(t.database.pool, async (tx) => {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO tiers (slug, name, visible, position, "updatedAt")
       VALUES ($1, $2, $3, (SELECT coalesce(max(position), -1) + 1 FROM tiers), now())
       RETURNING id`,
      [slug, name, overrides.visible ?? true],
    );
    const id = rows[0]?.id;
    if (id === undefined) throw new Error('INSERT … RETURNING gave no row');
    await tx.query(
      `INSERT INTO plans ("tierId", id, enabled, "amountCents", currency, "updatedAt")
       VALUES ($1, 'early-access', true, $2, $4, now()), ($1, 'monthly', true, $3, $4, now()),
              ($1, 'yearly', true, $2, $4, now())`,
      [id, cents, Math.max(50, Math.round(cents / 10)), t.config.membership.currency],
    );
    return { id, slug, name };
  });
}

/**
 * The slug of the tier of a member's membership now, and of each period on their ledger (oldest
 * paid first); null for an account without a membership.
 */
export async function tiersOnLedger(
  t: SeedingSite,
  userId: string,
): Promise<{ membership: string; periods: string[] } | null> {
  const { rows } = await t.database.pool.query<{ membership: string; periods: string[] }>(
    `SELECT t.slug AS membership,
            (SELECT array_agg(et.slug ORDER BY e."paidAt") FROM entitlements e
               JOIN tiers et ON et.id = e."tierId" WHERE e."userId" = m."userId") AS periods
       FROM memberships m JOIN tiers t ON t.id = m."tierId" WHERE m."userId" = $1`,
    [userId],
  );
  return rows[0] ?? null;
}

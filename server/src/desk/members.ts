import { UUID_PATTERN } from '../../../contract/constants.js';
import type {
  DeskMember,
  DeskNewsletterState,
  DeskMemberFilter,
  DeskMemberRow,
  DeskMembersPage,
} from '../../../contract/desk-api.js';
import { pageCursor } from '../db/page-cursor.js';
import { DomainError } from '../domain-error.js';
import { placeEntries, type LedgerEntry } from '../memberships/derive-membership.js';
import { toMembershipView, type MembershipState } from '../memberships/memberships.js';
import type { Services } from '../services.js';
import type { StripeMode } from '../stripe/key-check.js';
import { listUserSessions } from '../sessions/user-sessions.js';
import { listAudit } from '../staff/audit.js';
import { readTiers, tierBySlug } from '../memberships/tier-catalog.js';
import { subscriberOfAccountSql } from '../newsletter/consent.js';
import { MEMBER_FILTERS, tierFilter } from './member-filters.js';
import { stripeDashboardUrl } from './stripe-links.js';
import { describeBrowser } from '../sessions/describe-browser.js';

/**
 * The desk's members: the searchable list (keyset pagination over `users ("createdAt", id)`,
 * newest first: a page costs the same at the millionth row as at the first) and one member's
 * whole record.
 */

export const MEMBERS_PAGE_SIZE = 50;

export interface MemberSearch {
  q?: string | undefined;
  filter?: DeskMemberFilter | undefined;
  /** A tier's slug: its members now. */
  tier?: string | undefined;
}

/** A search naming a tier the site does not have: a 400 naming the tiers there are. */
export async function requireKnownTier(
  { db }: Pick<Services, 'db'>,
  search: MemberSearch,
): Promise<void> {
  if (search.tier !== undefined) tierBySlug(await readTiers(db.pool), search.tier);
}

/** Where a page starts: after this user in the list's order (`createdAt`, then id). */
export const MEMBERS_CURSOR = pageCursor('after', 'date', 'uuid');

/** `%`, `_` and `\` match themselves in the LIKE pattern. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The WHERE clause for a search and a filter, with its parameters numbered from `first`. What `q`
 * looks like says what it is: a user id (or an anonymous id merged into an account), a Stripe
 * customer, subscription, PaymentIntent or invoice id (exact, case kept), else any part of an
 * email (emails are stored lower-cased; the trigram index serves any substring of 3 or more).
 */
export function memberWhere(search: MemberSearch, first = 1): { sql: string; params: unknown[] } {
  const conditions = [MEMBER_FILTERS[search.filter ?? 'all']];
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${first + params.length - 1}`;
  };
  if (search.tier !== undefined) conditions.push(tierFilter(param(search.tier)));
  const q = search.q?.trim() ?? '';
  if (UUID_PATTERN.test(q.toLowerCase())) {
    const id = param(q.toLowerCase());
    conditions.push(
      `(u.id = ${id}::uuid OR u.id = (SELECT "toUserId" FROM user_merges WHERE "fromUserId" = ${id}::uuid))`,
    );
  } else if (/^cus_\w+$/.test(q)) {
    conditions.push(`u.id IN (SELECT "userId" FROM stripe_customers WHERE id = ${param(q)})`);
  } else if (/^sub_\w+$/.test(q)) {
    conditions.push(`u.id IN (SELECT "userId" FROM subscriptions WHERE id = ${param(q)})`);
  } else if (/^(pi|in)_\w+$/.test(q)) {
    const id = param(q);
    conditions.push(
      `u.id IN (SELECT "userId" FROM entitlements WHERE id = ${id} OR "paymentIntentId" = ${id})`,
    );
  } else if (q !== '') {
    conditions.push(`u.email LIKE ${param(`%${escapeLike(q.toLowerCase())}%`)}`);
  }
  return { sql: conditions.join(' AND '), params };
}

/** A user as the desk's list query reads it (the members CSV reads the same, and more). */
export interface MemberSqlRow {
  id: string;
  email: string | null;
  createdAt: Date;
  plan: 'one-time' | 'subscription' | null;
  status: string | null;
  expiresAt: Date | null;
  /** The slug of the membership's tier; null without a membership. */
  tier: string | null;
  customerIds: string[];
  newsletter: DeskNewsletterState | null;
}

/** The slug of the tier of `m`, the user's membership (NULL without one). */
export const TIER_SLUG_SQL = `(SELECT t.slug FROM tiers t WHERE t.id = m."tierId")`;

/** The state of the newsletter sign-up of `u`'s address (newsletter/consent.ts), or NULL. */
export const NEWSLETTER_STATE_SQL = `(SELECT n.state::text FROM newsletter_subscribers n
                                      WHERE ${subscriberOfAccountSql('n', 'u')})`;

const membershipOf = (row: Pick<MemberSqlRow, 'plan' | 'status' | 'expiresAt'>) =>
  row.plan && row.status && row.expiresAt
    ? ({ plan: row.plan, status: row.status, expiresAt: row.expiresAt } satisfies MembershipState)
    : null;

function toRow(row: MemberSqlRow): DeskMemberRow {
  const view = toMembershipView(membershipOf(row));
  return {
    id: row.id,
    email: row.email,
    createdAt: row.createdAt.toISOString(),
    isMember: view.isSubscribed,
    membership: view.membership,
    tier: row.tier,
    customerIds: row.customerIds,
    newsletter: row.newsletter,
  };
}

/** The SQL of one page of the list (and `limit + 1` rows, to know if there is a next one). */
export function membersPageQuery(
  search: MemberSearch & { after?: string | undefined },
  limit = MEMBERS_PAGE_SIZE,
): { text: string; values: unknown[] } {
  const [afterTime, afterId] = search.after ? MEMBERS_CURSOR.decode(search.after) : [null, null];
  const where = memberWhere(search, 4);
  return {
    text: `SELECT u.id, u.email, u."createdAt", m.plan::text AS plan, m.status, m."expiresAt",
            ${TIER_SLUG_SQL} AS tier,
            ARRAY(SELECT c.id FROM stripe_customers c WHERE c."userId" = u.id
                  ORDER BY c."createdAt") AS "customerIds",
            ${NEWSLETTER_STATE_SQL} AS newsletter
     FROM users u LEFT JOIN memberships m ON m."userId" = u.id
     WHERE ${where.sql}
       AND ($1::timestamptz IS NULL OR (u."createdAt", u.id) < ($1::timestamptz, $2::uuid))
     ORDER BY u."createdAt" DESC, u.id DESC
     LIMIT $3`,
    values: [afterTime, afterId, limit + 1, ...where.params],
  };
}

/** One page of the members list, newest first. */
export async function listMembers(
  { db }: Pick<Services, 'db'>,
  search: MemberSearch & { after?: string | undefined },
  limit = MEMBERS_PAGE_SIZE,
): Promise<DeskMembersPage> {
  await requireKnownTier({ db }, search);
  const query = membersPageQuery(search, limit);
  const { rows } = await db.pool.query<MemberSqlRow>(query.text, query.values);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    members: page.map(toRow),
    next: rows.length > limit && last ? MEMBERS_CURSOR.encode([last.createdAt, last.id]) : null,
  };
}

interface LedgerSqlRow extends LedgerEntry {
  stateReason: string | null;
  amountCents: number;
  currency: string;
  paymentIntentId: string | null;
  compReason: string | null;
}

/** Everything the desk shows about one user; 404 when there is no such user. */
export async function readMember(
  { db }: Pick<Services, 'db'>,
  userId: string,
  options: { stripeMode: StripeMode | null; now?: Date },
): Promise<DeskMember> {
  const now = options.now ?? new Date();
  const link = (id: string | null) => stripeDashboardUrl(options.stripeMode, id);
  const { rows: users } = await db.pool.query<
    Omit<MemberSqlRow, 'customerIds' | 'tier'> & {
      mergedIds: string[];
      newsletterSince: Date | null;
      newsletterUpdatedAt: Date | null;
    }
  >(
    `SELECT u.id, u.email, u."createdAt", m.plan::text AS plan, m.status, m."expiresAt",
            ARRAY(SELECT "fromUserId"::text FROM user_merges WHERE "toUserId" = u.id
                  ORDER BY "createdAt") AS "mergedIds",
            n.state::text AS newsletter,
            CASE n.state WHEN 'confirmed' THEN n."confirmedAt"
                         WHEN 'unsubscribed' THEN n."unsubscribedAt" END AS "newsletterSince",
            n."updatedAt" AS "newsletterUpdatedAt"
     FROM users u LEFT JOIN memberships m ON m."userId" = u.id
     LEFT JOIN newsletter_subscribers n ON ${subscriberOfAccountSql('n', 'u')}
     WHERE u.id = $1`,
    [userId],
  );
  const user = users[0];
  if (!user) throw new DomainError(404, 'member_not_found', 'There is no such member.');

  const [entries, subscriptions, customers, events, claims, sessions, audit] = await Promise.all([
    db.pool.query<LedgerSqlRow>(
      `SELECT id, source::text AS source, state::text AS state, "stateReason", "amountCents",
              currency, "paidAt", "periodStart", "periodEnd", days, "subscriptionId",
              "paymentIntentId", "compReason"
       FROM entitlements WHERE "userId" = $1 ORDER BY "paidAt" DESC, id`,
      [userId],
    ),
    db.pool.query<{
      id: string;
      status: string;
      customerId: string;
      stripeCreatedAt: Date;
      endedAt: Date | null;
    }>(
      `SELECT id, status, "customerId", "stripeCreatedAt", "endedAt" FROM subscriptions
       WHERE "userId" = $1 ORDER BY "stripeCreatedAt" DESC`,
      [userId],
    ),
    db.pool.query<{ id: string }>(
      `SELECT id FROM stripe_customers WHERE "userId" = $1 ORDER BY "createdAt"`,
      [userId],
    ),
    db.pool.query<{
      id: string;
      type: string;
      receivedAt: Date;
      objectId: string | null;
      outcome: string | null;
      notes: string | null;
    }>(
      `SELECT e.id, e.type, e."receivedAt", e."objectId", e.outcome, e.notes
       FROM stripe_event_users l JOIN stripe_events e ON e.id = l."eventId"
       WHERE l."userId" = $1 ORDER BY e."receivedAt" DESC, e.id LIMIT 500`,
      [userId],
    ),
    db.pool.query<{ perkId: string; claimedAt: Date }>(
      `SELECT "perkId", "claimedAt" FROM perk_claims WHERE "userId" = $1
       UNION ALL
       SELECT "perkId", "claimedAt" FROM perk_codes WHERE "claimedBy" = $1
       ORDER BY "claimedAt" DESC`,
      [userId],
    ),
    listUserSessions({ db }, userId),
    listAudit({ db }, { targetUserId: userId, limit: 100 }),
  ]);

  const coverage = placeEntries(entries.rows, subscriptions.rows);
  const view = toMembershipView(membershipOf(user), now);
  return {
    user: {
      id: user.id,
      email: user.email,
      createdAt: user.createdAt.toISOString(),
      isMember: view.isSubscribed,
      membership: view.membership,
      mergedIds: user.mergedIds,
      newsletter: user.newsletter
        ? {
            state: user.newsletter,
            since: (
              user.newsletterSince ??
              user.newsletterUpdatedAt ??
              user.createdAt
            ).toISOString(),
          }
        : null,
    },
    ledger: entries.rows.map((entry) => ({
      id: entry.id,
      source: entry.source,
      state: entry.state,
      stateReason: entry.stateReason,
      amountCents: entry.amountCents,
      currency: entry.currency,
      paidAt: entry.paidAt.toISOString(),
      periodStart: entry.periodStart?.toISOString() ?? null,
      periodEnd: entry.periodEnd?.toISOString() ?? null,
      days: entry.days,
      covers: coverage
        .filter((c) => c.entryId === entry.id)
        .map((c) => ({ from: c.start.toISOString(), until: c.end.toISOString() })),
      subscriptionId: entry.subscriptionId,
      paymentIntentId: entry.paymentIntentId,
      compReason: entry.compReason,
      endable:
        entry.source === 'comp' &&
        entry.periodEnd !== null &&
        entry.periodEnd.getTime() > now.getTime(),
      // Comps and granted seats were given, not paid: Stripe has nothing of them (a seat's money
      // is its supporter's payment, on the Seats page).
      stripeUrl:
        entry.source === 'comp' || entry.source === 'sponsored'
          ? null
          : link(entry.paymentIntentId ?? entry.id),
    })),
    subscriptions: subscriptions.rows.map((row) => ({
      id: row.id,
      status: row.status,
      customerId: row.customerId,
      createdAt: row.stripeCreatedAt.toISOString(),
      endedAt: row.endedAt?.toISOString() ?? null,
      stripeUrl: link(row.id),
    })),
    customers: customers.rows.map((row) => ({ id: row.id, stripeUrl: link(row.id) })),
    events: events.rows.map((row) => ({
      id: row.id,
      type: row.type,
      receivedAt: row.receivedAt.toISOString(),
      objectId: row.objectId,
      outcome: row.outcome,
      notes: row.notes,
      stripeUrl: link(row.id),
    })),
    sessions: sessions.map((row) => ({
      id: row.id,
      userAgent: row.userAgent,
      browser: describeBrowser(row.userAgent),
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
      signedInAt: row.signedInAt?.toISOString() ?? null,
    })),
    perkClaims: claims.rows.map((row) => ({
      perkId: row.perkId,
      claimedAt: row.claimedAt.toISOString(),
    })),
    audit: audit.entries,
  };
}

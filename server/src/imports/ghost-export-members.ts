import type pg from 'pg';
import { topicSlug } from '../../../contract/topics.js';
import { isMembershipActive, type MembershipState } from '../memberships/memberships.js';
import { subscriberOfAccountSql } from '../newsletter/consent.js';
import { ghostId, ghostTierId, ghostUuid } from './ghost-ids.js';

/**
 * The site's members as Ghost knows members: every account with an address, and every address on
 * the newsletter that has no account (Ghost has no list of subscribers apart from its members, so
 * leaving them out would lose them on the way). Read a batch at a time by the Ghost JSON export
 * (`ghostMembersText`) and the desk's members CSV in Ghost's columns (ghost-members-csv.ts),
 * so both say the same of each member, consent first: `subscribed` is the newsletter state of the
 * address (newsletter/consent.ts), whether or not the member has signed in here since.
 */

const MEMBER_BATCH_SIZE = 1000;

export interface GhostMemberRecord {
  /** The account's id, or the subscriber row's for an address without an account. */
  key: string;
  kind: 'member' | 'subscriber';
  email: string;
  name: string | null;
  note: string | null;
  labels: string[];
  createdAt: Date;
  updatedAt: Date;
  subscribed: boolean;
  /** Ghost's statuses: `comped` for a comp now (until its end), and for a membership nobody pays
   * Stripe for (a gift, a solidarity seat: until it ends); `paid` for a membership a Stripe
   * customer pays; `free` for everyone else. */
  status: 'free' | 'comped' | 'paid';
  compedUntil: Date | null;
  /** The tier of a paid or comped member's access now. */
  tierId: number | null;
  customerIds: string[];
}

interface AccountSqlRow {
  id: string;
  email: string;
  name: string | null;
  note: string | null;
  labels: string[];
  createdAt: Date;
  updatedAt: Date;
  plan: MembershipState['plan'] | null;
  status: string | null;
  expiresAt: Date | null;
  tierId: number | null;
  customerIds: string[];
  compUntil: Date | null;
  newsletter: string | null;
}

/** How many members the export holds (the accounts, and the subscribers without one). */
export const COUNT_GHOST_MEMBERS_SQL = `
  (SELECT count(*)::int FROM users WHERE email IS NOT NULL)
  + (SELECT count(*)::int FROM newsletter_subscribers s
     WHERE s.state = 'confirmed' AND NOT EXISTS (SELECT 1 FROM users u WHERE u.email = s.email))`;

function accountRecord(row: AccountSqlRow, now: Date): GhostMemberRecord {
  const membership =
    row.plan && row.status && row.expiresAt
      ? { plan: row.plan, status: row.status, expiresAt: row.expiresAt }
      : null;
  const active = isMembershipActive(membership, now);
  let status: GhostMemberRecord['status'] = 'free';
  let compedUntil: Date | null = null;
  if (row.compUntil) {
    status = 'comped';
    compedUntil = row.compUntil;
  } else if (active && row.customerIds.length > 0) {
    status = 'paid';
  } else if (active) {
    status = 'comped';
    compedUntil = membership?.expiresAt ?? null;
  }
  return {
    key: row.id,
    kind: 'member',
    email: row.email,
    name: row.name,
    note: row.note,
    labels: row.labels,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    subscribed: row.newsletter === 'confirmed',
    status,
    compedUntil,
    tierId: status === 'free' ? null : row.tierId,
    customerIds: row.customerIds,
  };
}

/** Every member, a batch at a time: the accounts by id, then the subscribers without one. */
export async function* readGhostMembers(
  pool: Pick<pg.Pool, 'query'>,
  now: Date,
): AsyncGenerator<GhostMemberRecord[]> {
  let after: string | null = null;
  for (;;) {
    const { rows }: { rows: AccountSqlRow[] } = await pool.query<AccountSqlRow>(
      `SELECT u.id, u.email, u.name, u.note, u.labels, u."createdAt", u."updatedAt",
              m.plan::text AS plan, m.status, m."expiresAt", m."tierId",
              ARRAY(SELECT c.id FROM stripe_customers c WHERE c."userId" = u.id
                    ORDER BY c."createdAt") AS "customerIds",
              (SELECT max(e."periodEnd") FROM entitlements e
               WHERE e."userId" = u.id AND e.source = 'comp' AND e.state = 'active'
                 AND e."periodStart" <= $3 AND e."periodEnd" > $3) AS "compUntil",
              (SELECT n.state::text FROM newsletter_subscribers n
               WHERE ${subscriberOfAccountSql('n', 'u')}) AS newsletter
       FROM users u LEFT JOIN memberships m ON m."userId" = u.id
       WHERE u.email IS NOT NULL AND ($1::uuid IS NULL OR u.id > $1::uuid)
       ORDER BY u.id LIMIT $2`,
      [after, MEMBER_BATCH_SIZE, now],
    );
    if (rows.length > 0) yield rows.map((row) => accountRecord(row, now));
    const last = rows.at(-1);
    if (rows.length < MEMBER_BATCH_SIZE || !last) break;
    after = last.id;
  }
  after = null;
  for (;;) {
    const { rows }: { rows: { id: string; email: string; since: Date; updatedAt: Date }[] } =
      await pool.query(
        `SELECT s.id, s.email, coalesce(s."confirmedAt", s."createdAt") AS since, s."updatedAt"
         FROM newsletter_subscribers s
         WHERE s.state = 'confirmed' AND ($1::uuid IS NULL OR s.id > $1::uuid)
           AND NOT EXISTS (SELECT 1 FROM users u WHERE u.email = s.email)
         ORDER BY s.id LIMIT $2`,
        [after, MEMBER_BATCH_SIZE],
      );
    if (rows.length > 0) {
      yield rows.map((row) => ({
        key: row.id,
        kind: 'subscriber' as const,
        email: row.email,
        name: null,
        note: null,
        labels: [],
        createdAt: row.since,
        updatedAt: row.updatedAt,
        subscribed: true,
        status: 'free' as const,
        compedUntil: null,
        tierId: null,
        customerIds: [],
      }));
    }
    const last = rows.at(-1);
    if (rows.length < MEMBER_BATCH_SIZE || !last) break;
    after = last.id;
  }
}

/** A JSON array written one element at a time, inside the export's text. */
export function* arrayText(name: string, rows: Iterable<unknown>): Generator<string> {
  yield `,${JSON.stringify(name)}:[`;
  let separator = '';
  for (const row of rows) {
    yield separator + JSON.stringify(row);
    separator = ',';
  }
  yield ']';
}

/**
 * The members' tables of a Ghost JSON export (`members`, `labels`, `members_labels`,
 * `members_stripe_customers`, `members_products`), each starting with its comma. A paid or comped
 * member names the tier of their access now in `members_products` (a comp's until its end).
 */
export async function* ghostMembersText(
  pool: Pick<pg.Pool, 'query'>,
  siteUrl: string,
  now: Date,
): AsyncGenerator<string> {
  const iso = (date: Date | null) => (date ? date.toISOString() : null);
  const id = (kind: string, key: string | number) => ghostId(siteUrl, kind, key);
  const labels = new Map<string, { id: string; name: string; slug: string }>();
  const membersLabels: { id: string; member_id: string; label_id: string; sort_order: number }[] =
    [];
  const customers: {
    id: string;
    member_id: string;
    customer_id: string;
    email: string;
    created_at: string;
  }[] = [];
  const membersProducts: {
    id: string;
    member_id: string;
    product_id: string;
    sort_order: number;
    expiry_at: string | null;
  }[] = [];
  yield ',"members":[';
  let separator = '';
  for await (const batch of readGhostMembers(pool, now)) {
    for (const row of batch) {
      const memberId = id(row.kind, row.key);
      if (row.tierId !== null) {
        membersProducts.push({
          id: id('member-product', row.key),
          member_id: memberId,
          product_id: ghostTierId(siteUrl, row.tierId),
          sort_order: 0,
          expiry_at: iso(row.compedUntil),
        });
      }
      row.labels.forEach((name, order) => {
        const slug = topicSlug(name) || id('label', name);
        let label = labels.get(slug);
        if (!label) {
          label = { id: id('label', slug), name, slug };
          labels.set(slug, label);
        }
        membersLabels.push({
          id: id('member-label', `${row.key}:${slug}`),
          member_id: memberId,
          label_id: label.id,
          sort_order: order,
        });
      });
      for (const customerId of row.customerIds) {
        customers.push({
          id: id('member-customer', customerId),
          member_id: memberId,
          customer_id: customerId,
          email: row.email,
          created_at: row.createdAt.toISOString(),
        });
      }
      const member = {
        id: memberId,
        uuid: ghostUuid(siteUrl, row.kind, row.key),
        email: row.email,
        name: row.name,
        note: row.note,
        subscribed: row.subscribed,
        status: row.status,
        comped_until: iso(row.compedUntil),
        created_at: row.createdAt.toISOString(),
        updated_at: row.updatedAt.toISOString(),
      };
      yield separator + JSON.stringify(member);
      separator = ',';
    }
  }
  yield ']';
  const stamp = now.toISOString();
  yield* arrayText(
    'labels',
    [...labels.values()].map((label) => ({ ...label, created_at: stamp, updated_at: stamp })),
  );
  yield* arrayText('members_labels', membersLabels);
  yield* arrayText('members_stripe_customers', customers);
  yield* arrayText('members_products', membersProducts);
}

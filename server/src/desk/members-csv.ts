import type { Readable } from 'node:stream';
import { isMembershipActive } from '../memberships/memberships.js';
import type { Services } from '../services.js';
import { streamCsv } from './csv.js';
import {
  memberWhere,
  NEWSLETTER_STATE_SQL,
  TIER_SLUG_SQL,
  type MemberSearch,
  type MemberSqlRow,
} from './members.js';

/**
 * The members list as CSV (the list's own search and filter), read a batch at a time in the list's
 * keyset order and streamed as it comes (csv.ts).
 */

/** Rows read per query: small enough to stream early, large enough to cost few round trips. */
export const EXPORT_BATCH_SIZE = 1000;

/** Marks the export's queries (tests count them to see the stream start before the last one). */
export const EXPORT_QUERY_MARK = '/* desk members export */';

const COLUMNS = [
  'user_id',
  'email',
  'created_at',
  'member_now',
  'tier',
  'plan',
  'status',
  'expires_at',
  'stripe_customers',
  'paid_cents',
  'currency',
  'newsletter',
] as const;

type ExportRow = Record<(typeof COLUMNS)[number], string | number>;

interface ExportSqlRow extends MemberSqlRow {
  paidCents: number;
}

async function* exportRows(
  { db }: Pick<Services, 'db'>,
  search: MemberSearch,
  currency: string,
): AsyncGenerator<ExportRow> {
  const where = memberWhere(search, 5);
  let cursor = null as { createdAt: Date; id: string } | null;
  for (;;) {
    const { rows } = await db.pool.query<ExportSqlRow>(
      `${EXPORT_QUERY_MARK}
       SELECT u.id, u.email, u."createdAt", m.plan::text AS plan, m.status, m."expiresAt",
              ${TIER_SLUG_SQL} AS tier,
              ARRAY(SELECT c.id FROM stripe_customers c WHERE c."userId" = u.id
                    ORDER BY c."createdAt") AS "customerIds",
              (SELECT COALESCE(sum(e."amountCents"), 0)::int FROM entitlements e
               WHERE e."userId" = u.id AND e.currency = $4 AND e.state = 'active') AS "paidCents",
              ${NEWSLETTER_STATE_SQL} AS newsletter
       FROM users u LEFT JOIN memberships m ON m."userId" = u.id
       WHERE ${where.sql}
         AND ($1::timestamptz IS NULL OR (u."createdAt", u.id) < ($1::timestamptz, $2::uuid))
       ORDER BY u."createdAt" DESC, u.id DESC
       LIMIT $3`,
      [cursor?.createdAt ?? null, cursor?.id ?? null, EXPORT_BATCH_SIZE, currency, ...where.params],
    );
    for (const row of rows) {
      const membership =
        row.plan && row.status && row.expiresAt
          ? { plan: row.plan, status: row.status, expiresAt: row.expiresAt }
          : null;
      yield {
        user_id: row.id,
        email: row.email ?? '',
        created_at: row.createdAt.toISOString(),
        member_now: isMembershipActive(membership) ? 'yes' : 'no',
        // The membership's tier, lapsed or not; empty: never a member.
        tier: row.tier ?? '',
        plan: membership?.plan ?? '',
        status: membership?.status ?? '',
        expires_at: membership?.expiresAt.toISOString() ?? '',
        stripe_customers: row.customerIds.join(' '),
        paid_cents: row.paidCents,
        currency,
        // The newsletter state of the address (confirmed = subscribed); empty: never signed up.
        newsletter: row.newsletter ?? '',
      };
    }
    const last = rows.at(-1);
    if (rows.length < EXPORT_BATCH_SIZE || !last) return;
    cursor = { createdAt: last.createdAt, id: last.id };
  }
}

/** The CSV as a stream of text (UTF-8), header first. */
export function streamMembersCsv(
  deps: Pick<Services, 'db'>,
  search: MemberSearch,
  options: { currency: string },
): Readable {
  return streamCsv(COLUMNS, exportRows(deps, search, options.currency));
}

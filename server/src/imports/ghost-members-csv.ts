import type pg from 'pg';
import { readGhostMembers } from './ghost-export-members.js';

/**
 * Every member in the columns of Ghost's members CSV, the file Ghost's own members import takes
 * (and Cohort's: members-csv.ts): for a publisher moving to Ghost, or anywhere that reads it. The
 * members are the Ghost JSON export's (ghost-export-members.ts): every account with an address and
 * every newsletter subscriber without one, each subscribed as its address is. The desk streams the
 * rows as CSV (desk/csv.ts).
 */

export const GHOST_MEMBER_COLUMNS = [
  'email',
  'name',
  'note',
  'subscribed_to_emails',
  'complimentary_plan',
  'stripe_customer_id',
  'created_at',
  'deleted_at',
  'labels',
] as const;

export type GhostMemberCsvRow = Record<(typeof GHOST_MEMBER_COLUMNS)[number], string>;

export async function* ghostMembersCsvRows(
  pool: Pick<pg.Pool, 'query'>,
  now = new Date(),
): AsyncGenerator<GhostMemberCsvRow> {
  for await (const batch of readGhostMembers(pool, now)) {
    for (const member of batch) {
      yield {
        email: member.email,
        name: member.name ?? '',
        note: member.note ?? '',
        subscribed_to_emails: String(member.subscribed),
        complimentary_plan: String(member.status === 'comped'),
        // Ghost keeps one customer a member; the first is the one the member was known by first.
        stripe_customer_id: member.customerIds[0] ?? '',
        created_at: member.createdAt.toISOString(),
        deleted_at: '',
        // Ghost separates labels by commas: one inside a label would split it in two.
        labels: member.labels.map((label) => label.replaceAll(',', ' ')).join(','),
      };
    }
  }
}

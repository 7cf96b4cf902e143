import type { DeskMemberFilter } from '../../../contract/desk-api.js';
import { ACCESS_STATUSES } from '../memberships/derive-membership.js';

/**
 * The members list's filters, each one SQL condition over `users u` left-joined to its
 * `memberships m` (the row derived from the ledger). The list, the CSV export and the benchmark
 * all use these. (The newsletter's states are added here as two more conditions on its table.)
 */

const ACCESS = [...ACCESS_STATUSES].map((status) => `'${status}'`).join(', ');

/** Is the membership `m` giving access at `at` (the SQL form of `isMembershipActive`)? */
export const hasAccessSql = (at = 'now()') => `(m.status IN (${ACCESS}) AND m."expiresAt" > ${at})`;
const HAS_ACCESS = hasAccessSql();

export const MEMBER_FILTERS: Record<DeskMemberFilter, string> = {
  all: 'TRUE',
  /** A member now: what `/api/me` calls `isSubscribed`. */
  member: HAS_ACCESS,
  /** Was a member (has a membership row), is not now. */
  expired: `(m."userId" IS NOT NULL AND NOT ${HAS_ACCESS})`,
  /** A payment refunded, lost in a dispute or under one (now or ever). */
  refunded_or_disputed: `u.id IN (SELECT e."userId" FROM entitlements e
                                   WHERE e.state IN ('refunded', 'revoked', 'suspended'))`,
  /** Paid without an account: only their browser's cookie holds the membership. */
  anonymous: 'u.email IS NULL',
};

import type { DeskMemberFilter } from '../../../contract/desk-api.js';
import { ACCESS_STATUSES } from '../memberships/derive-membership.js';
import { subscriberOfAccountSql } from '../newsletter/consent.js';

/**
 * The members list's filters, each one SQL condition over `users u` left-joined to its
 * `memberships m` (the row derived from the ledger). The list, the CSV export and the benchmark
 * all use these. The newsletter's are semi-joins on the sign-up of the user's address (the
 * consent of the address, whether or not the account proved it: newsletter/consent.ts; both
 * addresses are unique): the planner either walks the users in the list's order and probes a hash
 * of the (few) subscribers in that state, or reads those subscribers first by the (state, …) index.
 */

/** A member now of the tier with the slug of this parameter. */
export const tierFilter = (param: string) =>
  `(${HAS_ACCESS} AND m."tierId" = (SELECT t.id FROM tiers t WHERE t.slug = ${param}))`;

const SUBSCRIBER_OF_U = subscriberOfAccountSql('n', 'u');

/** The user's address is on the newsletter in `state` (and `more`, a condition on `n`). */
const newsletterIs = (state: string, more = 'TRUE') =>
  `EXISTS (SELECT 1 FROM newsletter_subscribers n
           WHERE ${SUBSCRIBER_OF_U} AND n.state = '${state}' AND ${more})`;

const ACCESS = [...ACCESS_STATUSES].map((status) => `'${status}'`).join(', ');

/** Is the membership `m` giving access at `at` (the SQL form of `isMembershipActive`)? */
export const hasAccessSql = (at = 'now()') => `(m.status IN (${ACCESS}) AND m."expiresAt" > ${at})`;
const HAS_ACCESS = hasAccessSql();

export const MEMBER_FILTERS: Record<DeskMemberFilter, string> = {
  all: 'TRUE',
  /** A member now, of any tier: what `/api/me` calls `isSubscribed`. */
  paid: HAS_ACCESS,
  /** An account without access now (never a member, or no longer). */
  free: `(u.email IS NOT NULL AND NOT coalesce(${HAS_ACCESS}, false))`,
  /** `paid`, by its name before tiers (kept for the addresses that say it). */
  member: HAS_ACCESS,
  /** Was a member (has a membership row), is not now. */
  expired: `(m."userId" IS NOT NULL AND NOT ${HAS_ACCESS})`,
  /** A payment refunded, lost in a dispute or under one (now or ever). */
  refunded_or_disputed: `u.id IN (SELECT e."userId" FROM entitlements e
                                   WHERE e.state IN ('refunded', 'revoked', 'suspended'))`,
  /** Paid without an account: only their browser's cookie holds the membership. */
  anonymous: 'u.email IS NULL',
  /** Confirmed: the newsletter is mailed to them. */
  newsletter_subscribed: newsletterIs('confirmed'),
  /** Not mailed: never signed up, not confirmed yet, unsubscribed or bouncing. */
  newsletter_not_subscribed: `NOT ${newsletterIs('confirmed')}`,
  /** Signed up, confirmation link still open (as the dashboard counts them). */
  newsletter_pending: newsletterIs('pending', `n."confirmExpiresAt" > now()`),
  newsletter_unsubscribed: newsletterIs('unsubscribed'),
  /** Three permanent delivery failures in a row: no more mail until they sign up again. */
  newsletter_bouncing: newsletterIs('bouncing'),
};

import type { DeskNewsletterState } from '../../../../contract/desk-api';
import { formatDate, formatMoney } from '../../lib/format-date';

export { formatDate, formatMoney };

const dateTime = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

const shortDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/** "Nov 26, 2026": short enough for a table cell. */
export const formatShortDate = (iso: string) => shortDate.format(new Date(iso));

/** "Nov 23, 2026, 12:05 PM UTC". */
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));

const dayMonth = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const monthYear = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "Nov 23" (a week's Monday). */
export const formatWeek = (iso: string) => dayMonth.format(new Date(iso));
/** "Nov 2026". */
export const formatMonth = (iso: string) => monthYear.format(new Date(iso));

/** What a membership row says, in words: "Member (subscription, active) through March 4, 2027". */
export function describeMembership(
  membership: { plan: string; status: string; expiresAt: string; lastDay: string } | null,
  isMember: boolean,
): string {
  if (!membership) return 'Never a member';
  const plan = membership.plan === 'subscription' ? 'subscription' : 'one-time or comp';
  return isMember
    ? `Member (${plan}, ${membership.status}) through ${formatDate(membership.lastDay)}`
    : `Not a member: ${membership.status} since ${formatDate(membership.expiresAt)}`;
}

const NEWSLETTER_STATES = {
  confirmed: 'Subscribed',
  pending: 'Confirmation pending',
  unsubscribed: 'Unsubscribed',
  bouncing: 'Bouncing (mail to it fails)',
} satisfies Record<DeskNewsletterState, string>;

/** A newsletter state in words; null: the account never signed up. */
export const describeNewsletterState = (state: DeskNewsletterState | null) =>
  state ? NEWSLETTER_STATES[state] : 'Not signed up';

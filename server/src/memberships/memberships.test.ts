import { describe, expect, it } from 'vitest';
import { ACCESS_STATUSES } from './derive-membership.js';
import { isMembershipActive, toMembershipView } from './memberships.js';

const now = new Date('2026-06-01T00:00:00Z');
const later = new Date('2026-07-01T00:00:00Z');
const earlier = new Date('2026-05-01T00:00:00Z');

describe('who has access', () => {
  it.each([
    ['active', true],
    ['trialing', true],
    ['past_due', true],
    ['canceled', false],
    ['unpaid', false],
    ['incomplete', false],
    ['incomplete_expired', false],
    ['paused', false],
  ])(
    'a subscription that is %s gives access: %s (while its paid period lasts)',
    (status, access) => {
      expect(ACCESS_STATUSES.has(status)).toBe(access);
      expect(isMembershipActive({ plan: 'subscription', status, expiresAt: later }, now)).toBe(
        access,
      );
      expect(isMembershipActive({ plan: 'subscription', status, expiresAt: earlier }, now)).toBe(
        false,
      );
    },
  );

  it('gives a one-time membership access until it expires, and none once refunded', () => {
    expect(isMembershipActive({ plan: 'one-time', status: 'active', expiresAt: later }, now)).toBe(
      true,
    );
    expect(
      isMembershipActive({ plan: 'one-time', status: 'active', expiresAt: earlier }, now),
    ).toBe(false);
    expect(
      isMembershipActive({ plan: 'one-time', status: 'refunded', expiresAt: later }, now),
    ).toBe(false);
    expect(isMembershipActive(null, now)).toBe(false);
  });

  it('shows the membership as the HTTP contract names it', () => {
    expect(toMembershipView({ plan: 'one-time', status: 'active', expiresAt: later }, now)).toEqual(
      {
        isSubscribed: true,
        membership: {
          plan: 'one-time',
          status: 'active',
          expiresAt: '2026-07-01T00:00:00.000Z',
          // Access stops at midnight: its last day is the day before.
          lastDay: '2026-06-30',
        },
      },
    );
    expect(toMembershipView(null, now)).toEqual({ isSubscribed: false, membership: null });
  });
});

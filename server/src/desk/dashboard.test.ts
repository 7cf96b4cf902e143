import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useDatabase } from '#test/with-site';
import { readDashboard } from './dashboard.js';

// The dashboard's figures against a ledger small enough to add up by hand. "Now" is Wednesday
// 25 November 2026, noon UTC: the current week began Monday 23 November, the twelve weeks shown
// began Monday 7 September, the twelve months December 2025.

const NOW = new Date('2026-11-25T12:00:00Z');
const at = (iso: string) => new Date(iso);

const users = Object.fromEntries(
  ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'].map((name) => [name, randomUUID()]),
) as Record<'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'G' | 'H' | 'I' | 'J', string>;

interface Entry {
  user: string;
  source: 'one-time' | 'subscription-invoice' | 'comp';
  paidAt: string;
  amountCents?: number;
  currency?: string;
  period?: [string, string];
  subscriptionId?: string;
  state?: 'active' | 'refunded' | 'revoked';
  stateReason?: string;
  stateReadAt?: string;
}

/**
 * A  one-time year paid 1 Oct 2026 10:00                  → member until 1 Oct 2027 (one-time)
 * B  subscription invoice paid 24 Nov 2026 09:00, a year  → member (subscription)
 * C  one-time year paid 20 Oct 2025                       → lost 20 Oct 2026 (week of 19 Oct)
 * D  one-time paid 2 Nov 2026, refunded 10 Nov            → never a member; Nov refund 12.00
 * E  comp 16 Nov → 31 Dec 2026                            → member (comp), new week of 16 Nov
 * F  subscription invoice 1 Jun 2026 for a year, subscription cancelled 5 Oct 00:00
 *                                                         → lost week of 5 Oct
 * G  one-time year paid 1 Nov 2026 (a Sunday) in EUR      → member (one-time), new week of 26 Oct;
 *                                                           its money is not in the USD figures
 * H  one-time paid 10 Aug 2026, dispute lost 20 Sep       → never a member; Sep dispute 12.00
 * I  duplicate subscription invoice 7 Jul 2026, revoked and refunded by Cohort the same day
 */
const ENTRIES: Entry[] = [
  { user: users.A, source: 'one-time', paidAt: '2026-10-01T10:00:00Z' },
  {
    user: users.B,
    source: 'subscription-invoice',
    paidAt: '2026-11-24T09:00:00Z',
    period: ['2026-11-24T09:00:00Z', '2027-11-24T09:00:00Z'],
    subscriptionId: 'sub_B',
  },
  { user: users.C, source: 'one-time', paidAt: '2025-10-20T00:00:00Z' },
  {
    user: users.D,
    source: 'one-time',
    paidAt: '2026-11-02T00:00:00Z',
    state: 'refunded',
    stateReason: 'refund',
    stateReadAt: '2026-11-10T00:00:00Z',
  },
  {
    user: users.E,
    source: 'comp',
    paidAt: '2026-11-16T00:00:00Z',
    amountCents: 0,
    period: ['2026-11-16T00:00:00Z', '2026-12-31T00:00:00Z'],
  },
  {
    user: users.F,
    source: 'subscription-invoice',
    paidAt: '2026-06-01T00:00:00Z',
    period: ['2026-06-01T00:00:00Z', '2027-06-01T00:00:00Z'],
    subscriptionId: 'sub_F',
  },
  {
    user: users.G,
    source: 'one-time',
    paidAt: '2026-11-01T00:00:00Z',
    amountCents: 1000,
    currency: 'eur',
  },
  {
    user: users.H,
    source: 'one-time',
    paidAt: '2026-08-10T00:00:00Z',
    state: 'revoked',
    stateReason: 'dispute_lost',
    stateReadAt: '2026-09-20T00:00:00Z',
  },
  {
    user: users.I,
    source: 'subscription-invoice',
    paidAt: '2026-07-07T00:00:00Z',
    period: ['2026-07-07T00:00:00Z', '2027-07-07T00:00:00Z'],
    subscriptionId: 'sub_I',
    state: 'revoked',
    stateReason: 'duplicate_subscription',
  },
  {
    user: users.J,
    source: 'subscription-invoice',
    paidAt: '2026-11-20T00:00:00Z',
    amountCents: 100,
    period: ['2026-11-20T00:00:00Z', '2026-12-20T00:00:00Z'],
    subscriptionId: 'sub_J',
  },
];

/** The membership rows the ledger derives at NOW (what `/api/me` reads), by hand. */
const MEMBERSHIPS: [string, 'one-time' | 'subscription', string, string][] = [
  [users.A, 'one-time', 'active', '2027-10-01T10:00:00Z'],
  [users.B, 'subscription', 'active', '2027-11-24T09:00:00Z'],
  [users.C, 'one-time', 'expired', '2026-10-20T00:00:00Z'],
  [users.D, 'one-time', 'refunded', '2026-11-02T00:00:00Z'],
  [users.E, 'one-time', 'active', '2026-12-31T00:00:00Z'],
  [users.F, 'subscription', 'canceled', '2026-10-05T00:00:00Z'],
  [users.G, 'one-time', 'active', '2027-11-01T00:00:00Z'],
  [users.H, 'one-time', 'revoked', '2026-08-10T00:00:00Z'],
  [users.I, 'subscription', 'canceled', '2026-07-07T00:00:00Z'],
  [users.J, 'subscription', 'active', '2026-12-20T00:00:00Z'],
];

describe('the desk’s dashboard', () => {
  const { db } = useDatabase();

  beforeAll(async () => {
    const q = (sql: string, params: unknown[]) => db.pool.query(sql, params);
    for (const id of Object.values(users)) {
      await q(`INSERT INTO users (id, "createdAt", "updatedAt") VALUES ($1, $2, $2)`, [
        id,
        at('2025-01-01T00:00:00Z'),
      ]);
    }
    for (const [id, user, status, endedAt, interval] of [
      ['sub_B', users.B, 'active', null, 'year'],
      ['sub_F', users.F, 'canceled', '2026-10-05T00:00:00Z', 'year'],
      ['sub_I', users.I, 'canceled', '2026-07-07T00:00:00Z', 'year'],
      ['sub_J', users.J, 'active', null, 'month'],
    ] as const) {
      await q(
        `INSERT INTO subscriptions (id, "userId", "customerId", status, "stripeCreatedAt",
                                    "syncedAt", "endedAt", interval, "updatedAt")
         VALUES ($1, $2, 'cus_x', $3, '2026-01-01', '2026-11-01', $4, $5, now())`,
        [id, user, status, endedAt, interval],
      );
    }
    for (const [index, entry] of ENTRIES.entries()) {
      await q(
        `INSERT INTO entitlements (id, "userId", source, "amountCents", currency, "paidAt",
                                   "periodStart", "periodEnd", days, "subscriptionId", state,
                                   "stateReason", "stateReadAt", "updatedAt")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now())`,
        [
          `entry_${index}`,
          entry.user,
          entry.source,
          entry.amountCents ?? 1200,
          entry.currency ?? 'usd',
          at(entry.paidAt),
          entry.period ? at(entry.period[0]) : null,
          entry.period ? at(entry.period[1]) : null,
          entry.source === 'one-time' ? 365 : null,
          entry.subscriptionId ?? null,
          entry.state ?? 'active',
          entry.stateReason ?? null,
          at(entry.stateReadAt ?? entry.paidAt),
        ],
      );
    }
    for (const [user, plan, status, expiresAt] of MEMBERSHIPS) {
      await q(
        `INSERT INTO memberships ("userId", plan, status, "expiresAt", "updatedAt")
         VALUES ($1, $2, $3, $4, now())`,
        [user, plan, status, at(expiresAt)],
      );
    }
    for (const [perk, user, claimedAt] of [
      ['green-bowl', users.A, '2026-11-20T00:00:00Z'],
      ['green-bowl', users.B, '2026-10-01T00:00:00Z'],
    ] as const) {
      await q(`INSERT INTO perk_claims ("perkId", "userId", "claimedAt") VALUES ($1, $2, $3)`, [
        perk,
        user,
        at(claimedAt),
      ]);
    }
    await q(
      `INSERT INTO perk_codes ("perkId", code, "claimedBy", "claimedAt")
       VALUES ('harvest-box', 'CODE-1', $1, '2026-11-24T00:00:00Z'),
              ('harvest-box', 'CODE-2', NULL, NULL)`,
      [users.A],
    );
    // The newsletter list: four confirmed (A and B members now, C lapsed, one address without an
    // account), one open sign-up, one whose link expired (not counted), one unsubscribed, one
    // bouncing.
    for (const [email, user, state, confirmExpiresAt] of [
      ['a@example.com', users.A, 'confirmed', null],
      ['b@example.com', users.B, 'confirmed', null],
      ['c@example.com', users.C, 'confirmed', null],
      ['guest@example.com', null, 'confirmed', null],
      ['e@example.com', users.E, 'pending', '2026-11-28T00:00:00Z'],
      ['late@example.com', null, 'pending', '2026-11-20T00:00:00Z'],
      ['d@example.com', users.D, 'unsubscribed', null],
      ['f@example.com', users.F, 'bouncing', null],
    ] as const) {
      // A sign-up is the consent of its address: the account it belongs to has that address.
      if (user) await q('UPDATE users SET email = $1 WHERE id = $2', [email, user]);
      await q(
        `INSERT INTO newsletter_subscribers (id, email, "userId", state, "confirmExpiresAt",
                                             "updatedAt")
         VALUES (gen_random_uuid(), $1, $2, $3, $4, now())`,
        [email, user, state, confirmExpiresAt && at(confirmExpiresAt)],
      );
    }
  });

  it('adds up members, joiners, leavers, money, perk claims and newsletter subscribers as the ledger and the list say', async () => {
    const dashboard = await readDashboard(
      { db },
      {
        currency: 'usd',
        graceDays: 7,
        perkTitles: new Map([['green-bowl', 'Green Bowl Kitchen: 15% off every order']]),
        now: NOW,
      },
    );
    expect(dashboard.activeByPlan).toEqual({
      subscription: 2,
      monthly: 1, // J
      yearly: 1, // B
      oneTime: 2,
      comp: 1,
      total: 5,
    });

    const weeks = dashboard.weeks.map((w) => [
      w.start.slice(0, 10),
      w.newMembers,
      w.lostMembers,
      w.members,
    ]);
    expect(weeks).toEqual([
      ['2026-09-07', 0, 0, 2], // C and F
      ['2026-09-14', 0, 0, 2],
      ['2026-09-21', 0, 0, 2],
      ['2026-09-28', 1, 0, 3], // A joins; F still a member at the week's end (5 Oct 00:00)
      ['2026-10-05', 0, 1, 2], // F's subscription ended at the week's first instant
      ['2026-10-12', 0, 0, 2],
      ['2026-10-19', 0, 1, 1], // C's year ran out on 20 Oct
      ['2026-10-26', 1, 0, 2], // G, on Sunday 1 Nov
      ['2026-11-02', 0, 0, 2], // D paid and was refunded: never a member
      ['2026-11-09', 0, 0, 2],
      ['2026-11-16', 2, 0, 4], // E's comp, and J's first month
      ['2026-11-23', 1, 0, 5], // B subscribes; the current week, up to now
    ]);

    const months = Object.fromEntries(
      dashboard.months.map((m) => [
        m.start.slice(0, 7),
        [m.payments, m.revenueCents, m.refundedCents, m.disputeLostCents],
      ]),
    );
    expect(Object.keys(months)).toEqual([
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
      '2026-08',
      '2026-09',
      '2026-10',
      '2026-11',
    ]);
    expect(months).toMatchObject({
      '2025-12': [0, 0, 0, 0],
      '2026-05': [0, 0, 0, 0],
      '2026-06': [1, 1200, 0, 0], // F
      '2026-07': [1, 1200, 1200, 0], // I, refunded as a duplicate
      '2026-08': [1, 1200, 0, 0], // H
      '2026-09': [0, 0, 0, 1200], // H's dispute lost
      '2026-10': [1, 1200, 0, 0], // A (C's payment was in October 2025, before the window)
      '2026-11': [3, 2500, 1200, 0], // B, D and J; D refunded
    });
    // Revenue by plan: D's one-time year, J's month and B's year.
    expect(dashboard.months.at(-1)?.revenueByPlan).toEqual({
      oneTime: 1200,
      monthly: 100,
      yearly: 1200,
      gift: 0,
      seats: 0,
    });
    expect(dashboard.months.find((m) => m.start.startsWith('2026-06'))?.revenueByPlan).toEqual({
      oneTime: 0,
      monthly: 0,
      yearly: 1200, // F
      gift: 0,
      seats: 0,
    });
    expect(dashboard.otherCurrencies).toEqual([{ currency: 'eur', payments: 1 }]);
    expect(dashboard.offers).toEqual([]);
    expect(dashboard.perks).toEqual([
      {
        perkId: 'green-bowl',
        title: 'Green Bowl Kitchen: 15% off every order',
        claims: 2,
        last30Days: 1,
      },
      { perkId: 'harvest-box', title: 'harvest-box', claims: 1, last30Days: 1 },
    ]);
    expect(dashboard.newsletter).toEqual({
      confirmed: 4,
      pending: 1,
      unsubscribed: 1,
      bouncing: 1,
      confirmedMembers: 2,
    });
  });
});

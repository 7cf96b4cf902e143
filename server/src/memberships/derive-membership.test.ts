import { describe, expect, it } from 'vitest';
import { deriveMembership, placeEntries, type LedgerEntry } from './derive-membership.js';

const DAY = 24 * 3600 * 1000;
const t0 = new Date('2026-01-01T00:00:00Z');
const at = (days: number) => new Date(t0.getTime() + days * DAY);
const options = (nowDays: number) => ({ graceDays: 7, now: at(nowDays) });

const oneTime = (id: string, paidDay: number, state: LedgerEntry['state'] = 'active') =>
  ({
    id,
    source: 'one-time',
    subscriptionId: null,
    paidAt: at(paidDay),
    periodStart: null,
    periodEnd: null,
    days: 365,
    state,
  }) satisfies LedgerEntry;

const invoice = (
  id: string,
  subscriptionId: string,
  startDay: number,
  state: LedgerEntry['state'] = 'active',
) =>
  ({
    id,
    source: 'subscription-invoice',
    subscriptionId,
    paidAt: at(startDay),
    periodStart: at(startDay),
    periodEnd: at(startDay + 365),
    days: null,
    state,
  }) satisfies LedgerEntry;

describe('deriving access from the ledger', () => {
  it('gives nothing to someone who never paid', () => {
    expect(deriveMembership([], [], options(0))).toBeNull();
  });

  it('gives a one-time purchase a year from the day it was paid', () => {
    expect(deriveMembership([oneTime('pi_1', 10)], [], options(20))).toEqual({
      plan: 'one-time',
      status: 'active',
      expiresAt: at(375),
      tierId: 1,
    });
  });

  it('adds a second purchase after the time already held', () => {
    const entries = [oneTime('pi_1', 0), oneTime('pi_2', 100)];
    expect(deriveMembership(entries, [], options(120))?.expiresAt).toEqual(at(730));
  });

  it('takes back only the refunded purchase’s period', () => {
    const entries = [oneTime('pi_1', 0, 'refunded'), oneTime('pi_2', 100)];
    expect(deriveMembership(entries, [], options(120))?.expiresAt).toEqual(at(465));
  });

  it('counts a subscription’s paid periods while it lives, and none once it is canceled', () => {
    const entries = [invoice('in_1', 'sub_1', 0), invoice('in_2', 'sub_1', 365)];
    expect(deriveMembership(entries, [{ id: 'sub_1', status: 'active' }], options(400))).toEqual({
      plan: 'subscription',
      status: 'active',
      expiresAt: at(730),
      tierId: 1,
    });
    const ended = deriveMembership(entries, [{ id: 'sub_1', status: 'canceled' }], options(400));
    expect(ended?.status).toBe('canceled');
    expect(ended?.expiresAt.getTime()).toBeLessThanOrEqual(at(400).getTime());
  });

  it('keeps a refunded renewal from taking the year before it', () => {
    const entries = [invoice('in_1', 'sub_1', 0, 'refunded'), invoice('in_2', 'sub_1', 365)];
    const membership = deriveMembership(entries, [{ id: 'sub_1', status: 'active' }], options(400));
    expect(membership).toMatchObject({ status: 'active', expiresAt: at(730) });
  });

  it('gives a failed renewal the grace days after the last paid period, never the unpaid one', () => {
    const entries = [invoice('in_1', 'sub_1', 0)];
    const subscriptions = [{ id: 'sub_1', status: 'past_due' }];
    expect(deriveMembership(entries, subscriptions, options(367))).toEqual({
      plan: 'subscription',
      status: 'past_due',
      expiresAt: at(372),
      tierId: 1,
    });
    const after = deriveMembership(entries, subscriptions, options(380));
    expect(after?.expiresAt).toEqual(at(372));
  });

  it('places a one-time year bought during a subscription after every paid period', () => {
    const entries = [
      invoice('in_1', 'sub_1', 0),
      oneTime('pi_1', 100),
      invoice('in_2', 'sub_1', 365),
    ];
    const subscriptions = [{ id: 'sub_1', status: 'active' }];
    expect(deriveMembership(entries, subscriptions, options(400))?.expiresAt).toEqual(at(1095));
    // The subscription is cancelled: the one-time year still stands, from where it was paid.
    const ended = deriveMembership(entries, [{ id: 'sub_1', status: 'canceled' }], options(200));
    expect(ended).toMatchObject({ plan: 'one-time', status: 'active', expiresAt: at(465) });
  });

  it('suspends a disputed period, and says so', () => {
    const membership = deriveMembership([oneTime('pi_1', 0, 'suspended')], [], options(10));
    expect(membership?.status).toBe('disputed');
    expect(membership?.expiresAt.getTime()).toBeLessThanOrEqual(at(10).getTime());
  });

  it('never spends a paid day twice when placing one-time purchases around fixed periods', () => {
    const coverage = placeEntries(
      [oneTime('pi_1', 0), invoice('in_1', 'sub_1', 100)],
      [{ id: 'sub_1', status: 'active' }],
    );
    const oneTimeDays = coverage
      .filter((c) => c.entryId === 'pi_1')
      .reduce((sum, c) => sum + (c.end.getTime() - c.start.getTime()) / DAY, 0);
    expect(oneTimeDays).toBe(365);
    expect(coverage.map((c) => [c.entryId, c.start, c.end])).toEqual([
      ['pi_1', at(0), at(100)],
      ['in_1', at(100), at(465)],
      ['pi_1', at(465), at(730)],
    ]);
  });

  it('is of the tier of the period that covers now, the one paid last, and keeps it after', () => {
    const supporter = { ...invoice('in_1', 'sub_1', 0), tierId: 1 };
    // A move up on day 100: the new tier's period starts then, paid after the first.
    const founder = { ...invoice('in_2', 'sub_1', 100), tierId: 2 };
    const live = [{ id: 'sub_1', status: 'active' }];
    expect(deriveMembership([supporter], live, options(50))?.tierId).toBe(1);
    expect(deriveMembership([supporter, founder], live, options(150))?.tierId).toBe(2);
    expect(deriveMembership([supporter, founder], live, options(50))?.tierId).toBe(1);
    // Over: the tier of the last period that counted.
    const over = deriveMembership([supporter, founder], live, options(600));
    expect(over?.expiresAt).toEqual(at(465));
    expect(over?.tierId).toBe(2);
    // A ledger from before tiers names none: the first tier.
    expect(deriveMembership([oneTime('pi_1', 0)], [], options(10))?.tierId).toBe(1);
  });

  it('gives a move made in the second of the first payment to the period that starts later', () => {
    const supporter = { ...invoice('in_1', 'sub_1', 0), tierId: 1 };
    // Paid at the same instant as the first (Stripe's times are whole seconds), from a moment on.
    const founder = { ...supporter, id: 'in_2', periodStart: at(0.0001), tierId: 2 };
    const live = [{ id: 'sub_1', status: 'active' }];
    expect(deriveMembership([founder, supporter], live, options(1))?.tierId).toBe(2);
    expect(deriveMembership([supporter, founder], live, options(1))?.tierId).toBe(2);
  });
});

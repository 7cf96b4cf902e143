import { beforeAll, describe, expect, it } from 'vitest';
import { buildMember, buildTier, type BuiltTier, type Member } from '#test/factories';
import { periodEnd } from '#test/fake-stripe';
import { useSite } from '#test/with-site';
import {
  deriveMembership,
  type LedgerEntry,
  type LedgerSubscription,
} from '../../memberships/derive-membership.js';
import { readInvoiceFact } from '../../stripe/read-payment-facts.js';

// A member moves between tiers from /account, through the real app and PostgreSQL, against the
// fake Stripe (its webhooks delivered signed, shuffled and twice): up is Stripe's proration,
// invoiced and paid at once, so the new tier is on the ledger now; down is a price change with
// proration off, so the period paid stays the old tier's and the next invoice is the new one's.
// Nothing is granted twice; a trial, a year paid once and bad input change nothing.

const DAY_MS = 24 * 3600 * 1000;

describe('moving between tiers', () => {
  const t = useSite({
    payments: true,
    env: { MEMBERSHIP_PRICE_CENTS: '1200', MONTHLY_PRICE_CENTS: '100' },
  });
  let founder: BuiltTier;
  let patron: BuiltTier;

  const tierOf = async (userId: string) => {
    const { rows } = await t.database.pool.query<{ slug: string; expiresAt: Date }>(
      `SELECT t.slug, m."expiresAt" FROM memberships m JOIN tiers t ON t.id = m."tierId"
        WHERE m."userId" = $1`,
      [userId],
    );
    return rows[0] ?? null;
  };
  /** The member's periods on the ledger, in the order paid: each one's tier and amount. */
  const periodsOf = async (userId: string) =>
    (
      await t.database.pool.query<{ tier: string; amountCents: number; start: Date; end: Date }>(
        `SELECT t.slug AS tier, e."amountCents", e."periodStart" AS start, e."periodEnd" AS "end"
           FROM entitlements e JOIN tiers t ON t.id = e."tierId"
          WHERE e."userId" = $1 ORDER BY e."paidAt", e."periodStart"`,
        [userId],
      )
    ).rows;
  const standing = async (who: Member) => {
    const response = await t.call(who, 'GET', '/api/account/tier');
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const move = (who: Member, payload: object) => t.call(who, 'POST', '/api/account/tier', payload);
  const updatesOf = (subscriptionId: string) =>
    t.stripe.requestsTo('POST', `/v1/subscriptions/${subscriptionId}`);

  /** A member with a yearly (or monthly) subscription of `tier`, joined and paid yesterday. */
  async function subscriber(tier: string, plan: 'yearly' | 'monthly' = 'yearly') {
    const member = await buildMember(t);
    const started = await t.call(member, 'POST', '/api/checkout', { plan, tier });
    expect(started.statusCode, started.body).toBe(200);
    const sessionId = new URL(started.json().url).pathname.split('/').pop() ?? '';
    const yesterday = Math.floor((Date.now() - DAY_MS) / 1000);
    const { subscription } = t.stripe.completeCheckout(sessionId, {
      periodEnd: periodEnd(yesterday, plan === 'yearly' ? 'year' : 'month'),
    });
    await t.stripe.deliverPending();
    return { member, subscriptionId: subscription.id };
  }

  beforeAll(async () => {
    founder = await buildTier(t, { slug: 'founder', name: 'Founder', cents: 3600 });
    patron = await buildTier(t, { slug: 'patron', name: 'Patron', cents: 6000 });
    await buildTier(t, { slug: 'hidden', name: 'Hidden', visible: false });
    // Patron is not sold monthly.
    await t.database.pool.query(
      `UPDATE plans SET enabled = false WHERE "tierId" = $1 AND id = 'monthly'`,
      [patron.id],
    );
    t.app.plans.changed();
  });

  it('moves up now: a proration invoice charged at once puts Founder on the ledger, once', async () => {
    const { member, subscriptionId } = await subscriber('supporter');
    const paidUntil = (await tierOf(member.userId))?.expiresAt;
    expect(await standing(member)).toMatchObject({
      tier: { slug: 'supporter', name: 'Supporter' },
      renewsAs: null,
      interval: 'year',
      refusal: null,
      moves: [
        { slug: 'founder', name: 'Founder', when: 'now', amountCents: 3600, currency: 'usd' },
        { slug: 'patron', name: 'Patron', when: 'now', amountCents: 6000, currency: 'usd' },
      ],
    });

    const moved = await move(member, { tier: 'founder' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().tier).toMatchObject({ tier: { slug: 'founder' }, renewsAs: null });
    expect(moved.json().user.membership.expiresAt).toBe(paidUntil?.toISOString());
    expect(updatesOf(subscriptionId).at(-1)?.body).toMatchObject({
      proration_behavior: 'always_invoice',
      payment_behavior: 'pending_if_incomplete',
    });
    // Stripe's invoice of prorations: the unused Supporter time credited, Founder's charged.
    const invoice = t.stripe.get(String(t.stripe.get(subscriptionId).latest_invoice));
    const lines = (invoice.lines as { data: { amount: number; parent: unknown }[] }).data;
    expect(invoice.billing_reason).toBe('subscription_update');
    expect(lines.map((line) => Math.sign(line.amount))).toEqual([-1, 1]);
    expect(lines.map((line) => line.parent)).toMatchObject([
      { subscription_item_details: { proration: true } },
      { subscription_item_details: { proration: true } },
    ]);
    expect(invoice.amount_paid).toBeGreaterThan(2350);
    expect(invoice.amount_paid).toBeLessThanOrEqual(2400);

    const check = async () => {
      const periods = await periodsOf(member.userId);
      expect(periods.map(({ tier, amountCents }) => ({ tier, amountCents }))).toEqual([
        { tier: 'supporter', amountCents: 1200 },
        { tier: 'founder', amountCents: invoice.amount_paid },
      ]);
      // Founder's period is the rest of the year paid: it ends where Supporter's did.
      expect(periods[1]?.end).toEqual(periods[0]?.end);
      expect(await tierOf(member.userId)).toEqual({ slug: 'founder', expiresAt: paidUntil });
    };
    await check();
    // Every webhook of it, shuffled and twice, grants nothing more.
    await t.stripe.deliverPending({ order: 'shuffled', duplicate: true, seed: 11 });
    await check();
    const again = await move(member, { tier: 'founder' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('already_on_tier');
    await check();
  });

  it('moves down at the period’s end: Founder until then, Supporter from the next invoice', async () => {
    const { member, subscriptionId } = await subscriber('founder');
    const paidUntil = (await tierOf(member.userId))?.expiresAt;
    expect((await standing(member)).moves).toEqual([
      { slug: 'supporter', name: 'Supporter', when: 'renewal', amountCents: 1200, currency: 'usd' },
      { slug: 'patron', name: 'Patron', when: 'now', amountCents: 6000, currency: 'usd' },
    ]);
    const invoicesBefore = t.stripe.requestsTo('POST', '/v1/invoices').length;
    const latestBefore = t.stripe.get(subscriptionId).latest_invoice;

    const moved = await move(member, { tier: 'supporter' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(updatesOf(subscriptionId).at(-1)?.body).toMatchObject({ proration_behavior: 'none' });
    // Nothing charged or credited now.
    expect(t.stripe.get(subscriptionId).latest_invoice).toBe(latestBefore);
    expect(t.stripe.requestsTo('POST', '/v1/invoices').length).toBe(invoicesBefore);
    const waiting = {
      tier: { slug: 'founder', name: 'Founder' },
      renewsAs: { slug: 'supporter', name: 'Supporter' },
      periodEnd: paidUntil?.toISOString(),
      moves: [],
    };
    expect(moved.json().tier).toMatchObject(waiting);
    await t.stripe.deliverPending({ order: 'shuffled', duplicate: true, seed: 5 });
    expect(await standing(member)).toMatchObject(waiting);
    expect(await tierOf(member.userId)).toEqual({ slug: 'founder', expiresAt: paidUntil });
    expect((await periodsOf(member.userId)).map((period) => period.tier)).toEqual(['founder']);
    // While it waits, nothing else moves: the member first stays on Founder.
    for (const payload of [{ tier: 'patron' }, { tier: 'supporter' }]) {
      const refused = await move(member, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(409);
      expect(refused.json().error.code).toBe('move_pending');
    }
    const switched = await t.call(member, 'POST', '/api/account/plan', { plan: 'monthly' });
    expect(switched.json().error.code).toBe('move_pending');

    // Founder's invoice, read again from Stripe after the move (a restored database, a late
    // webhook), is still Founder's: its tier is its line's Price, not the subscription's now.
    const reread = await readInvoiceFact(t.app.requirePayments(), String(latestBefore));
    expect(reread).toMatchObject({ tierId: founder.id, subscription: { tierId: 1 } });

    // The renewal is charged at Supporter's price, and is Supporter's period.
    const renewal = t.stripe.renewSubscription(subscriptionId);
    expect(renewal.invoice.amount_paid).toBe(1200);
    await t.stripe.deliverPending({ order: 'shuffled', duplicate: true, seed: 9 });
    const periods = await periodsOf(member.userId);
    expect(periods.map(({ tier, amountCents }) => ({ tier, amountCents }))).toEqual([
      { tier: 'founder', amountCents: 3600 },
      { tier: 'supporter', amountCents: 1200 },
    ]);
    expect(periods[1]?.start).toEqual(paidUntil);
    // Today is still Founder's; from the period's end, the ledger gives Supporter.
    expect((await tierOf(member.userId))?.slug).toBe('founder');
    const { rows } = await t.database.pool.query<LedgerEntry & { tierId: number }>(
      `SELECT id, source, "subscriptionId", "paidAt", "periodStart", "periodEnd", days, state,
              "tierId" FROM entitlements WHERE "userId" = $1`,
      [member.userId],
    );
    const live: LedgerSubscription[] = [{ id: subscriptionId, status: 'active' }];
    const later = new Date((paidUntil?.getTime() ?? 0) + DAY_MS);
    expect(deriveMembership(rows, live, { graceDays: 7, now: later })?.tierId).toBe(1);
  });

  it('undoes a move down before the period’s end, back to the Price paid, charging nothing', async () => {
    const { member, subscriptionId } = await subscriber('founder');
    const paidPrice = (t.stripe.get(subscriptionId).items as { data: { price: { id: string } }[] })
      .data[0]?.price.id;
    expect((await move(member, { tier: 'supporter' })).statusCode).toBe(200);
    const stayed = await move(member, { tier: 'founder' });
    expect(stayed.statusCode, stayed.body).toBe(200);
    expect(stayed.json().tier).toMatchObject({ tier: { slug: 'founder' }, renewsAs: null });
    expect(updatesOf(subscriptionId).at(-1)?.body).toMatchObject({
      items: [{ price: paidPrice }],
      proration_behavior: 'none',
    });
    // Down again, in the same minute: a new change, not the first one replayed.
    const down = await move(member, { tier: 'supporter' });
    expect(down.json().tier).toMatchObject({ renewsAs: { slug: 'supporter' } });
    await t.stripe.deliverPending({ duplicate: true });
    expect((await periodsOf(member.userId)).map((period) => period.tier)).toEqual(['founder']);
  });

  it('switches monthly ↔ yearly at the member’s own tier', async () => {
    const { member, subscriptionId } = await subscriber('founder', 'monthly');
    const switched = await t.call(member, 'POST', '/api/account/plan', { plan: 'yearly' });
    expect(switched.statusCode, switched.body).toBe(200);
    const [item] = (t.stripe.get(subscriptionId).items as { data: { price: object }[] }).data;
    expect(item?.price).toMatchObject({
      unit_amount: 3600,
      lookup_key: `cohort_membership_t${founder.id}_yearly_3600_usd`,
    });
    await t.stripe.deliverPending({ duplicate: true });
    expect((await periodsOf(member.userId)).map((period) => period.tier)).toEqual([
      'founder',
      'founder',
    ]);
    expect((await tierOf(member.userId))?.slug).toBe('founder');
    // Patron is not sold monthly: a monthly member is told so.
    const monthly = await subscriber('supporter', 'monthly');
    const refused = await move(monthly.member, { tier: 'patron' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toEqual({
      code: 'plan_unavailable',
      message: 'Patron is not sold monthly: switch your plan first, or choose another tier.',
    });
  });

  it('refuses a trial, a year paid once, no membership and bad input, changing nothing', async () => {
    await t.database.pool.query(
      `UPDATE plans SET "trialDays" = 14 WHERE "tierId" = 1 AND id = 'monthly'`,
    );
    t.app.plans.changed();
    const trialing = await buildMember(t);
    const started = await t.call(trialing, 'POST', '/api/checkout', { plan: 'monthly' });
    t.stripe.completeTrialCheckout(new URL(started.json().url).pathname.split('/').pop() ?? '');
    await t.stripe.deliverPending();
    await t.database.pool.query(
      `UPDATE plans SET "trialDays" = 0 WHERE "tierId" = 1 AND id = 'monthly'`,
    );
    t.app.plans.changed();
    const inTrial = await move(trialing, { tier: 'founder' });
    expect(inTrial.statusCode).toBe(409);
    expect(inTrial.json().error.code).toBe('in_trial');
    expect((await standing(trialing)).refusal).toMatchObject({ code: 'in_trial' });

    const once = await buildMember(t, { paid: true });
    const paidOnce = await move(once, { tier: 'founder' });
    expect(paidOnce.statusCode).toBe(409);
    expect(paidOnce.json().error.code).toBe('no_subscription');
    expect(paidOnce.json().error.message).toMatch(
      /^Your membership was paid once \(or given\), so it stays Supporter until it ends on \w+ \d+, \d{4}: join another tier then\.$/,
    );
    expect(await standing(once)).toMatchObject({
      tier: { slug: 'supporter' },
      moves: [],
      refusal: { code: 'no_subscription' },
    });

    const reader = await buildMember(t);
    expect((await move(reader, { tier: 'founder' })).json().error.code).toBe('no_subscription');
    expect(await standing(reader)).toMatchObject({ tier: null, moves: [], refusal: null });

    const { member } = await subscriber('supporter');
    const updates = t.stripe.requests.filter((request) => request.method === 'POST').length;
    const refusals: [object, number, string][] = [
      [{ tier: 'gold' }, 400, 'unknown_tier'],
      [{ tier: 'hidden' }, 400, 'unknown_tier'],
      [{ tier: '' }, 400, 'invalid_request'],
      [{}, 400, 'invalid_request'],
      [{ tier: 'founder', now: true }, 400, 'invalid_request'],
      [{ tier: 'supporter' }, 409, 'already_on_tier'],
    ];
    for (const [payload, status, code] of refusals) {
      const response = await move(member, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json().error.code, response.body).toBe(code);
    }
    expect(t.stripe.requests.filter((request) => request.method === 'POST').length).toBe(updates);
    expect((await tierOf(member.userId))?.slug).toBe('supporter');
    // Signed out: no one's tier to move.
    expect((await t.call(null, 'POST', '/api/account/tier', { tier: 'founder' })).statusCode).toBe(
      401,
    );
  });
});

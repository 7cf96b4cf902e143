import { beforeAll, describe, expect, it } from 'vitest';
import { buildMember, buildTier, type BuiltTier, tiersOnLedger } from '#test/factories';
import { useSite } from '#test/with-site';

// Joining a tier through the real app and PostgreSQL, against the fake Stripe: Checkout for a
// tier's subscription makes a Price that names the tier (its lookup key and metadata), the year
// paid once carries it in its PaymentIntent's metadata, and what is paid puts that tier on the
// ledger. A tier there is not, a hidden one, or a plan the tier does not sell is a 400 that starts
// nothing at Stripe.

describe('joining a tier', () => {
  const t = useSite({
    payments: true,
    env: { MEMBERSHIP_PRICE_CENTS: '1200', MONTHLY_PRICE_CENTS: '100' },
  });
  let founder: BuiltTier;

  const tiersOf = (userId: string) => tiersOnLedger(t, userId);
  const sessionOf = (url: string) => t.stripe.get(new URL(url).pathname.split('/').pop() ?? '');
  const stripeCalls = () => t.stripe.requests.filter((request) => request.method === 'POST').length;

  beforeAll(async () => {
    founder = await buildTier(t, { slug: 'founder', name: 'Founder', cents: 3600 });
    await buildTier(t, { slug: 'patron', name: 'Patron', visible: false });
    // Founder is not sold monthly.
    await t.database.pool.query(
      `UPDATE plans SET enabled = false WHERE "tierId" = $1 AND id = 'monthly'`,
      [founder.id],
    );
    t.app.plans.changed();
  });

  it('sells Founder yearly at a Price naming the tier, and its paid invoice makes a Founder membership', async () => {
    const member = await buildMember(t);
    const started = await t.call(member, 'POST', '/api/checkout', {
      plan: 'yearly',
      tier: 'founder',
    });
    expect(started.statusCode, started.body).toBe(200);
    const session = sessionOf(started.json().url);
    const price = t.stripe.get(String(session.price));
    expect(price).toMatchObject({
      unit_amount: 3600,
      recurring: { interval: 'year' },
      lookup_key: `cohort_membership_t${founder.id}_yearly_3600_usd`,
      metadata: { cohort_tier_id: String(founder.id) },
    });

    const paid = t.stripe.completeCheckout(String(session.id));
    await t.stripe.deliverPending({ order: 'shuffled', duplicate: true, seed: 3 });
    expect((await t.me(member)).isSubscribed).toBe(true);
    expect(await tiersOf(member.userId)).toEqual({ membership: 'founder', periods: ['founder'] });
    const { rows } = await t.database.pool.query(
      `SELECT "tierId", "amountCents" FROM subscriptions WHERE id = $1`,
      [paid.subscription.id],
    );
    expect(rows).toEqual([{ tierId: founder.id, amountCents: 3600 }]);

    // The checkout's return reads the same invoice again: nothing more.
    const returned = await t.call(member, 'GET', `/api/checkout/${String(session.id)}`);
    expect(returned.statusCode, returned.body).toBe(200);
    expect(await tiersOf(member.userId)).toEqual({ membership: 'founder', periods: ['founder'] });

    // Asking for another tier by name, a member is sent to their account page to move.
    const again = await t.call(member, 'POST', '/api/checkout', {
      plan: 'yearly',
      tier: 'supporter',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toEqual({
      code: 'already_member',
      message: 'You are a Founder member: move to Supporter from your account page.',
    });
  });

  it('sells the first tier as before tiers: its lookup key unchanged, the tier in its metadata', async () => {
    const member = await buildMember(t);
    const started = await t.call(member, 'POST', '/api/checkout', { plan: 'monthly' });
    expect(started.statusCode, started.body).toBe(200);
    const price = t.stripe.get(String(sessionOf(started.json().url).price));
    expect(price).toMatchObject({
      lookup_key: 'cohort_membership_monthly_100_usd',
      metadata: { cohort_tier_id: '1' },
    });
    t.stripe.completeCheckout(String(sessionOf(started.json().url).id));
    await t.stripe.deliverPending();
    expect(await tiersOf(member.userId)).toEqual({
      membership: 'supporter',
      periods: ['supporter'],
    });
  });

  it('reads the tier of a Price made before tiers (no metadata) from its lookup key', async () => {
    const customer = t.stripe.createCustomer('older-founder@example.com');
    const older = t.stripe.createPrice({
      unit_amount: 3000,
      interval: 'year',
      lookup_key: `cohort_membership_t${founder.id}_yearly_3000_usd`,
    });
    const member = await buildMember(t);
    const { invoice } = t.stripe.subscribeCustomer(String(customer.id), String(older.id), {
      metadata: { userId: member.userId },
    });
    await t.stripe.deliverPending();
    expect(invoice.amount_paid).toBe(3000);
    expect(await tiersOf(member.userId)).toEqual({ membership: 'founder', periods: ['founder'] });
  });

  it('sells Founder’s year paid once with the tier in its PaymentIntent', async () => {
    const member = await buildMember(t);
    const answer = await t.call(member, 'POST', '/create-payment-intent', {
      items: [{ id: 'early-access' }],
      tier: 'founder',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ amountCents: 3600, fullPriceCents: 3600 });
    const paymentIntentId = await t.payClientSecret(answer);
    expect(t.stripe.get(paymentIntentId)).toMatchObject({
      amount: 3600,
      metadata: { offer: 'early-access', priceCents: '3600', tierId: String(founder.id) },
    });
    await t.stripe.deliverPending({ duplicate: true });
    expect(await tiersOf(member.userId)).toEqual({ membership: 'founder', periods: ['founder'] });
  });

  it('refuses a tier there is not, a hidden one, and a plan the tier does not sell, starting nothing', async () => {
    const member = await buildMember(t);
    const before = stripeCalls();
    const refusals: [string, object, number, string][] = [
      ['/api/checkout', { plan: 'yearly', tier: 'gold' }, 400, 'unknown_tier'],
      ['/api/checkout', { plan: 'yearly', tier: 'patron' }, 400, 'unknown_tier'],
      ['/api/checkout', { plan: 'monthly', tier: 'founder' }, 400, 'plan_unavailable'],
      ['/api/checkout', { plan: 'yearly', tier: '' }, 400, 'invalid_request'],
      ['/api/checkout', { plan: 'yearly', tier: 7 }, 400, 'invalid_request'],
      [
        '/create-payment-intent',
        { items: [{ id: 'early-access' }], tier: 'patron' },
        400,
        'unknown_tier',
      ],
    ];
    for (const [url, payload, status, code] of refusals) {
      const response = await t.call(member, 'POST', url, payload);
      expect(response.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(status);
      expect(response.json().error.code, response.body).toBe(code);
    }
    const unknown = await t.call(member, 'POST', '/api/checkout', { tier: 'gold' });
    expect(unknown.json().error.message).toBe(
      'There is no "gold" tier; the tiers are "supporter", "founder".',
    );
    expect(stripeCalls()).toBe(before);
    expect(await tiersOf(member.userId)).toBeNull();
  });
});

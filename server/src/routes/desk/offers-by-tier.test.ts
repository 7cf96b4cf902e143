import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStaff, buildTier, type BuiltTier, type Member } from '#test/factories';
import { newVisitor } from '#test/visitor';
import { withSite, type Site } from '#test/with-site';
import { findOffer, offerAppliesTo } from '../../memberships/offers.js';

// Offers of a tier through the real app and PostgreSQL, against the fake Stripe: an owner makes a
// code for one tier's plans (the default tier's when the body names none, as before tiers); a
// checkout of another tier's plan is refused it with the reason, and never charged the full price
// instead; a tier there is not is a 400 that makes nothing.

const OWNER = 'tiered-offers-owner@example.com';

describe('offers of a tier', () => {
  let t: Site;
  let owner: Member;
  let founder: BuiltTier;

  const make = (payload: object) => t.call(owner, 'POST', '/api/desk/offers', payload);
  const offerCount = async () =>
    (await t.database.pool.query('SELECT count(*)::int AS n FROM offers')).rows[0].n;

  beforeAll(async () => {
    t = await withSite({ payments: true, env: { STAFF_EMAILS: OWNER } });
    [owner] = await buildStaff(t, 'owner');
    founder = await buildTier(t, { slug: 'founder', name: 'Founder', cents: 3000 });
    await buildTier(t, { slug: 'patron', name: 'Patron', visible: false });
    t.app.plans.changed();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('makes an offer for the tier it names, or for the default tier when it names none', async () => {
    const made = await make({
      code: 'founder10',
      percentOff: 10,
      duration: 'once',
      plans: ['early-access', 'monthly'],
      tier: 'founder',
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().offer).toMatchObject({
      code: 'FOUNDER10',
      tier: 'founder',
      tierName: 'Founder',
    });
    const plain = await make({
      code: 'plain5',
      percentOff: 5,
      duration: 'once',
      plans: ['yearly'],
    });
    expect(plain.json().offer).toMatchObject({ tier: 'supporter', tierName: 'Supporter' });
    // An owner may make a code for a tier not on show.
    const hidden = await make({
      code: 'patron5',
      percentOff: 5,
      duration: 'once',
      plans: ['early-access'],
      tier: 'patron',
    });
    expect(hidden.json().offer).toMatchObject({ tier: 'patron' });
    const listed = (await t.call(owner, 'GET', '/api/desk/offers')).json().offers;
    expect(listed.map((offer: { code: string; tier: string }) => [offer.code, offer.tier])).toEqual(
      [
        ['PATRON5', 'patron'],
        ['PLAIN5', 'supporter'],
        ['FOUNDER10', 'founder'],
      ],
    );
    const { rows } = await t.database.pool.query(
      `SELECT after->>'tier' AS tier FROM audit_log WHERE action = 'offer_create' ORDER BY id`,
    );
    expect(rows.map((row) => row.tier)).toEqual(['founder', 'supporter', 'patron']);
  });

  it('refuses an offer of a tier there is not: a 400 that makes nothing, at Stripe neither', async () => {
    const [offers, coupons] = [await offerCount(), t.stripe.requestsTo('POST', '/v1/coupons')];
    const refused = await make({
      code: 'NOBODY',
      percentOff: 10,
      duration: 'once',
      plans: ['monthly'],
      tier: 'no-such-tier',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('unknown_tier');
    expect(await offerCount()).toBe(offers);
    expect(t.stripe.requestsTo('POST', '/v1/coupons')).toHaveLength(coupons.length);
  });

  it('refuses a Founder offer for the first tier’s plans, and never charges the full price instead', async () => {
    const visitor = await newVisitor(t.app);
    const intents = t.stripe.requestsTo('POST', '/v1/payment_intents').length;
    const once = await visitor.request({
      method: 'POST',
      url: '/create-payment-intent',
      payload: { items: [{ id: 'early-access' }], offer: 'founder10' },
    });
    expect(once.statusCode).toBe(400);
    expect(once.json().error).toEqual({
      code: 'offer_invalid',
      message: 'The offer “FOUNDER10” is only for Founder memberships.',
    });
    const monthly = await visitor.request({
      method: 'POST',
      url: '/api/checkout',
      payload: { plan: 'monthly', offer: 'founder10' },
    });
    expect(monthly.statusCode).toBe(400);
    expect(monthly.json().error.code).toBe('offer_invalid');
    expect(t.stripe.requestsTo('POST', '/v1/payment_intents')).toHaveLength(intents);
    const held = await t.database.pool.query('SELECT count(*)::int AS n FROM offer_redemptions');
    expect(held.rows[0].n).toBe(0);
  });

  it('answers that a Founder offer applies to Founder’s plans it names, and to nothing else', async () => {
    const visitor = await newVisitor(t.app);
    const offer = await findOffer(
      t.database.pool,
      'Founder10',
      'monthly',
      visitor.userId,
      founder.id,
    );
    expect(offer).toMatchObject({ code: 'FOUNDER10', tierId: founder.id });
    expect(offerAppliesTo(offer, founder.id, 'early-access')).toBe(true);
    expect(offerAppliesTo(offer, founder.id, 'yearly')).toBe(false);
    expect(offerAppliesTo(offer, 1, 'monthly')).toBe(false);
    await expect(
      findOffer(t.database.pool, 'FOUNDER10', 'yearly', visitor.userId, founder.id),
    ).rejects.toMatchObject({ code: 'offer_invalid' });
  });
});

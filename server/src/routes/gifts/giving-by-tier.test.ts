import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildMember,
  buildTier,
  type BuiltTier,
  type Member,
  tiersOnLedger,
} from '#test/factories';
import { tokenFromMail, waitForMail } from '#test/registration';
import { newVisitor } from '#test/visitor';
import { giveAndPay, withGivingSite, type Site } from '#test/with-site';

// Gifts and solidarity seats of a tier, through the real app and PostgreSQL, against the fake
// Stripe: the buyer names a visible tier (or none, for the default one, as before tiers), pays that
// tier's year paid once, and the year given (a claimed gift, a granted seat) is a year of that tier.
// A tier there is not, a hidden one, or one that sells no year paid once is a 400 that makes
// nothing.

const OWNER = 'tiered-giving-owner@example.com';
const EDITOR = 'tiered-giving-editor@example.com';
const SITE = 'https://cohort.example';
const NOTE = 'I lost my job this spring and cannot pay for now.';

describe('gifts and seats of a tier', () => {
  let t: Site;
  let owner: Member;
  let founder: BuiltTier;

  const tiersOf = (userId: string) => tiersOnLedger(t, userId);
  const count = async (table: 'gifts' | 'seat_fundings') =>
    (await t.database.pool.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;

  beforeAll(async () => {
    ({ site: t, owner } = await withGivingSite(
      { owner: OWNER, editor: EDITOR },
      { SITE_URL: SITE, MEMBERSHIP_PRICE_CENTS: '1200' },
    ));
    founder = await buildTier(t, { slug: 'founder', name: 'Founder', cents: 3000 });
    await buildTier(t, { slug: 'patron', name: 'Patron', visible: false });
    const monthly = await buildTier(t, { slug: 'monthly-only', name: 'Monthly only' });
    await t.database.pool.query(
      `UPDATE plans SET enabled = false WHERE "tierId" = $1 AND id = 'early-access'`,
      [monthly.id],
    );
    t.app.plans.changed();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives a year of Founder at its year paid once, and its claim makes a Founder membership', async () => {
    const visitor = await newVisitor(t.app);
    const bought = await t.call(visitor, 'POST', '/api/gifts', {
      recipientEmail: 'tiered-friend@example.com',
      buyerEmail: 'tiered-giver@example.com',
      tier: 'founder',
    });
    expect(bought.statusCode, bought.body).toBe(200);
    expect(bought.json()).toMatchObject({ amountCents: 3000, currency: 'usd', tier: 'founder' });
    const paymentIntentId = await t.payClientSecret(bought);
    expect(t.stripe.get(paymentIntentId)).toMatchObject({
      amount: 3000,
      metadata: { offer: 'gift', priceCents: '3000', tierId: String(founder.id) },
    });
    await t.app.giving.deliverNow();

    // The desk's list says which tier the gift is of.
    const listed = (await t.call(owner, 'GET', '/api/desk/gifts')).json().gifts;
    expect(listed).toMatchObject([
      { recipientEmail: 'tiered-friend@example.com', tier: 'founder', tierName: 'Founder' },
    ]);

    const token = tokenFromMail(
      (await waitForMail(t.mailbox, 'tiered-friend@example.com')).text,
      `${SITE}/gift/claim`,
    );
    const friend = await buildMember(t, { email: 'tiered-friend@example.com' });
    const claimed = await t.call(friend, 'POST', '/api/gifts/claim', { token });
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json().user.isSubscribed).toBe(true);
    expect(await tiersOf(friend.userId)).toEqual({ membership: 'founder', periods: ['founder'] });
  });

  it('gives the first tier’s year when the gift names no tier, at its price even off sale, as before tiers', async () => {
    await t.database.pool.query(
      `UPDATE plans SET enabled = false WHERE "tierId" = 1 AND id = 'early-access'`,
    );
    t.app.plans.changed();
    try {
      const buyer = await buildMember(t, { email: 'tiered-plain-giver@example.com' });
      const bought = await t.call(buyer, 'POST', '/api/gifts', {
        recipientEmail: 'tiered-plain@example.com',
      });
      expect(bought.json()).toMatchObject({ amountCents: 1200, tier: 'supporter' });
      expect(t.stripe.get(await t.payClientSecret(bought)).metadata).toMatchObject({
        tierId: '1',
      });
      await t.app.giving.deliverNow();
      const token = tokenFromMail(
        (await waitForMail(t.mailbox, 'tiered-plain@example.com')).text,
        `${SITE}/gift/claim`,
      );
      const friend = await buildMember(t, { email: 'tiered-plain@example.com' });
      expect((await t.call(friend, 'POST', '/api/gifts/claim', { token })).statusCode).toBe(200);
      expect(await tiersOf(friend.userId)).toEqual({
        membership: 'supporter',
        periods: ['supporter'],
      });
    } finally {
      await t.database.pool.query(
        `UPDATE plans SET enabled = true WHERE "tierId" = 1 AND id = 'early-access'`,
      );
      t.app.plans.changed();
    }
  });

  it('refuses a gift or seats of a tier there is not, a hidden one, or one without a year paid once: a 400 that makes nothing', async () => {
    const visitor = await newVisitor(t.app);
    const intents = t.stripe.requestsTo('POST', '/v1/payment_intents').length;
    const [gifts, fundings] = [await count('gifts'), await count('seat_fundings')];
    for (const [tier, code] of [
      ['no-such-tier', 'unknown_tier'],
      ['patron', 'unknown_tier'],
      ['monthly-only', 'tier_not_given'],
    ] as const) {
      const gift = await t.call(visitor, 'POST', '/api/gifts', {
        recipientEmail: 'tiered-nobody@example.com',
        buyerEmail: 'tiered-giver@example.com',
        tier,
      });
      expect({ tier, status: gift.statusCode, code: gift.json().error.code }).toEqual({
        tier,
        status: 400,
        code,
      });
      const seats = await t.call(visitor, 'POST', '/api/seats', {
        seats: 2,
        supporterEmail: 'tiered-giver@example.com',
        tier,
      });
      expect({ tier, status: seats.statusCode, code: seats.json().error.code }).toEqual({
        tier,
        status: 400,
        code,
      });
    }
    const hidden = await t.call(visitor, 'POST', '/api/gifts', {
      recipientEmail: 'tiered-nobody@example.com',
      buyerEmail: 'tiered-giver@example.com',
      tier: 'patron',
    });
    // A hidden tier is not named to visitors among the tiers there are.
    expect(hidden.json().error.message).toBe(
      'There is no "patron" tier; the tiers are "supporter", "founder", "monthly-only".',
    );
    expect(
      (
        await t.call(visitor, 'POST', '/api/gifts', {
          recipientEmail: 'tiered-nobody@example.com',
          buyerEmail: 'tiered-giver@example.com',
          tier: 'monthly-only',
        })
      ).json().error.message,
    ).toBe(
      'Monthly only is not sold as a year paid once, so it cannot be given: choose another tier.',
    );
    expect(t.stripe.requestsTo('POST', '/v1/payment_intents').length).toBe(intents);
    expect([await count('gifts'), await count('seat_fundings')]).toEqual([gifts, fundings]);
  });

  it('funds seats of Founder at its price, and a seat granted from them is a year of Founder', async () => {
    const supporter = await newVisitor(t.app);
    const paid = await giveAndPay(t, supporter, '/api/seats', {
      seats: 2,
      supporterEmail: 'tiered-seats@example.com',
      tier: 'founder',
    });
    expect(t.stripe.get(paid)).toMatchObject({
      amount: 6000,
      metadata: { offer: 'seats', seats: '2', tierId: String(founder.id) },
    });
    const desk = async () => (await t.call(owner, 'GET', '/api/desk/seats')).json().seats;
    expect((await desk()).fundings).toMatchObject([
      { seats: 2, tier: 'founder', tierName: 'Founder', amountCents: 6000 },
    ]);

    const reader = await buildMember(t, { email: 'tiered-seat-reader@example.com' });
    expect((await t.call(reader, 'POST', '/api/seats/requests', { note: NOTE })).statusCode).toBe(
      201,
    );
    const request = (await desk()).requests.find(
      (each: { userId: string }) => each.userId === reader.userId,
    );
    const granted = await t.call(owner, 'POST', `/api/desk/seats/requests/${request.id}/grant`);
    expect(granted.statusCode, granted.body).toBe(200);
    expect((await t.me(reader)).isSubscribed).toBe(true);
    expect(await tiersOf(reader.userId)).toEqual({ membership: 'founder', periods: ['founder'] });
  });
});

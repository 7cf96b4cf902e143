import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStaff, type Member } from '#test/factories';
import { newVisitor, type Visitor } from '#test/visitor';
import { withSite, type Site } from '#test/with-site';
import { OFFER_HOLD_MS, releaseLapsedRedemptions } from '../../memberships/offer-redemptions.js';
import { stopOfferPayment } from '../../stripe/stop-offer-payment.js';

// Offers through the real app and PostgreSQL, against the fake Stripe: owners make a
// code in the desk; a subscription redeems it through Stripe's Coupon and Promotion Code, the year
// paid once is priced on the server; a code that cannot be redeemed is refused, never charged at
// the full price instead; the desk counts each offer's redemptions and revenue.

const OWNER = 'offers-owner@example.com';
const EDITOR = 'offers-editor@example.com';
const SITE = 'http://localhost:3000';

describe('offers', () => {
  let t: Site;
  let owner: Member;
  let editor: Member;

  const make = (payload: object) => t.call(owner, 'POST', '/api/desk/offers', payload);
  const offers = async () => (await t.call(owner, 'GET', '/api/desk/offers')).json().offers;
  const checkout = (visitor: Visitor, payload: object) =>
    visitor.request({ method: 'POST', url: '/api/checkout', payload });
  const payOnce = (visitor: Visitor, offer?: string) =>
    visitor.request({
      method: 'POST',
      url: '/create-payment-intent',
      payload: { items: [{ id: 'early-access' }], ...(offer && { offer }) },
    });

  beforeAll(async () => {
    t = await withSite({
      payments: true,
      env: { STAFF_EMAILS: OWNER, EDITOR_EMAILS: EDITOR, SITE_URL: SITE },
    });
    [owner, editor] = await buildStaff(t, 'owner', 'editor');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets owners make an offer (a Stripe Coupon and Promotion Code for subscriptions); a wrong one is a 400 and nothing is made', async () => {
    const before = t.stripe.requestsTo('POST', '/v1/coupons').length;
    for (const payload of [
      { code: 'X', percentOff: 20, duration: 'once', plans: ['monthly'] },
      { code: 'BOTH', percentOff: 20, amountOffCents: 100, duration: 'once', plans: ['monthly'] },
      { code: 'NONE', duration: 'once', plans: ['monthly'] },
      { code: 'MONTHS', percentOff: 20, duration: 'repeating', plans: ['monthly'] },
      {
        code: 'PAST',
        percentOff: 20,
        duration: 'once',
        plans: ['yearly'],
        endsAt: '2020-01-01T00:00:00Z',
      },
      { code: 'CHEAP', amountOffCents: 1190, duration: 'once', plans: ['early-access'] },
      { code: 'FREE', percentOff: 100, duration: 'once', plans: ['early-access'] },
      { code: 'WHAT', percentOff: 20, duration: 'once', plans: ['weekly'] },
      { code: 'EXTRA', percentOff: 20, duration: 'once', plans: ['monthly'], sneaky: true },
    ]) {
      const refused = await make(payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json().error.message).toBeTruthy();
    }
    expect(await offers()).toEqual([]);
    expect(t.stripe.requestsTo('POST', '/v1/coupons').length).toBe(before);
    expect(
      (
        await t.call(editor, 'POST', '/api/desk/offers', {
          code: 'EDITOR',
          percentOff: 5,
          duration: 'once',
          plans: ['monthly'],
        })
      ).statusCode,
    ).toBe(403);

    const made = await make({
      code: 'launch20',
      percentOff: 20,
      duration: 'repeating',
      durationMonths: 3,
      plans: ['monthly', 'early-access'],
      maxRedemptions: 100,
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().offer).toMatchObject({
      code: 'LAUNCH20',
      state: 'active',
      redemptions: 0,
      link: `${SITE}/join?offer=LAUNCH20`,
    });
    const [coupon] = t.stripe.requestsTo('POST', '/v1/coupons').slice(before);
    expect(coupon?.body).toMatchObject({
      percent_off: '20',
      duration: 'repeating',
      duration_in_months: '3',
    });
    expect(t.stripe.requestsTo('POST', '/v1/promotion_codes').at(-1)?.body).toMatchObject({
      code: 'LAUNCH20',
      max_redemptions: '100',
    });
    expect(
      (await make({ code: 'Launch20', percentOff: 10, duration: 'once', plans: ['yearly'] }))
        .statusCode,
    ).toBe(409);
  });

  it('takes the offer off three monthly invoices through Stripe, and refuses a code for another plan', async () => {
    const visitor = await newVisitor(t.app);
    const wrongPlan = await checkout(visitor, { plan: 'yearly', offer: 'launch20' });
    expect(wrongPlan.statusCode).toBe(400);
    expect(wrongPlan.json().error).toEqual({
      code: 'offer_invalid',
      message: 'The offer “LAUNCH20” is not for the yearly plan.',
    });
    const started = await checkout(visitor, { plan: 'monthly', offer: 'launch20' });
    expect(started.statusCode, started.body).toBe(200);
    const sessionId = new URL(started.json().url).pathname.split('/').pop() ?? '';
    const paid = t.stripe.completeCheckout(sessionId);
    await t.stripe.deliverPending();
    expect(paid.invoice.amount_paid).toBe(80);
    const amounts = [paid.invoice.amount_paid];
    for (let month = 0; month < 3; month += 1) {
      amounts.push(
        Number(t.stripe.renewSubscription(String(paid.subscription.id)).invoice.amount_paid),
      );
    }
    await t.stripe.deliverPending();
    expect(amounts).toEqual([80, 80, 80, 100]);
    expect((await visitor.me()).isSubscribed).toBe(true);
    const [offer] = await offers();
    expect(offer).toMatchObject({ code: 'LAUNCH20', redemptions: 1, revenueCents: 240 });
  });

  it('prices the year paid once with the offer on the server, grants it when paid, and counts it', async () => {
    const buyer = await newVisitor(t.app);
    const intent = await payOnce(buyer, 'LAUNCH20');
    expect(intent.statusCode, intent.body).toBe(200);
    expect(intent.json()).toMatchObject({ amountCents: 960, fullPriceCents: 1200 });
    const id = String(intent.json().clientSecret).split('_secret_')[0] ?? '';
    expect(t.stripe.get(id)).toMatchObject({
      amount: 960,
      metadata: { priceCents: '960', fullPriceCents: '1200' },
    });
    t.stripe.succeedPaymentIntent(id);
    await t.stripe.deliverPending();
    expect((await buyer.me()).isSubscribed).toBe(true);
    const [offer] = await offers();
    expect(offer).toMatchObject({ redemptions: 2, revenueCents: 240 + 960 });
    // The dashboard splits the money by offer too.
    const dashboard = (await t.call(editor, 'GET', '/api/desk/dashboard')).json();
    expect(dashboard.offers).toEqual([{ code: 'LAUNCH20', redemptions: 2, revenueCents: 1200 }]);
  });

  it('refuses a code that is unknown, used up or ended with a reason, and never charges the full price instead', async () => {
    const visitor = await newVisitor(t.app);
    const intentsBefore = t.stripe.requestsTo('POST', '/v1/payment_intents').length;
    const unknown = await payOnce(visitor, 'NOPE');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe('offer_invalid');
    expect(unknown.json().error.message).toMatch(/^No offer has the code “NOPE”/);

    expect(
      (
        await make({
          code: 'ONCEONLY',
          amountOffCents: 200,
          duration: 'once',
          plans: ['early-access'],
          maxRedemptions: 1,
        })
      ).statusCode,
    ).toBe(201);
    const first = await newVisitor(t.app);
    const id =
      String((await payOnce(first, 'onceonly')).json().clientSecret).split('_secret_')[0] ?? '';
    t.stripe.succeedPaymentIntent(id);
    await t.stripe.deliverPending();
    const usedUp = await payOnce(visitor, 'ONCEONLY');
    expect(usedUp.statusCode).toBe(400);
    expect(usedUp.json().error.message).toBe('The offer “ONCEONLY” has been used up.');

    const [launch] = (await offers()).filter((each: { code: string }) => each.code === 'LAUNCH20');
    const ended = await t.call(owner, 'POST', `/api/desk/offers/${launch.id}/end`);
    expect(ended.statusCode).toBe(200);
    expect(ended.json().offer.state).toBe('ended');
    // Ended at Stripe too: its promotion code no longer redeems.
    const promotion = [...t.stripe.objects.values()].find(
      (o) => o.object === 'promotion_code' && o.code === 'LAUNCH20',
    );
    expect(promotion?.active).toBe(false);
    const late = await checkout(visitor, { plan: 'monthly', offer: 'LAUNCH20' });
    expect(late.statusCode).toBe(400);
    expect(late.json().error.message).toBe('The offer “LAUNCH20” has ended.');
    // One PaymentIntent in all (the paid one): no refused code made a charge.
    expect(t.stripe.requestsTo('POST', '/v1/payment_intents').length).toBe(intentsBefore + 1);
  });

  describe('an offer’s limit', () => {
    const limited = async (code: string, plans: string[], maxRedemptions: number) => {
      const made = await make({ code, percentOff: 10, duration: 'once', plans, maxRedemptions });
      expect(made.statusCode, made.body).toBe(201);
      return made.json().offer.id as string;
    };
    const reservations = async (offerId: string) =>
      (
        await t.app.db.pool.query<{ userId: string; state: string; stripeId: string | null }>(
          `SELECT "userId", state, "stripeId" FROM offer_redemptions WHERE "offerId" = $1
            ORDER BY "createdAt"`,
          [offerId],
        )
      ).rows;
    const intentId = (response: { json(): { clientSecret: string } }) =>
      String(response.json().clientSecret).split('_secret_')[0] ?? '';
    const sessionId = (response: { json(): { url: string } }) =>
      new URL(response.json().url).pathname.split('/').pop() ?? '';
    const usedUp = (code: string) => ({
      code: 'offer_invalid',
      message: `The offer “${code}” has been used up.`,
    });

    it('lets only one of two checkouts racing for the last redemption have it', async () => {
      const offerId = await limited('LASTONE', ['early-access'], 1);
      const [first, second] = [await newVisitor(t.app), await newVisitor(t.app)];
      const answers = await Promise.all([payOnce(first, 'LASTONE'), payOnce(second, 'LASTONE')]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
      const refused = answers.find((answer) => answer.statusCode === 400);
      expect(refused?.json().error).toEqual(usedUp('LASTONE'));
      const won = answers.find((answer) => answer.statusCode === 200);
      if (!won) throw new Error('No checkout won');
      const winner = won === answers[0] ? first : second;
      expect(await reservations(offerId)).toEqual([
        { userId: winner.userId, state: 'pending', stripeId: intentId(won) },
      ]);

      // Paid, its reservation becomes the redemption; a replayed webhook counts it once.
      t.stripe.succeedPaymentIntent(intentId(won));
      await t.stripe.deliverPending({ duplicate: true });
      expect((await winner.me()).isSubscribed).toBe(true);
      expect(await reservations(offerId)).toEqual([
        { userId: winner.userId, state: 'redeemed', stripeId: intentId(won) },
      ]);
      const offer = (await offers()).find((each: { code: string }) => each.code === 'LASTONE');
      expect(offer).toMatchObject({ redemptions: 1, state: 'used-up' });
      expect((await payOnce(await newVisitor(t.app), 'LASTONE')).json().error).toEqual(
        usedUp('LASTONE'),
      );
    });

    it('counts the year paid once and subscriptions against one limit', async () => {
      const offerId = await limited('ONELIMIT', ['early-access', 'monthly'], 2);
      const buyer = await newVisitor(t.app);
      const paid = await payOnce(buyer, 'ONELIMIT');
      expect(paid.statusCode, paid.body).toBe(200);
      t.stripe.succeedPaymentIntent(intentId(paid));
      await t.stripe.deliverPending();

      // One redemption left: the first Checkout holds it while the reader pays.
      const subscriber = await newVisitor(t.app);
      const started = await checkout(subscriber, { plan: 'monthly', offer: 'ONELIMIT' });
      expect(started.statusCode, started.body).toBe(200);
      const late = await checkout(await newVisitor(t.app), { plan: 'monthly', offer: 'ONELIMIT' });
      expect(late.statusCode).toBe(400);
      expect(late.json().error).toEqual(usedUp('ONELIMIT'));
      const lateOnce = await payOnce(await newVisitor(t.app), 'ONELIMIT');
      expect(lateOnce.json().error).toEqual(usedUp('ONELIMIT'));

      t.stripe.completeCheckout(sessionId(started));
      await t.stripe.deliverPending();
      expect((await subscriber.me()).isSubscribed).toBe(true);
      expect((await reservations(offerId)).map((row) => row.state)).toEqual([
        'redeemed',
        'redeemed',
      ]);
      const offer = (await offers()).find((each: { code: string }) => each.code === 'ONELIMIT');
      expect(offer).toMatchObject({ redemptions: 2, state: 'used-up' });
    });

    it('gives a visitor who tries again the same payment and the same reservation', async () => {
      const offerId = await limited('RETRY', ['early-access', 'yearly'], 1);
      const reader = await newVisitor(t.app);
      const [once, again] = [await payOnce(reader, 'RETRY'), await payOnce(reader, 'RETRY')];
      expect([once.statusCode, again.statusCode]).toEqual([200, 200]);
      expect(intentId(again)).toBe(intentId(once));
      const other = await payOnce(await newVisitor(t.app), 'RETRY');
      expect(other.json().error).toEqual(usedUp('RETRY'));
      expect(await reservations(offerId)).toHaveLength(1);
    });

    it('gives a visitor who reloads Checkout the same session and the same reservation', async () => {
      const offerId = await limited('RELOAD', ['yearly'], 1);
      const reader = await newVisitor(t.app);
      const once = await checkout(reader, { plan: 'yearly', offer: 'RELOAD' });
      const again = await checkout(reader, { plan: 'yearly', offer: 'RELOAD' });
      expect([once.statusCode, again.statusCode]).toEqual([200, 200]);
      expect(sessionId(again)).toBe(sessionId(once));
      const other = await checkout(await newVisitor(t.app), { plan: 'yearly', offer: 'RELOAD' });
      expect(other.json().error).toEqual(usedUp('RELOAD'));
      expect(await reservations(offerId)).toHaveLength(1);
    });

    it('lets only one of a Checkout and a year paid once racing for the last redemption have it', async () => {
      const offerId = await limited('MIXEDRACE', ['early-access', 'yearly'], 1);
      const [once, subscriber] = [await newVisitor(t.app), await newVisitor(t.app)];
      const answers = await Promise.all([
        payOnce(once, 'MIXEDRACE'),
        checkout(subscriber, { plan: 'yearly', offer: 'MIXEDRACE' }),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
      expect(answers.find((answer) => answer.statusCode === 400)?.json().error).toEqual(
        usedUp('MIXEDRACE'),
      );
      expect(await reservations(offerId)).toHaveLength(1);
    });

    it('frees a redemption held by a checkout not paid within the hold, once Stripe can no longer take it', async () => {
      const offerId = await limited('ABANDONED', ['early-access', 'yearly'], 2);
      const [leaves, browses, pays] = [
        await newVisitor(t.app),
        await newVisitor(t.app),
        await newVisitor(t.app),
      ];
      const abandonedIntent = await payOnce(leaves, 'ABANDONED');
      const abandonedCheckout = await checkout(browses, { plan: 'yearly', offer: 'ABANDONED' });
      expect([abandonedIntent.statusCode, abandonedCheckout.statusCode]).toEqual([200, 200]);
      // Stripe ends the Checkout at the hold's end by itself.
      const session = t.stripe.get(sessionId(abandonedCheckout));
      const { rows } = await t.app.db.pool.query<{ holdUntil: Date }>(
        `SELECT "holdUntil" FROM offer_redemptions WHERE "stripeId" = $1`,
        [session.id],
      );
      expect(Number(session.expires_at)).toBe(Math.floor(Number(rows[0]?.holdUntil) / 1000));
      expect(Number(rows[0]?.holdUntil) - Date.now()).toBeGreaterThan(OFFER_HOLD_MS - 60_000);

      const sweep = () =>
        releaseLapsedRedemptions({
          pool: t.app.db.pool,
          stopPayment: stopOfferPayment(t.app.requirePayments().stripe),
          log: t.app.log,
        });
      // Within the hold, nothing is released: the offer is used up meanwhile.
      expect(await sweep()).toBe(0);
      expect((await payOnce(pays, 'ABANDONED')).json().error).toEqual(usedUp('ABANDONED'));

      await t.app.db.pool.query(
        `UPDATE offer_redemptions SET "holdUntil" = now() - interval '1 second' WHERE "offerId" = $1`,
        [offerId],
      );
      expect(await sweep()).toBe(2);
      expect(t.stripe.get(intentId(abandonedIntent)).status).toBe('canceled');
      expect(t.stripe.get(sessionId(abandonedCheckout)).status).toBe('expired');
      expect((await reservations(offerId)).map((row) => row.state)).toEqual([
        'released',
        'released',
      ]);

      const [first, second] = [
        await payOnce(pays, 'ABANDONED'),
        await payOnce(leaves, 'ABANDONED'),
      ];
      expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
      expect(intentId(second)).not.toBe(intentId(abandonedIntent));
      t.stripe.succeedPaymentIntent(intentId(first));
      await t.app.db.pool.query(
        `UPDATE offer_redemptions SET "holdUntil" = now() - interval '1 second'
          WHERE "offerId" = $1 AND state = 'pending'`,
        [offerId],
      );
      // Paid, its webhook not come yet: kept until the ledger has it; the other is released.
      expect(await sweep()).toBe(1);
      expect(t.stripe.get(intentId(first)).status).toBe('succeeded');
      await t.stripe.deliverPending();
      expect((await reservations(offerId)).map((row) => row.state)).toEqual([
        'released',
        'released',
        'redeemed',
        'released',
      ]);
      const offer = (await offers()).find((each: { code: string }) => each.code === 'ABANDONED');
      expect(offer).toMatchObject({ redemptions: 1, held: 0, state: 'active' });
    });

    it('holds nothing when Stripe fails, so the reader can try again at once', async () => {
      const offerId = await limited('FAILED', ['early-access'], 1);
      const reader = await newVisitor(t.app);
      t.stripe.failNext(1, 500);
      const failed = await payOnce(reader, 'FAILED');
      expect(failed.statusCode).toBe(502);
      expect(await reservations(offerId)).toEqual([]);
      const again = await payOnce(reader, 'FAILED');
      expect(again.statusCode, again.body).toBe(200);
      expect(await reservations(offerId)).toEqual([
        { userId: reader.userId, state: 'pending', stripeId: intentId(again) },
      ]);
    });

    it('gives up a visitor’s held Checkout when they choose another plan with the offer', async () => {
      const offerId = await limited('SWITCH', ['early-access', 'yearly'], 1);
      const reader = await newVisitor(t.app);
      const yearly = await checkout(reader, { plan: 'yearly', offer: 'SWITCH' });
      expect(yearly.statusCode).toBe(200);
      const once = await payOnce(reader, 'SWITCH');
      expect(once.statusCode, once.body).toBe(200);
      expect(t.stripe.get(sessionId(yearly)).status).toBe('expired');
      expect((await reservations(offerId)).map((row) => row.state)).toEqual([
        'released',
        'pending',
      ]);
      const offer = (await offers()).find((each: { code: string }) => each.code === 'SWITCH');
      expect(offer).toMatchObject({ redemptions: 0, held: 1, state: 'used-up' });
    });
  });
});

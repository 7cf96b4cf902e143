import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '#test/fake-stripe';
import { registerThroughMail } from '#test/registration';
import { SmtpCapture } from '#test/smtp-capture';
import { createTestAppWithStripe, type TestApp } from '#test/test-app';
import { newVisitor, type Visitor } from '#test/visitor';
import { SESSION_COOKIE } from '../../plugins/app/sessions.js';

// Offers (issue 28) through the real app and PostgreSQL, against the fake Stripe: owners make a
// code in the desk; a subscription redeems it through Stripe's Coupon and Promotion Code, the year
// paid once is priced on the server; a code that cannot be redeemed is refused, never charged at
// the full price instead; the desk counts each offer's redemptions and revenue.

const PASSWORD = 'correct horse battery staple';
const OWNER = 'offers-owner@example.com';
const EDITOR = 'offers-editor@example.com';
const SITE = 'http://localhost:3000';

describe('offers', () => {
  let stripe: FakeStripe;
  let mailbox: SmtpCapture;
  let t: TestApp;
  let owner: string;
  let editor: string;

  async function register(email: string): Promise<string> {
    const visitor = await newVisitor(t.app);
    const response = await registerThroughMail(visitor.request, mailbox, {
      email,
      password: PASSWORD,
    });
    expect(response.statusCode, response.body).toBe(200);
    return `${SESSION_COOKIE}=${response.cookies.find((c) => c.name === SESSION_COOKIE)?.value}`;
  }
  const desk = (cookie: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload && { payload }) });
  const make = (payload: object) => desk(owner, 'POST', '/api/desk/offers', payload);
  const offers = async () => (await desk(owner, 'GET', '/api/desk/offers')).json().offers;
  const checkout = (visitor: Visitor, payload: object) =>
    visitor.request({ method: 'POST', url: '/api/checkout', payload });
  const payOnce = (visitor: Visitor, offer?: string) =>
    visitor.request({
      method: 'POST',
      url: '/create-payment-intent',
      payload: { items: [{ id: 'early-access' }], ...(offer && { offer }) },
    });

  beforeAll(async () => {
    stripe = await startFakeStripe();
    mailbox = await new SmtpCapture().start();
    t = await createTestAppWithStripe(stripe, {
      env: { STAFF_EMAILS: OWNER, EDITOR_EMAILS: EDITOR, SMTP_URL: mailbox.url, SITE_URL: SITE },
    });
    [owner, editor] = await Promise.all([register(OWNER), register(EDITOR)]);
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.stop();
    await mailbox?.stop();
  });

  it('lets owners make an offer (a Stripe Coupon and Promotion Code for subscriptions); a wrong one is a 400 and nothing is made', async () => {
    const before = stripe.requestsTo('POST', '/v1/coupons').length;
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
    expect(stripe.requestsTo('POST', '/v1/coupons').length).toBe(before);
    expect(
      (
        await desk(editor, 'POST', '/api/desk/offers', {
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
    const [coupon] = stripe.requestsTo('POST', '/v1/coupons').slice(before);
    expect(coupon?.body).toMatchObject({
      percent_off: '20',
      duration: 'repeating',
      duration_in_months: '3',
    });
    expect(stripe.requestsTo('POST', '/v1/promotion_codes').at(-1)?.body).toMatchObject({
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
    const paid = stripe.completeCheckout(sessionId);
    await stripe.deliverPending();
    expect(paid.invoice.amount_paid).toBe(80);
    const amounts = [paid.invoice.amount_paid];
    for (let month = 0; month < 3; month += 1) {
      amounts.push(
        Number(stripe.renewSubscription(String(paid.subscription.id)).invoice.amount_paid),
      );
    }
    await stripe.deliverPending();
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
    expect(stripe.get(id)).toMatchObject({
      amount: 960,
      metadata: { priceCents: '960', fullPriceCents: '1200' },
    });
    stripe.succeedPaymentIntent(id);
    await stripe.deliverPending();
    expect((await buyer.me()).isSubscribed).toBe(true);
    const [offer] = await offers();
    expect(offer).toMatchObject({ redemptions: 2, revenueCents: 240 + 960 });
    // The dashboard splits the money by offer too.
    const dashboard = (await desk(editor, 'GET', '/api/desk/dashboard')).json();
    expect(dashboard.offers).toEqual([{ code: 'LAUNCH20', redemptions: 2, revenueCents: 1200 }]);
  });

  it('refuses a code that is unknown, used up or ended with a reason, and never charges the full price instead', async () => {
    const visitor = await newVisitor(t.app);
    const intentsBefore = stripe.requestsTo('POST', '/v1/payment_intents').length;
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
    stripe.succeedPaymentIntent(id);
    await stripe.deliverPending();
    const usedUp = await payOnce(visitor, 'ONCEONLY');
    expect(usedUp.statusCode).toBe(400);
    expect(usedUp.json().error.message).toBe('The offer “ONCEONLY” has been used up.');

    const [launch] = (await offers()).filter((each: { code: string }) => each.code === 'LAUNCH20');
    const ended = await desk(owner, 'POST', `/api/desk/offers/${launch.id}/end`);
    expect(ended.statusCode).toBe(200);
    expect(ended.json().offer.state).toBe('ended');
    // Ended at Stripe too: its promotion code no longer redeems.
    const promotion = [...stripe.objects.values()].find(
      (o) => o.object === 'promotion_code' && o.code === 'LAUNCH20',
    );
    expect(promotion?.active).toBe(false);
    const late = await checkout(visitor, { plan: 'monthly', offer: 'LAUNCH20' });
    expect(late.statusCode).toBe(400);
    expect(late.json().error.message).toBe('The offer “LAUNCH20” has ended.');
    // One PaymentIntent in all (the paid one): no refused code made a charge.
    expect(stripe.requestsTo('POST', '/v1/payment_intents').length).toBe(intentsBefore + 1);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EARLY_ACCESS_OFFER } from '../../../contract/constants.js';
import { FAKE_STRIPE_KEYS, startFakeStripe, type FakeStripe } from '#test/fake-stripe';
import type { LogLine } from '#test/test-app';
import { newVisitor, type Visitor } from '#test/visitor';
import { withSite, type Site } from '#test/with-site';
import { checkStripeAtStart } from '../plugins/app/payments.js';

// Stripe run as an operator runs it: keys that Stripe refuses, a Price that does not exist, a
// billing portal never saved, Stripe failing or hanging. The visitor always gets our message;
// the operator's log gets Stripe's details.

const ERROR_LEVEL = 50;
const STRIPE_WORDS = /sk_|pk_|Invalid API Key|No such|portal settings|FakeStripe|stripe\.com/i;

const pay = (visitor: Visitor) =>
  visitor.request({
    method: 'POST',
    url: '/create-payment-intent',
    payload: { items: [{ id: EARLY_ACCESS_OFFER }] },
  });

/** The error-level lines about a failed Stripe call, logged since `from`. */
const stripeErrors = (t: Site, from = 0): LogLine[] =>
  t
    .logs()
    .slice(from)
    .filter((line) => line.level === ERROR_LEVEL && typeof line.stripe === 'object');

describe('Stripe failures reach the operator, not the visitor', () => {
  let stripe: FakeStripe;
  let t: Site;

  beforeAll(async () => {
    t = await withSite({ payments: true, captureLogs: true });
    stripe = t.stripe;
  });
  afterEach(() => {
    stripe.revokedKeys.clear();
    stripe.failNext(0);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a rolled secret key: the visitor gets our message, the log Stripe’s error, /readyz says payments are misconfigured', async () => {
    const visitor = await newVisitor(t.app);
    stripe.revokedKeys.add(FAKE_STRIPE_KEYS.STRIPE_SECRET_KEY);
    const logged = t.logs().length;

    const response = await pay(visitor);
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('payments_unavailable');
    expect(response.body).not.toMatch(STRIPE_WORDS);

    const [line] = stripeErrors(t, logged);
    expect(line?.stripe).toMatchObject({
      type: 'StripeAuthenticationError',
      statusCode: 401,
      requestId: expect.stringMatching(/^req_/),
      message: expect.stringContaining('Invalid API Key provided'),
    });
    expect(line?.misconfigured).toBe(true);
    expect(line?.msg).toContain('create a PaymentIntent');

    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().payments).toMatchObject({
      state: 'misconfigured',
      problem: expect.stringContaining('STRIPE_SECRET_KEY'),
    });

    // The operator puts the right key back: the next answer Stripe accepts clears it.
    stripe.revokedKeys.clear();
    expect((await pay(visitor)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json().payments.state).toBe(
      'ok',
    );
  });

  it('a billing portal never saved: the member gets our message, the log Stripe’s 400', async () => {
    const visitor = await newVisitor(t.app);
    const started = await visitor.request({ method: 'POST', url: '/api/checkout' });
    const sessionId = new URL(started.json().url).pathname.split('/').pop() ?? '';
    stripe.completeCheckout(sessionId);
    await stripe.deliverPending();
    const saved = stripe.portalConfigurations.splice(0);
    try {
      const logged = t.logs().length;
      // A member pressing Join is sent to the billing portal.
      const response = await visitor.request({ method: 'POST', url: '/api/checkout' });
      expect(response.statusCode).toBe(502);
      expect(response.json().error.code).toBe('payments_unavailable');
      expect(response.body).not.toMatch(STRIPE_WORDS);
      expect(stripeErrors(t, logged)[0]?.stripe).toMatchObject({
        type: 'StripeInvalidRequestError',
        statusCode: 400,
        message: expect.stringContaining('portal settings'),
      });
    } finally {
      stripe.portalConfigurations.push(...saved);
    }
  });

  it('a webhook whose Stripe read answers 404 answers 5xx (Stripe retries), records nothing, then applies', async () => {
    const visitor = await newVisitor(t.app);
    const intent = stripe.paidPaymentIntent({
      userId: visitor.userId,
      offer: EARLY_ACCESS_OFFER,
      priceCents: '1200',
      currency: 'usd',
    });
    stripe.clearPending();
    const event = stripe.event('payment_intent.succeeded', intent);
    const deliver = () => {
      const { payload, headers } = stripe.signedDelivery(event);
      return t.app.inject({ method: 'POST', url: '/webhooks/stripe', payload, headers });
    };
    stripe.failNext(1, 404);

    const failed = await deliver();
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error.code).toBe('payments_unavailable');
    expect(await t.database.prisma.stripeEvent.count({ where: { id: event.id } })).toBe(0);

    expect((await deliver()).statusCode).toBe(200);
    expect((await visitor.me()).isSubscribed).toBe(true);
  });

  it('a retry after a Stripe 500 goes through: the failed idempotency key is not sent again', async () => {
    const visitor = await newVisitor(t.app);
    // One 500, saved by Stripe under the call's idempotency key: the SDK's own retry sends the
    // same key and gets the 500 replayed, so the visitor hears of it.
    stripe.failNext(1, 500);
    expect((await pay(visitor)).statusCode).toBe(502);
    const retry = await pay(visitor);
    expect(retry.statusCode).toBe(200);
    const keys = stripe.requestsTo('POST', '/v1/payment_intents').map((r) => r.idempotencyKey);
    expect(new Set(keys.slice(-3)).size).toBe(2);
  });
});

describe('a price changed the same day', () => {
  let stripe: FakeStripe;
  let before: Site;
  let after: Site;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    before = await withSite({ env: stripe.env() });
    after = await withSite({
      env: { ...stripe.env(), MEMBERSHIP_PRICE_CENTS: '2500', MEMBERSHIP_CURRENCY: 'eur' },
    });
  });
  afterAll(async () => {
    await before?.close();
    await after?.close();
    await stripe?.stop();
  });

  it('gives the same visitor a PaymentIntent at the new price, never an idempotency error', async () => {
    const visitor = await newVisitor(before.app);
    expect((await pay(visitor)).statusCode).toBe(200);
    // The same browser, once the server restarted with the new price.
    const again = await after.app.inject({
      method: 'POST',
      url: '/create-payment-intent',
      payload: { items: [{ id: EARLY_ACCESS_OFFER }] },
      headers: { cookie: visitor.cookie },
    });
    expect(again.statusCode).toBe(200);
    const intent = stripe.get(String(again.json().clientSecret).split('_secret_')[0] ?? '');
    expect(intent).toMatchObject({ amount: 2500, currency: 'eur' });
  });
});

describe('Stripe that hangs, with the default STRIPE_TIMEOUT_MS', () => {
  let site: Site;

  beforeAll(async () => {
    site = await withSite({ payments: true });
  });
  afterAll(async () => {
    await site?.close();
  });

  it('answers the visitor within 8 s, the SDK’s retry included', async () => {
    const visitor = await newVisitor(site.app);
    site.stripe.failNext(5, 0, true);
    const started = performance.now();
    const response = await pay(visitor);
    const elapsed = performance.now() - started;
    expect(response.statusCode).toBe(502);
    expect(response.json().error.code).toBe('payments_unavailable');
    expect(elapsed).toBeLessThan(8_000);
  }, 15_000);
});

describe('the Stripe check at start-up', () => {
  let stripe: FakeStripe;
  let t: Site;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    t = await withSite({
      env: { ...stripe.env(), SITE_URL: 'https://members.example.org' },
      captureLogs: true,
    });
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.stop();
  });

  it('logs what is wrong at error level and shows it on /readyz, without stopping the site', async () => {
    // No webhook endpoint at the site's address: no payment would ever make a member.
    await checkStripeAtStart(t.app, t.config);
    const errors = t.logs().filter((line) => line.level === ERROR_LEVEL);
    expect(errors.map((line) => line.msg)).toEqual([
      expect.stringMatching(
        /^stripe check: webhook endpoint: none points at https:\/\/members\.example\.org\/webhooks\/stripe/,
      ),
    ]);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().payments).toMatchObject({
      state: 'ok',
      check: { problems: [expect.stringContaining('webhook endpoint: none points at')] },
    });
  });
});

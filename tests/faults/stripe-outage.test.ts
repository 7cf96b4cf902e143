import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EARLY_ACCESS_OFFER } from '../../contract/constants.js';
import { FakeStripe } from '#test/fake-stripe';
import { withSite, type Site } from '#test/with-site';
import { newVisitor, type Visitor } from '#test/visitor';

/**
 * Stripe's API answering 500 or not answering at all (the SDK's timeout fires, STRIPE_TIMEOUT_MS):
 * the visitor gets a clear message, nothing half-made is stored, and it all works once Stripe is
 * back.
 */

const TIMEOUT_MS = 400;
const PROVIDER_DOWN = {
  code: 'payments_unavailable',
  message:
    'Payments are not working right now. Nothing was charged; please try again in a few minutes.',
};
/** STRIPE_TIMEOUT_MS bounds the whole call, the SDK's retry included. */
const ANSWER_WITHIN_MS = TIMEOUT_MS + 1_000;

type Failure = { name: string; status: number; hang: boolean };
const failures: Failure[] = [
  { name: 'answers 500', status: 500, hang: false },
  { name: 'times out', status: 0, hang: true },
];

describe('a Stripe API that fails', () => {
  const stripe = new FakeStripe();
  let t: Site;

  beforeAll(async () => {
    await stripe.start();
    t = await withSite({ env: { ...stripe.env(), STRIPE_TIMEOUT_MS: String(TIMEOUT_MS) } });
  });
  afterEach(() => stripe.failNext(0));
  afterAll(async () => {
    await t?.close();
    await stripe.stop();
  });

  /** Every table a payment could write to. */
  async function records() {
    const { prisma } = t.database;
    return {
      users: await prisma.user.count(),
      memberships: await prisma.membership.count(),
      payments: await prisma.entitlement.count(),
      events: await prisma.stripeEvent.count(),
    };
  }

  async function timed(visitor: Visitor, method: 'GET' | 'POST', url: string, payload?: object) {
    const started = performance.now();
    const response = await visitor.request({ method, url, ...(payload && { payload }) });
    return { response, ms: performance.now() - started };
  }

  /** Stripe fails for every attempt of the next call (two: the SDK retries once). */
  const failStripe = (failure: Failure) => stripe.failNext(2, failure.status, failure.hang);

  describe.each(failures)('when Stripe $name', (failure) => {
    it('tells the visitor paying on the early-access page to try again, and stores nothing', async () => {
      const visitor = await newVisitor(t.app);
      const before = await records();
      failStripe(failure);

      const { response, ms } = await timed(visitor, 'POST', '/create-payment-intent', {
        items: [{ id: EARLY_ACCESS_OFFER }],
      });
      expect(response.statusCode).toBe(502);
      expect(response.json()).toEqual({ error: PROVIDER_DOWN });
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
      expect(await records()).toEqual(before);

      // Stripe is back: the same visitor's retry gets one PaymentIntent, still with nothing stored
      // (the membership starts from its webhook).
      stripe.failNext(0);
      const retry = await timed(visitor, 'POST', '/create-payment-intent', {
        items: [{ id: EARLY_ACCESS_OFFER }],
      });
      expect(retry.response.statusCode).toBe(200);
      expect(retry.response.json().clientSecret).toMatch(/^pi_/);
      expect(await records()).toEqual(before);
    });

    it('tells the visitor pressing Join to try again, and stores nothing', async () => {
      const visitor = await newVisitor(t.app);
      const before = await records();
      failStripe(failure);

      const { response, ms } = await timed(visitor, 'POST', '/api/checkout');
      expect(response.statusCode).toBe(502);
      expect(response.json()).toEqual({ error: PROVIDER_DOWN });
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
      expect(await records()).toEqual(before);

      stripe.failNext(0);
      const retry = await timed(visitor, 'POST', '/api/checkout');
      expect(retry.response.statusCode).toBe(200);
      expect(retry.response.json().url).toMatch(/\/checkout\/cs_test_/);
    });

    it('tells a visitor back from Checkout to try again, and grants once when Stripe answers', async () => {
      const visitor = await newVisitor(t.app);
      const started = await visitor.request({ method: 'POST', url: '/api/checkout' });
      const sessionId = new URL(started.json().url).pathname.split('/').pop() ?? '';
      stripe.completeCheckout(sessionId);
      const before = await records();
      failStripe(failure);

      const { response, ms } = await timed(visitor, 'GET', `/api/checkout/${sessionId}`);
      expect(response.statusCode).toBe(502);
      expect(response.json()).toEqual({ error: PROVIDER_DOWN });
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
      expect(await records()).toEqual(before);
      expect((await visitor.me()).isSubscribed).toBe(false);

      stripe.failNext(0);
      const retry = await timed(visitor, 'GET', `/api/checkout/${sessionId}`);
      expect(retry.response.statusCode).toBe(200);
      expect(retry.response.json().user).toMatchObject({ isSubscribed: true });
      expect(await t.database.prisma.entitlement.count({ where: { userId: visitor.userId } })).toBe(
        1,
      );
    });

    it('answers a webhook that needs Stripe with 5xx, records nothing, and applies its retry once', async () => {
      const visitor = await newVisitor(t.app);
      const started = await visitor.request({ method: 'POST', url: '/api/checkout' });
      const sessionId = new URL(started.json().url).pathname.split('/').pop() ?? '';
      const { session } = stripe.completeCheckout(sessionId);
      const event = stripe.event('checkout.session.completed', session);
      const deliver = () => {
        const { payload, headers } = stripe.signedDelivery(event);
        return t.app.inject({ method: 'POST', url: '/webhooks/stripe', payload, headers });
      };
      const before = await records();
      failStripe(failure);

      const failed = await deliver();
      expect(failed.statusCode).toBeGreaterThanOrEqual(500);
      expect(failed.json().error.code).toBe(PROVIDER_DOWN.code);
      // Not recorded: Stripe's retry must find the event new, or the membership would be lost.
      expect(await records()).toEqual(before);

      stripe.failNext(0);
      expect((await deliver()).statusCode).toBe(200);
      expect((await deliver()).statusCode).toBe(200); // a late duplicate
      expect((await visitor.me()).isSubscribed).toBe(true);
      expect(await t.database.prisma.entitlement.count({ where: { userId: visitor.userId } })).toBe(
        1,
      );
      expect(await t.database.prisma.stripeEvent.count({ where: { id: event.id } })).toBe(1);
    });
  });
});

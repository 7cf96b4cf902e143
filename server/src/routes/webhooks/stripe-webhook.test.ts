import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '#test/fake-stripe';
import { withSite, type Site } from '#test/with-site';
import { TcpProxy } from '#test/tcp-proxy';
import { newVisitor, type Visitor } from '#test/visitor';
import { EARLY_ACCESS_OFFER } from '../../../../contract/constants.js';

const DAY_MS = 24 * 3600 * 1000;

describe('Stripe webhooks', () => {
  let stripe: FakeStripe;
  let t: Site;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    t = await withSite({ env: stripe.env() });
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.stop();
  });

  const deliver = (event: unknown, options?: { secret?: string; timestamp?: number }) => {
    const { payload, headers } = stripe.signedDelivery(event, options);
    return t.app.inject({ method: 'POST', url: '/webhooks/stripe', payload, headers });
  };
  const paidEarlyAccess = (visitor: Visitor) =>
    stripe.event(
      'payment_intent.succeeded',
      stripe.paidPaymentIntent({ userId: visitor.userId, offer: EARLY_ACCESS_OFFER }),
    );
  const paymentsOf = (userId: string) => t.database.prisma.entitlement.count({ where: { userId } });
  const recorded = (eventId: string) =>
    t.database.prisma.stripeEvent.count({ where: { id: eventId } });

  async function checkedOutSessionId(visitor: Visitor) {
    const response = await visitor.request({ method: 'POST', url: '/api/checkout' });
    return new URL(response.json().url).pathname.split('/').pop();
  }

  /** A visitor who subscribed through Checkout, as Stripe has it (no webhook delivered yet). */
  const checkedOut = async (visitor: Visitor) =>
    stripe.completeCheckout((await checkedOutSessionId(visitor)) ?? '');

  it('grants a one-year membership when payment_intent.succeeded arrives', async () => {
    const visitor = await newVisitor(t.app);
    const event = paidEarlyAccess(visitor);

    const response = await deliver(event);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: true });

    const user = await visitor.me();
    expect(user.isSubscribed).toBe(true);
    expect(user.membership).toMatchObject({ plan: 'one-time', status: 'active' });
    const expiresIn = Date.parse(user.membership?.expiresAt ?? '') - Date.now();
    expect(expiresIn).toBeGreaterThan(364 * DAY_MS);
    expect(expiresIn).toBeLessThanOrEqual(365 * DAY_MS);
    expect(await recorded(event.id)).toBe(1);
    expect(await paymentsOf(visitor.userId)).toBe(1);
  });

  it('refuses a bad or missing signature with 400 and changes nothing', async () => {
    const visitor = await newVisitor(t.app);
    const event = paidEarlyAccess(visitor);
    const { payload } = stripe.signedDelivery(event);

    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/webhooks/stripe',
      payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json().error.code).toBe('invalid_signature');

    const wrongSecret = await deliver(event, { secret: 'whsec_someone_else' });
    expect(wrongSecret.statusCode).toBe(400);

    const tampered = stripe.signedDelivery(event);
    const forged = await t.app.inject({
      method: 'POST',
      url: '/webhooks/stripe',
      payload: tampered.payload.replace(visitor.userId, '00000000-0000-4000-8000-000000000000'),
      headers: tampered.headers,
    });
    expect(forged.statusCode).toBe(400);

    expect((await visitor.me()).isSubscribed).toBe(false);
    expect(await recorded(event.id)).toBe(0);
  });

  it('refuses a signature older than five minutes (a replay)', async () => {
    const visitor = await newVisitor(t.app);
    const event = paidEarlyAccess(visitor);
    const stale = await deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(stale.statusCode).toBe(400);
    expect((await visitor.me()).isSubscribed).toBe(false);
  });

  it('grants once when the same event arrives twice', async () => {
    const visitor = await newVisitor(t.app);
    const event = paidEarlyAccess(visitor);
    expect((await deliver(event)).statusCode).toBe(200);
    const first = await visitor.me();
    expect((await deliver(event)).statusCode).toBe(200);
    expect(await visitor.me()).toEqual(first);
    expect(await paymentsOf(visitor.userId)).toBe(1);
  });

  it('grants once when two deliveries of one event arrive at the same moment', async () => {
    const visitor = await newVisitor(t.app);
    const event = paidEarlyAccess(visitor);
    const answers = await Promise.all([deliver(event), deliver(event), deliver(event)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const { membership } = await visitor.me();
    expect(Date.parse(membership?.expiresAt ?? '') - Date.now()).toBeLessThanOrEqual(365 * DAY_MS);
    expect(await paymentsOf(visitor.userId)).toBe(1);
    expect(await recorded(event.id)).toBe(1);
  });

  it('adds a second paid year to the first when a member pays twice, never losing a payment', async () => {
    const visitor = await newVisitor(t.app);
    await deliver(paidEarlyAccess(visitor));
    await deliver(paidEarlyAccess(visitor));
    const { membership } = await visitor.me();
    expect(Date.parse(membership?.expiresAt ?? '') - Date.now()).toBeGreaterThan(729 * DAY_MS);
    expect(await paymentsOf(visitor.userId)).toBe(2);
  });

  it('ignores a PaymentIntent that is not for the early-access offer', async () => {
    const visitor = await newVisitor(t.app);
    const event = stripe.event(
      'payment_intent.succeeded',
      stripe.paidPaymentIntent({ userId: visitor.userId, offer: 't-shirt' }),
    );
    expect((await deliver(event)).statusCode).toBe(200);
    expect((await visitor.me()).isSubscribed).toBe(false);
    expect(await recorded(event.id)).toBe(1);
  });

  it('revokes the membership when its payment is refunded', async () => {
    const visitor = await newVisitor(t.app);
    const paid = paidEarlyAccess(visitor);
    await deliver(paid);
    expect((await visitor.me()).isSubscribed).toBe(true);

    const charge = stripe.refundPaymentIntent(paid.data.object.id);
    expect((await deliver(stripe.event('charge.refunded', charge))).statusCode).toBe(200);
    const user = await visitor.me();
    expect(user.isSubscribed).toBe(false);
    expect(user.membership?.status).toBe('refunded');
  });

  it('grants the subscription when checkout.session.completed arrives, with its period end', async () => {
    const visitor = await newVisitor(t.app);
    const { session, subscription } = await checkedOut(visitor);
    const response = await deliver(stripe.event('checkout.session.completed', session));
    expect(response.statusCode).toBe(200);

    const user = await visitor.me();
    expect(user.isSubscribed).toBe(true);
    expect(user.membership).toMatchObject({ plan: 'subscription', status: 'active' });
    const periodEnd = (subscription.items as { data: { current_period_end: number }[] }).data[0]
      ?.current_period_end;
    expect(user.membership?.expiresAt).toBe(new Date((periodEnd ?? 0) * 1000).toISOString());
  });

  it('extends the membership when a renewal invoice is paid', async () => {
    const visitor = await newVisitor(t.app);
    const { session, subscription } = await checkedOut(visitor);
    await deliver(stripe.event('checkout.session.completed', session));
    const { invoice, period } = stripe.renewSubscription(subscription.id);

    expect((await deliver(stripe.event('invoice.paid', invoice))).statusCode).toBe(200);
    const { membership } = await visitor.me();
    expect(membership?.expiresAt).toBe(new Date(period.end * 1000).toISOString());
    expect(await paymentsOf(visitor.userId)).toBe(2);
  });

  it('revokes the membership when the subscription is deleted', async () => {
    const visitor = await newVisitor(t.app);
    const { session, subscription } = await checkedOut(visitor);
    await deliver(stripe.event('checkout.session.completed', session));
    const canceled = stripe.cancelSubscription(subscription.id);

    expect(
      (await deliver(stripe.event('customer.subscription.deleted', canceled))).statusCode,
    ).toBe(200);
    const user = await visitor.me();
    expect(user.isSubscribed).toBe(false);
    expect(user.membership?.status).toBe('canceled');
  });

  it('ends in the newest state when subscription events arrive out of order', async () => {
    const visitor = await newVisitor(t.app);
    const { session, subscription } = await checkedOut(visitor);
    const activeSnapshot = stripe.event('customer.subscription.updated', subscription);
    const deleted = stripe.event(
      'customer.subscription.deleted',
      stripe.cancelSubscription(subscription.id),
    );

    // The newest event first, then the older ones that Stripe delivered late.
    await deliver(deleted);
    await deliver(activeSnapshot);
    await deliver(stripe.event('checkout.session.completed', session));
    const user = await visitor.me();
    expect(user.isSubscribed).toBe(false);
    expect(user.membership?.status).toBe('canceled');
  });

  it('records with no effect an invoice of a subscription Cohort did not make', async () => {
    const visitor = await newVisitor(t.app);
    const { invoice } = stripe.subscribeToOtherProduct(
      stripe.completeCheckout((await checkedOutSessionId(visitor)) ?? '').session
        .customer as string,
      { userId: visitor.userId },
    );
    const event = stripe.event('invoice.paid', invoice);
    const response = await deliver(event);
    expect(response.statusCode).toBe(200);
    expect(await recorded(event.id)).toBe(1);
    expect(await t.database.prisma.entitlement.count({ where: { id: invoice.id } })).toBe(0);
  });

  it('records an event it has no use for and answers 200', async () => {
    const event = stripe.event('customer.created', { id: 'cus_123', object: 'customer' });
    expect((await deliver(event)).statusCode).toBe(200);
    expect(await recorded(event.id)).toBe(1);
  });
});

describe('Stripe webhooks without Stripe keys', () => {
  let t: Site;
  beforeAll(async () => {
    t = await withSite();
  });
  afterAll(() => t?.close());

  it('answers 503: payments are not configured', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/webhooks/stripe',
      payload: '{}',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
    });
    expect(response.statusCode).toBe(503);
    expect(response.json().error).toEqual({
      code: 'payments_not_configured',
      message: 'Payments are not configured on this site yet.',
    });
  });
});

describe('Stripe webhooks while the database is away', () => {
  let stripe: FakeStripe;
  let t: Site;
  let proxy: TcpProxy;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    t = await withSite({
      env: stripe.env(),
      async connectThrough(url) {
        const proxied = await TcpProxy.forUrl(url);
        proxy = proxied.proxy;
        return proxied.url;
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.cut();
    await stripe?.stop();
  });

  it('answers 5xx so Stripe retries, and grants exactly once when the retry arrives', async () => {
    const visitor = await newVisitor(t.app);
    const event = stripe.event(
      'payment_intent.succeeded',
      stripe.paidPaymentIntent({ userId: visitor.userId, offer: EARLY_ACCESS_OFFER }),
    );
    const deliver = () => {
      const { payload, headers } = stripe.signedDelivery(event);
      return t.app.inject({ method: 'POST', url: '/webhooks/stripe', payload, headers });
    };

    await proxy.cut();
    const failed = await deliver();
    expect(failed.statusCode).toBeGreaterThanOrEqual(500);
    expect(failed.body).not.toContain('ECONNREFUSED'); // no internals leak to the caller

    await proxy.restore();
    await expect.poll(async () => (await deliver()).statusCode, { timeout: 10_000 }).toBe(200);
    expect((await deliver()).statusCode).toBe(200); // Stripe's later retry: a duplicate
    expect((await visitor.me()).isSubscribed).toBe(true);
    expect(await t.database.prisma.entitlement.count({ where: { userId: visitor.userId } })).toBe(
      1,
    );
  });
});

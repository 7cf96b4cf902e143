import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '#test/fake-stripe';
import { firstTierAsShown } from '#test/factories';
import { withSite, type Site } from '#test/with-site';
import { newVisitor, type Visitor } from '#test/visitor';
import { EARLY_ACCESS_OFFER } from '../../../../contract/constants.js';

const SITE_URL = 'https://cohort.example';

describe('payments', () => {
  let stripe: FakeStripe;
  let t: Site;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    t = await withSite({
      env: {
        ...stripe.env(),
        SITE_URL,
        MEMBERSHIP_PRICE_CENTS: '1200',
        PAYWALL_DELAY_MS: '30000',
        SOCIAL_URL: 'https://www.instagram.com/cohort.example/',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.stop();
  });

  const createIntent = (visitor: Visitor, payload: unknown) =>
    visitor.request({ method: 'POST', url: '/create-payment-intent', payload: payload as object });
  const deliver = (event: unknown) => {
    const { payload, headers } = stripe.signedDelivery(event);
    return t.app.inject({ method: 'POST', url: '/webhooks/stripe', payload, headers });
  };
  async function startCheckout(visitor: Visitor) {
    const response = await visitor.request({ method: 'POST', url: '/api/checkout' });
    expect(response.statusCode).toBe(200);
    const id = new URL(response.json().url).pathname.split('/').pop() ?? '';
    return { id, url: response.json().url as string };
  }
  const countUsers = () => t.database.prisma.user.count();

  it('tells the browser the publishable key, the price, the plans on sale, the paywall delay and the social link', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      siteName: 'Cohort',
      siteUrl: SITE_URL,
      paymentsEnabled: true,
      stripePublishableKey: 'pk_test_cohort_fake',
      priceCents: 1200,
      currency: 'usd',
      plans: [
        {
          id: 'early-access',
          kind: 'one-time',
          interval: null,
          amountCents: 1200,
          currency: 'usd',
          trialDays: 0,
        },
        {
          id: 'monthly',
          kind: 'subscription',
          interval: 'month',
          amountCents: 100,
          currency: 'usd',
          trialDays: 0,
        },
        {
          id: 'yearly',
          kind: 'subscription',
          interval: 'year',
          amountCents: 1200,
          currency: 'usd',
          trialDays: 0,
        },
      ],
      tiers: [firstTierAsShown({ monthly: 100, yearly: 1200, once: 1200 })],
      paywallDelayMs: 30000,
      social: { url: 'https://www.instagram.com/cohort.example/', label: 'Instagram' },
    });
  });

  describe('POST /create-payment-intent', () => {
    it('creates a PaymentIntent priced on the server, carrying the user id', async () => {
      const visitor = await newVisitor(t.app);
      const response = await createIntent(visitor, { items: [{ id: 'early-access' }] });
      expect(response.statusCode).toBe(200);
      const { clientSecret } = response.json();
      const intent = stripe.get(clientSecret.split('_secret_')[0]);
      expect(intent).toMatchObject({
        amount: 1200,
        currency: 'usd',
        metadata: { userId: visitor.userId, offer: EARLY_ACCESS_OFFER },
      });
    });

    it('makes one PaymentIntent when the form is submitted twice', async () => {
      const visitor = await newVisitor(t.app);
      const before = stripe.requestsTo('POST', '/v1/payment_intents').length;
      const [first, second] = await Promise.all([
        createIntent(visitor, { items: [{ id: 'early-access' }] }),
        createIntent(visitor, { items: [{ id: 'early-access' }] }),
      ]);
      expect(first?.json().clientSecret).toBe(second?.json().clientSecret);
      const calls = stripe.requestsTo('POST', '/v1/payment_intents').slice(before);
      expect(new Set(calls.map((call) => call.idempotencyKey)).size).toBe(1);
      const intents = [...stripe.objects.values()].filter(
        (o) =>
          o.object === 'payment_intent' &&
          (o.metadata as { userId?: string }).userId === visitor.userId,
      );
      expect(intents).toHaveLength(1);
    });

    it.each([
      ['an unknown item', { items: [{ id: 'tshirt' }] }, 'unknown_item'],
      [
        'two memberships at once',
        { items: [{ id: 'early-access' }, { id: 'early-access' }] },
        'invalid_items',
      ],
      ['no items', { items: [] }, 'invalid_request'],
      ['items that are not a list', { items: 'early-access' }, 'invalid_request'],
      ['an item id that is not text', { items: [{ id: 7 }] }, 'invalid_request'],
      ['a price of its own', { items: [{ id: 'early-access' }], amount: 1 }, 'invalid_request'],
      [
        'an item with extra fields',
        { items: [{ id: 'early-access', price: 1 }] },
        'invalid_request',
      ],
      ['no body', undefined, 'invalid_request'],
    ])('answers 400 for %s, and charges nothing', async (_name, payload, code) => {
      const visitor = await newVisitor(t.app);
      const before = stripe.requests.length;
      const response = await visitor.request({
        method: 'POST',
        url: '/create-payment-intent',
        ...(payload === undefined ? {} : { payload }),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe(code);
      expect(response.json().error.message).toBeTruthy();
      expect(stripe.requests.length).toBe(before);
    });

    it('answers 409 to a visitor who is already a member', async () => {
      const visitor = await newVisitor(t.app);
      await deliver(
        stripe.event(
          'payment_intent.succeeded',
          stripe.paidPaymentIntent({ userId: visitor.userId, offer: EARLY_ACCESS_OFFER }),
        ),
      );
      const response = await createIntent(visitor, { items: [{ id: 'early-access' }] });
      expect(response.statusCode).toBe(409);
      expect(response.json().error.code).toBe('already_member');
    });

    it('answers 401 without a session', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/create-payment-intent',
        payload: { items: [{ id: 'early-access' }] },
      });
      expect(response.statusCode).toBe(401);
    });

    it('gives a clear message and writes nothing when Stripe fails', async () => {
      const visitor = await newVisitor(t.app);
      const users = await countUsers();
      stripe.failNext(1, 500); // the SDK's retry gets the same 500 replayed under its key
      const response = await createIntent(visitor, { items: [{ id: 'early-access' }] });
      expect(response.statusCode).toBe(502);
      expect(response.json().error).toEqual({
        code: 'payments_unavailable',
        message:
          'Payments are not working right now. Nothing was charged; please try again in a few minutes.',
      });
      expect(await countUsers()).toBe(users);
    });
  });

  describe('Checkout (Join)', () => {
    it('creates a yearly subscription Checkout Session for this visitor, returning to SITE_URL', async () => {
      const visitor = await newVisitor(t.app);
      const { id, url } = await startCheckout(visitor);
      expect(url).toBe(`${stripe.url}/checkout/${id}`);
      expect(stripe.get(id)).toMatchObject({
        mode: 'subscription',
        client_reference_id: visitor.userId,
        metadata: { userId: visitor.userId },
        subscription_data: { metadata: { userId: visitor.userId } },
        success_url: `${SITE_URL}/?checkout_session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${SITE_URL}/`,
      });
      expect(stripe.get(String(stripe.get(id).price))).toMatchObject({
        unit_amount: 1200,
        currency: 'usd',
        recurring: { interval: 'year' },
        lookup_key: 'cohort_membership_yearly_1200_usd',
      });
    });

    it('makes the yearly Price once, found again by its lookup key, not one per Checkout', async () => {
      const first = await startCheckout(await newVisitor(t.app));
      const second = await startCheckout(await newVisitor(t.app));
      expect(stripe.get(second.id).price).toBe(stripe.get(first.id).price);
      const prices = [...stripe.objects.values()].filter(
        (o) => o.object === 'price' && o.lookup_key === 'cohort_membership_yearly_1200_usd',
      );
      expect(prices).toHaveLength(1);
    });

    it('lets a visitor whose checkout was abandoned start again', async () => {
      const visitor = await newVisitor(t.app);
      const first = await startCheckout(visitor);
      const second = await startCheckout(visitor);
      expect(second.id).not.toBe(first.id);
    });

    it('grants the membership on return, after asking Stripe itself', async () => {
      const visitor = await newVisitor(t.app);
      const { id } = await startCheckout(visitor);

      const unpaid = await visitor.request({ method: 'GET', url: `/api/checkout/${id}` });
      expect(unpaid.statusCode).toBe(200);
      expect(unpaid.json().user.isSubscribed).toBe(false);

      stripe.completeCheckout(id);
      const paid = await visitor.request({ method: 'GET', url: `/api/checkout/${id}` });
      expect(paid.statusCode).toBe(200);
      expect(paid.json().user).toMatchObject({
        id: visitor.userId,
        isSubscribed: true,
        membership: { plan: 'subscription', status: 'active' },
      });
    });

    it('answers 404 for another visitor’s checkout, and grants them nothing', async () => {
      const owner = await newVisitor(t.app);
      const intruder = await newVisitor(t.app);
      const { id } = await startCheckout(owner);
      stripe.completeCheckout(id);

      const response = await intruder.request({ method: 'GET', url: `/api/checkout/${id}` });
      expect(response.statusCode).toBe(404);
      expect((await intruder.me()).isSubscribed).toBe(false);
      expect((await owner.me()).isSubscribed).toBe(false); // nothing granted by someone else's call
    });

    it('answers 400 for an id that is not a Checkout Session, 404 for one Stripe does not know', async () => {
      const visitor = await newVisitor(t.app);
      const bad = await visitor.request({ method: 'GET', url: '/api/checkout/..%2f..%2fadmin' });
      expect(bad.statusCode).toBe(400);
      const unknown = await visitor.request({
        method: 'GET',
        url: '/api/checkout/cs_test_unknown',
      });
      expect(unknown.statusCode).toBe(404);
    });

    it('grants once when the webhook and the checkout return race', async () => {
      const visitor = await newVisitor(t.app);
      const { id } = await startCheckout(visitor);
      const { session } = stripe.completeCheckout(id);
      const event = stripe.event('checkout.session.completed', session);

      const [webhook, checkoutReturn] = await Promise.all([
        deliver(event),
        visitor.request({ method: 'GET', url: `/api/checkout/${id}` }),
      ]);
      expect(webhook.statusCode).toBe(200);
      expect(checkoutReturn.statusCode).toBe(200);
      expect(await t.database.prisma.membership.count({ where: { userId: visitor.userId } })).toBe(
        1,
      );
      expect(await t.database.prisma.entitlement.count({ where: { userId: visitor.userId } })).toBe(
        1,
      );
      expect((await visitor.me()).isSubscribed).toBe(true);
    });

    it('sends a member to the billing portal instead of a second subscription', async () => {
      const visitor = await newVisitor(t.app);
      const { id } = await startCheckout(visitor);
      stripe.completeCheckout(id);
      await visitor.request({ method: 'GET', url: `/api/checkout/${id}` });

      const again = await visitor.request({ method: 'POST', url: '/api/checkout' });
      expect(again.statusCode).toBe(200);
      expect(again.json().url).toMatch(new RegExp(`^${stripe.url}/portal/`));
    });
  });

  it('grants nothing for a forged ?stripe_success or checkout address', async () => {
    const visitor = await newVisitor(t.app);
    await visitor.request({ method: 'GET', url: '/?stripe_success=true' });
    await visitor.request({ method: 'GET', url: '/?checkout_session_id=cs_test_forged' });
    const forged = await visitor.request({ method: 'GET', url: '/api/checkout/cs_test_forged' });
    expect(forged.statusCode).toBe(404);
    expect((await visitor.me()).isSubscribed).toBe(false);
  });

  it('only lets a registered user with a Stripe customer open the billing portal', async () => {
    const visitor = await newVisitor(t.app);
    const response = await visitor.request({ method: 'POST', url: '/api/billing-portal' });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('registration_required');
  });
});

describe('payments without Stripe keys', () => {
  let t: Site;
  beforeAll(async () => {
    t = await withSite();
  });
  afterAll(() => t?.close());

  it('says payments are off in /api/config, and no social link without SOCIAL_URL', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(response.json()).toMatchObject({
      paymentsEnabled: false,
      stripePublishableKey: null,
      social: null,
    });
  });

  it.each([
    ['POST', '/create-payment-intent'],
    ['POST', '/api/checkout'],
    ['GET', '/api/checkout/cs_test_1'],
    ['POST', '/api/billing-portal'],
  ] as const)('%s %s answers 503 with the message', async (method, url) => {
    const visitor = await newVisitor(t.app);
    const response = await visitor.request({
      method,
      url,
      ...(url === '/create-payment-intent' ? { payload: { items: [{ id: 'early-access' }] } } : {}),
    });
    expect(response.statusCode).toBe(503);
    expect(response.json().error).toEqual({
      code: 'payments_not_configured',
      message: 'Payments are not configured on this site yet.',
    });
  });
});

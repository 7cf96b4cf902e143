import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FakeStripe } from '#test/fake-stripe';
import { buildMember } from '#test/factories';
import { sessionCookieOf } from '#test/registration';
import { newVisitor, visitorWith, type Visitor } from '#test/visitor';
import { withSite, type Site } from '#test/with-site';
import { earlyAccessMetadata } from '../stripe/cohort-sales.js';

// The whole life of a payment, against the real app and PostgreSQL, with Stripe's side played by
// the fake built from Stripe's published fixtures: events arrive in Stripe's order, or shuffled,
// duplicated and late, and the webhook re-reads every object from the fake before acting.

const DAY_MS = 24 * 3600 * 1000;
const PASSWORD = 'correct horse battery staple';
const MEMBERSHIP_PRICE = { priceCents: 1200, currency: 'usd', priceId: undefined };

describe('a membership through the whole life of a payment', () => {
  let stripe: FakeStripe;
  let t: Site;

  beforeAll(async () => {
    t = await withSite({ payments: true });
    stripe = t.stripe;
  });
  afterAll(async () => {
    await t?.close();
  });
  // Each story starts with nothing in flight: what one left undelivered never reaches the next.
  beforeEach(() => stripe.clearPending());

  const deliverAll = (options?: Parameters<FakeStripe['deliverPending']>[0]) =>
    stripe.deliverPending(options);
  const entitlementsOf = (userId: string) =>
    t.database.prisma.entitlement.findMany({
      where: { userId },
      select: { id: true, source: true, state: true, stateReason: true },
      orderBy: { paidAt: 'asc' },
    });
  const expiresInDays = async (visitor: Visitor) => {
    const { membership } = await visitor.me();
    return (Date.parse(membership?.expiresAt ?? '') - Date.now()) / DAY_MS;
  };

  /** The early-access form paid at Stripe (events pending, not delivered). */
  const payOnce = (visitor: Visitor) =>
    stripe.paidPaymentIntent(earlyAccessMetadata(visitor.userId, MEMBERSHIP_PRICE));

  /** Join: a Checkout Session opened through the app (not paid yet). */
  async function openCheckout(visitor: Visitor): Promise<string> {
    const response = await visitor.request({ method: 'POST', url: '/api/checkout' });
    expect(response.statusCode).toBe(200);
    return new URL(response.json().url).pathname.split('/').pop() ?? '';
  }

  /** Join, paid at Stripe (events pending). */
  const subscribe = async (visitor: Visitor) =>
    stripe.completeCheckout(await openCheckout(visitor));

  /** A browser signed in to an account of its own, with a password to sign in elsewhere. */
  async function account(email?: string): Promise<Visitor> {
    const member = await buildMember(t, { email, password: PASSWORD });
    return visitorWith(t.app, member.userId, member.cookie);
  }

  /** Signs in to the account of `email` in `visitor`'s browser: what it paid moves with it. */
  async function signIn(visitor: Visitor, email: string): Promise<Visitor> {
    const response = await visitor.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    return visitorWith(t.app, visitor.userId, sessionCookieOf(response));
  }

  const uniqueEmail = () => `member-${Math.random().toString(36).slice(2)}@example.com`;

  describe('what is taken back stays taken back', () => {
    it('grants nothing when a refund is handled before the payment’s own success event', async () => {
      const visitor = await newVisitor(t.app);
      const intent = payOnce(visitor);
      stripe.refund(intent.id);

      await deliverAll({ only: ['charge.refunded'] });
      await deliverAll();
      expect((await visitor.me()).isSubscribed).toBe(false);
      expect(await entitlementsOf(visitor.userId)).toMatchObject([
        { source: 'one_time', state: 'refunded' },
      ]);
    });

    it('ends a refunded subscription now, cancels it at Stripe, and nothing brings it back', async () => {
      const visitor = await newVisitor(t.app);
      const { session, subscription, charge } = await subscribe(visitor);
      await deliverAll();
      expect((await visitor.me()).isSubscribed).toBe(true);

      stripe.refund(charge.id);
      await deliverAll();
      expect((await visitor.me()).isSubscribed).toBe(false);
      expect(stripe.get(subscription.id).status).toBe('canceled');

      // A late sync, a replay of the checkout, the member reloading the checkout return.
      await deliverAll();
      const late = stripe.event('customer.subscription.updated', subscription);
      const { payload, headers } = stripe.signedDelivery(late);
      await t.app.inject({ method: 'POST', url: '/webhooks/stripe', payload, headers });
      await visitor.request({ method: 'GET', url: `/api/checkout/${String(session.id)}` });
      const user = await visitor.me();
      expect(user.isSubscribed).toBe(false);
      expect(user.membership?.status).toBe('refunded');
    });

    it('keeps the renewed year when last year’s subscription charge is refunded', async () => {
      const visitor = await newVisitor(t.app);
      // Subscribed a year ago: the first period ended an hour ago, and the renewal runs now.
      const { subscription, charge: firstCharge } = stripe.completeCheckout(
        await openCheckout(visitor),
        { periodEnd: Math.floor(Date.now() / 1000) - 3600 },
      );
      await deliverAll();
      const renewal = stripe.renewSubscription(subscription.id);
      await deliverAll();
      const renewedUntil = await expiresInDays(visitor);

      stripe.refund(firstCharge.id);
      await deliverAll();
      expect((await visitor.me()).isSubscribed).toBe(true);
      expect(await expiresInDays(visitor)).toBeCloseTo(renewedUntil, 3);
      expect(stripe.get(subscription.id).status).toBe('active');
      expect(renewal.invoice.id).toBeTruthy();
    });

    it('leaves access as it is after a partial refund', async () => {
      const visitor = await newVisitor(t.app);
      const intent = payOnce(visitor);
      await deliverAll();
      stripe.refund(intent.id, 200);
      await deliverAll();
      expect((await visitor.me()).isSubscribed).toBe(true);
    });
  });

  describe('disputes', () => {
    it('suspends a disputed payment, and restores it when the dispute is won', async () => {
      const visitor = await newVisitor(t.app);
      const intent = payOnce(visitor);
      await deliverAll();
      const dispute = stripe.openDispute(String(stripe.get(intent.id).latest_charge));
      await deliverAll();
      const disputed = await visitor.me();
      expect(disputed.isSubscribed).toBe(false);
      expect(disputed.membership?.status).toBe('disputed');

      stripe.closeDispute(dispute.id, 'won');
      await deliverAll();
      expect((await visitor.me()).isSubscribed).toBe(true);
    });

    it('revokes for good a dispute lost, and cancels the subscription at Stripe', async () => {
      const visitor = await newVisitor(t.app);
      const { subscription, charge } = await subscribe(visitor);
      await deliverAll();
      const dispute = stripe.openDispute(charge.id);
      stripe.closeDispute(dispute.id, 'lost');
      // The close first, the opening late: the dispute is read as Stripe has it now.
      await deliverAll({ order: 'shuffled', seed: 7 });
      const user = await visitor.me();
      expect(user.isSubscribed).toBe(false);
      expect(user.membership?.status).toBe('revoked');
      expect(stripe.get(subscription.id).status).toBe('canceled');
    });
  });

  describe('failed renewals', () => {
    it('gives the grace days after the last paid period, never the unpaid one, and unpaid ends it', async () => {
      const visitor = await newVisitor(t.app);
      const { subscription } = await subscribe(visitor);
      await deliverAll();
      const paidUntil = Date.parse((await visitor.me()).membership?.expiresAt ?? '');

      stripe.failRenewal(subscription.id);
      await deliverAll();
      const pastDue = await visitor.me();
      expect(pastDue.membership?.status).toBe('past_due');
      expect(Date.parse(pastDue.membership?.expiresAt ?? '')).toBe(paidUntil + 7 * DAY_MS);

      stripe.setSubscriptionStatus(subscription.id, 'unpaid');
      await deliverAll();
      expect((await visitor.me()).isSubscribed).toBe(false);
    });
  });

  describe('no paid time is ever lost', () => {
    it('creates one user and counts both years when two payments for a new visitor land at once', async () => {
      const visitor = await newVisitor(t.app);
      const deliveries = [payOnce(visitor), payOnce(visitor)].map((intent) =>
        stripe.signedDelivery(stripe.event('payment_intent.succeeded', intent)),
      );
      stripe.clearPending();
      const answers = await Promise.all(
        deliveries.map(({ payload, headers }) =>
          t.app.inject({ method: 'POST', url: '/webhooks/stripe', payload, headers }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
      expect(await t.database.prisma.user.count({ where: { id: visitor.userId } })).toBe(1);
      expect(await expiresInDays(visitor)).toBeGreaterThan(2 * 364);
    });

    it('keeps a one-time year bought while a subscription is live through the next sync', async () => {
      const visitor = await newVisitor(t.app);
      const { subscription } = await subscribe(visitor);
      await deliverAll();
      const subscribedFor = await expiresInDays(visitor);
      // Bought in another tab before the membership showed.
      payOnce(visitor);
      await deliverAll();
      expect(await expiresInDays(visitor)).toBeGreaterThan(subscribedFor + 364);

      const sync = stripe.event('customer.subscription.updated', stripe.get(subscription.id));
      const { payload, headers } = stripe.signedDelivery(sync);
      await t.app.inject({ method: 'POST', url: '/webhooks/stripe', payload, headers });
      expect(await expiresInDays(visitor)).toBeGreaterThan(subscribedFor + 364);
    });

    it('stores a subscription paid while a one-time year is live, and deleting the account cancels it', async () => {
      const visitor = await account();
      // Checkout opened in a tab before the year was bought, paid after it showed.
      const checkout = await openCheckout(visitor);
      payOnce(visitor);
      await deliverAll();
      const { subscription } = stripe.completeCheckout(checkout);
      await deliverAll();
      expect(await expiresInDays(visitor)).toBeGreaterThan(2 * 364);
      expect(await entitlementsOf(visitor.userId)).toHaveLength(2);

      const deleted = await visitor.request({
        method: 'POST',
        url: '/api/account/delete',
        payload: { password: PASSWORD },
      });
      expect(deleted.statusCode).toBe(200);
      expect(stripe.get(subscription.id).status).toBe('canceled');
    });
  });

  describe('one subscription per user', () => {
    it('opens the billing portal instead of a second Checkout', async () => {
      const visitor = await newVisitor(t.app);
      await subscribe(visitor);
      await deliverAll();
      const again = await visitor.request({ method: 'POST', url: '/api/checkout' });
      expect(again.statusCode).toBe(200);
      expect(again.json().url).toContain('/portal/');
    });

    it('cancels and refunds the newer of two subscriptions paid in two tabs', async () => {
      const visitor = await newVisitor(t.app);
      const first = await openCheckout(visitor);
      const second = await openCheckout(visitor);
      const older = stripe.completeCheckout(first);
      const newer = stripe.completeCheckout(second);
      await deliverAll({ order: 'shuffled', seed: 3 });

      // Both were made within a second; Stripe's `created` says which is newer, else the id.
      const statuses = [older, newer].map((paid) => ({
        subscription: stripe.get(paid.subscription.id).status,
        refunded: stripe.get(paid.charge.id).refunded,
      }));
      expect(statuses).toContainEqual({ subscription: 'active', refunded: false });
      expect(statuses).toContainEqual({ subscription: 'canceled', refunded: true });
      await deliverAll();
      const user = await visitor.me();
      expect(user.isSubscribed).toBe(true);
      expect(await expiresInDays(visitor)).toBeLessThan(366);
      const states = (await entitlementsOf(visitor.userId)).map((e) => e.state).sort();
      expect(states).toEqual(['active', 'revoked']);
    });
  });

  describe('payments follow their user', () => {
    it('applies a payment that arrives after the payer signed in to the account', async () => {
      const email = uniqueEmail();
      const owner = await account(email);
      const device = await newVisitor(t.app);
      payOnce(device); // paid on this device; Stripe's event is late

      await signIn(device, email);
      await deliverAll();
      expect((await owner.me()).isSubscribed).toBe(true);
      expect(await entitlementsOf(owner.userId)).toHaveLength(1);
    });

    it('keeps both Stripe customers after a sign-in move, and refunds find the moved payment', async () => {
      const email = uniqueEmail();
      const owner = await account(email);
      const ownSubscription = await subscribe(owner);
      await deliverAll();
      stripe.cancelSubscription(ownSubscription.subscription.id);
      await deliverAll();

      const device = await newVisitor(t.app);
      const moved = await subscribe(device);
      await deliverAll();
      await signIn(device, email);
      const customers = await t.database.prisma.stripeCustomer.findMany({
        where: { userId: owner.userId },
      });
      expect(customers.map((c) => c.id).sort()).toEqual(
        [ownSubscription.session.customer, moved.session.customer].map(String).sort(),
      );
      const portal = await owner.request({ method: 'POST', url: '/api/billing-portal' });
      expect(stripe.get(new URL(portal.json().url).pathname.split('/').pop() ?? '').customer).toBe(
        moved.session.customer,
      );

      stripe.refund(moved.charge.id);
      await deliverAll();
      expect((await owner.me()).isSubscribed).toBe(false);
    });

    it('answers 200 for a late checkout.session.completed after a sign-in move', async () => {
      const email = uniqueEmail();
      const owner = await account(email);
      await subscribe(owner);
      await deliverAll();
      const device = await newVisitor(t.app);
      await subscribe(device);
      await deliverAll({ except: ['checkout.session.completed'] });
      await signIn(device, email);
      const { delivered } = await deliverAll();
      expect(delivered.map((d) => d.status)).not.toContain(500);
      expect(delivered.every((d) => d.status === 200)).toBe(true);
    });
  });

  describe('deleted stays deleted', () => {
    it('records a payment for a deleted user with no effect, never re-creating them', async () => {
      const visitor = await account();
      payOnce(visitor); // the webhook is late
      await visitor.request({
        method: 'POST',
        url: '/api/account/delete',
        payload: { password: PASSWORD },
      });
      const { delivered } = await deliverAll();
      expect(delivered.every((d) => d.status === 200)).toBe(true);
      expect(await t.database.prisma.user.count({ where: { id: visitor.userId } })).toBe(0);
      expect(await entitlementsOf(visitor.userId)).toEqual([]);
    });
  });

  describe('only Cohort’s own offer counts', () => {
    it('grants nothing for the offer’s metadata on another amount or currency', async () => {
      const visitor = await newVisitor(t.app);
      stripe.paidPaymentIntent(earlyAccessMetadata(visitor.userId, MEMBERSHIP_PRICE), 1, 'jpy');
      const { delivered } = await deliverAll();
      expect(delivered.every((d) => d.status === 200)).toBe(true);
      expect((await visitor.me()).isSubscribed).toBe(false);
    });

    it('ignores another product’s subscription on a member’s customer', async () => {
      const visitor = await newVisitor(t.app);
      const { session } = await subscribe(visitor);
      await deliverAll();
      stripe.cancelSubscription(String(session.subscription));
      await deliverAll();
      const foreign = stripe.subscribeToOtherProduct(String(session.customer), {
        userId: visitor.userId,
      });
      const { delivered } = await deliverAll();
      expect(delivered.every((d) => d.status === 200)).toBe(true);
      expect((await visitor.me()).isSubscribed).toBe(false);
      expect(
        await t.database.prisma.subscription.count({ where: { id: foreign.subscription.id } }),
      ).toBe(0);
    });
  });

  describe('what Stripe sends', () => {
    it('answers 400 for a signed payload that is not an event, and records nothing', async () => {
      const { payload, headers } = stripe.signedDelivery({
        id: 'evt_without_data',
        object: 'event',
        type: 'payment_intent.succeeded',
      });
      const response = await t.app.inject({
        method: 'POST',
        url: '/webhooks/stripe',
        payload,
        headers,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_event');
      expect(await t.database.prisma.stripeEvent.count({ where: { id: 'evt_without_data' } })).toBe(
        0,
      );
    });

    it('acts on the object as Stripe has it now, whatever API version the endpoint sends', async () => {
      stripe.webhookApiVersion = '2024-06-20';
      try {
        const visitor = await newVisitor(t.app);
        await subscribe(visitor);
        await deliverAll();
        expect((await visitor.me()).isSubscribed).toBe(true);
      } finally {
        stripe.webhookApiVersion = undefined;
      }
    });

    it('lists the member’s payments and what each covered', async () => {
      const visitor = await newVisitor(t.app);
      const first = payOnce(visitor);
      payOnce(visitor);
      await deliverAll();
      stripe.refund(first.id);
      await deliverAll();
      const response = await visitor.request({ method: 'GET', url: '/api/account/payments' });
      expect(response.statusCode).toBe(200);
      const { payments } = response.json() as {
        payments: { id: string; state: string; covers: { from: string; until: string } | null }[];
      };
      expect(payments).toHaveLength(2);
      const refunded = payments.find((p) => p.id === first.id);
      expect(refunded).toMatchObject({ state: 'refunded', covers: null });
      const kept = payments.find((p) => p.id !== first.id);
      const covered = Date.parse(kept?.covers?.until ?? '') - Date.parse(kept?.covers?.from ?? '');
      expect(covered).toBe(365 * DAY_MS);
    });
  });
});

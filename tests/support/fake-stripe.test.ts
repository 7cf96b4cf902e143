import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_STRIPE_KEYS, startFakeStripe, type FakeStripe } from './fake-stripe.js';
import { fixture } from './stripe-fixtures.js';

// The fake is only worth its tests if it behaves as Stripe documents, through the real SDK.

describe('the fake Stripe', () => {
  let fake: FakeStripe;
  let stripe: Stripe;

  beforeAll(async () => {
    fake = await startFakeStripe();
    const url = new URL(fake.url);
    stripe = new Stripe(FAKE_STRIPE_KEYS.STRIPE_SECRET_KEY, {
      host: url.hostname,
      port: Number(url.port),
      protocol: 'http',
      maxNetworkRetries: 0,
      telemetry: false,
    });
  });
  afterAll(() => fake?.stop());
  beforeEach(() => fake.clearPending());

  it('makes objects from Stripe’s published fixtures, with every field Stripe sends', async () => {
    const paid = fake.paidPaymentIntent({ offer: 'early-access' });
    const intent = await stripe.paymentIntents.retrieve(paid.id, { expand: ['latest_charge'] });
    expect(Object.keys(intent).sort()).toEqual(Object.keys(fixture('payment_intent')).sort());
    expect(intent.status).toBe('succeeded');
    expect(typeof intent.latest_charge === 'object' && intent.latest_charge?.paid).toBe(true);
  });

  it('replays the first answer for an idempotency key, a failure included', async () => {
    const params = { amount: 1200, currency: 'usd', metadata: { n: '1' } };
    const first = await stripe.paymentIntents.create(params, { idempotencyKey: 'key-a' });
    const again = await stripe.paymentIntents.create(params, { idempotencyKey: 'key-a' });
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');

    fake.failNext(1, 500);
    await expect(
      stripe.paymentIntents.create(params, { idempotencyKey: 'key-b' }),
    ).rejects.toThrow();
    await expect(stripe.paymentIntents.create(params, { idempotencyKey: 'key-b' })).rejects.toThrow(
      /injected failure/,
    );
  });

  it('refuses a key used again with other parameters', async () => {
    await stripe.paymentIntents.create(
      { amount: 1200, currency: 'usd' },
      { idempotencyKey: 'key-c' },
    );
    await expect(
      stripe.paymentIntents.create({ amount: 1300, currency: 'usd' }, { idempotencyKey: 'key-c' }),
    ).rejects.toMatchObject({ type: 'StripeIdempotencyError' });
  });

  it('emits a Checkout’s events in Stripe’s order, with previous_attributes on updates', async () => {
    const price = await stripe.prices.create({
      unit_amount: 1200,
      currency: 'usd',
      recurring: { interval: 'year' },
      product_data: { name: 'Membership' },
    });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: 'https://example.com/?id={CHECKOUT_SESSION_ID}',
    });
    fake.clearPending();
    fake.completeCheckout(session.id);
    const types = fake.pendingEvents().map((event) => event.type);
    expect(types).toEqual([
      'customer.created',
      'customer.subscription.created',
      'invoice.created',
      'invoice.finalized',
      'payment_intent.created',
      'charge.succeeded',
      'payment_intent.succeeded',
      'invoice.payment_succeeded',
      'invoice.paid',
      'customer.subscription.updated',
      'checkout.session.completed',
    ]);
    const updated = fake.pendingEvents().find((e) => e.type === 'customer.subscription.updated');
    expect(updated?.data.previous_attributes).toEqual({ status: 'incomplete' });
  });

  it('refunds through the API as Stripe does: the charge updated, events emitted, no refund twice', async () => {
    const paid = fake.paidPaymentIntent({});
    fake.clearPending();
    await stripe.refunds.create({ payment_intent: paid.id, amount: 200 });
    const charge = await stripe.charges.retrieve(String(paid.latest_charge));
    expect(charge).toMatchObject({ amount_refunded: 200, refunded: false });
    expect(fake.pendingEvents().map((event) => event.type)).toEqual([
      'refund.created',
      'charge.refunded',
    ]);
    await stripe.refunds.create({ payment_intent: paid.id });
    await expect(stripe.refunds.create({ payment_intent: paid.id })).rejects.toMatchObject({
      code: 'charge_already_refunded',
    });
  });

  it('finds an invoice’s payment by its PaymentIntent, and disputes by their charge', async () => {
    const customer = await stripe.customers.create({ email: 'a@example.com' });
    const { invoice, paymentIntent, charge } = fake.subscribeToOtherProduct(customer.id);
    const payments = await stripe.invoicePayments.list({
      payment: { type: 'payment_intent', payment_intent: paymentIntent.id },
    });
    expect(payments.data.map((payment) => payment.invoice)).toEqual([invoice.id]);
    const dispute = fake.openDispute(charge.id);
    const disputes = await stripe.disputes.list({ charge: charge.id });
    expect(disputes.data.map((each) => each.id)).toEqual([dispute.id]);
  });

  it('prorates a change of Price within the period at once with always_invoice, as Stripe documents', async () => {
    const make = (unit_amount: number, tier: string) =>
      stripe.prices.create({
        unit_amount,
        currency: 'usd',
        recurring: { interval: 'year' },
        lookup_key: `proration_${tier}_${unit_amount}`,
        metadata: { tier },
        product_data: { name: tier },
      });
    const [cheap, dear] = [await make(1200, 'supporter'), await make(3600, 'founder')];
    expect(dear.metadata).toEqual({ tier: 'founder' });
    const customer = await stripe.customers.create({ email: 'prorate@example.com' });
    const started = fake.subscribeCustomer(customer.id, cheap.id);
    const before = await stripe.subscriptions.retrieve(started.subscription.id);
    const [item] = before.items.data;
    fake.clearPending();

    const after = await stripe.subscriptions.update(before.id, {
      items: [{ id: item?.id, price: dear.id }],
      proration_behavior: 'always_invoice',
      payment_behavior: 'pending_if_incomplete',
    });
    // The period and the billing date stay; the item takes the new Price.
    expect(after.items.data[0]).toMatchObject({
      price: { id: dear.id },
      current_period_start: item?.current_period_start,
      current_period_end: item?.current_period_end,
    });
    expect(after.billing_cycle_anchor).toBe(before.billing_cycle_anchor);
    const invoice = await stripe.invoices.retrieve(String(after.latest_invoice));
    expect(invoice).toMatchObject({ billing_reason: 'subscription_update', status: 'paid' });
    const [credit, charge] = invoice.lines.data;
    for (const line of [credit, charge]) {
      expect(Object.keys(line ?? {}).sort()).toEqual(
        Object.keys((fixture('invoice').lines as { data: object[] }).data[0] ?? {}).sort(),
      );
      expect(line?.parent?.subscription_item_details?.proration).toBe(true);
      expect(line?.period).toEqual(charge?.period);
    }
    // The time left: from the change to the period's end.
    expect(charge?.period.end).toBe(item?.current_period_end);
    expect(invoice.created - (charge?.period.start ?? 0)).toBeLessThanOrEqual(1);
    // Nearly the whole year is left: about $12 credited, $36 charged, $24 paid.
    expect(credit?.pricing?.price_details?.price).toBe(cheap.id);
    expect(credit?.amount).toBeLessThan(0);
    expect(-(credit?.amount ?? 0)).toBeGreaterThan(1190);
    expect(credit?.parent?.subscription_item_details?.proration_details?.credited_items).toEqual({
      invoice: started.invoice.id,
      invoice_line_items: [(started.invoice.lines as { data: { id: string }[] }).data[0]?.id],
    });
    expect(charge?.pricing?.price_details?.price).toBe(dear.id);
    expect(charge?.amount).toBeGreaterThan(3570);
    expect(invoice.amount_paid).toBe((credit?.amount ?? 0) + (charge?.amount ?? 0));
    expect(fake.pendingEvents().map((event) => event.type)).toEqual([
      'invoice.created',
      'invoice.finalized',
      'customer.subscription.updated',
      'payment_intent.created',
      'charge.succeeded',
      'payment_intent.succeeded',
      'invoice.payment_succeeded',
      'invoice.paid',
    ]);

    // Back with proration off: nothing invoiced now; the renewal charges the Price then.
    await stripe.subscriptions.update(before.id, {
      items: [{ id: item?.id, price: cheap.id }],
      proration_behavior: 'none',
    });
    const same = await stripe.subscriptions.retrieve(before.id);
    expect(same.latest_invoice).toBe(invoice.id);
    const renewal = fake.renewSubscription(before.id);
    expect(renewal.invoice.amount_paid).toBe(1200);
  });

  it('lists events newest first, a page at a time', async () => {
    fake.paidPaymentIntent({});
    const first = await stripe.events.list({ limit: 2 });
    const next = await stripe.events.list({ limit: 2, starting_after: first.data[1]?.id });
    expect(first.has_more).toBe(true);
    expect(first.data[0]?.type).toBe('payment_intent.succeeded');
    expect(next.data[0]?.created).toBeLessThanOrEqual(first.data[1]?.created ?? 0);
  });

  it('delivers in a seeded shuffle, duplicates on request, and keeps refused events pending', async () => {
    const seen: string[] = [];
    let refuse = true;
    fake.setWebhookTarget(async ({ payload }) => {
      const event = JSON.parse(payload) as { type: string };
      seen.push(event.type);
      return refuse && event.type === 'charge.succeeded' ? 500 : 200;
    });
    fake.paidPaymentIntent({});
    const order = fake.pendingEvents().map((event) => event.type);
    const { delivered } = await fake.deliverPending({
      order: 'shuffled',
      seed: 5,
      duplicate: true,
    });
    expect(delivered).toHaveLength(2 * order.length);
    expect(fake.pendingEvents().map((event) => event.type)).toEqual(['charge.succeeded']);
    refuse = false;
    await fake.deliverPending();
    expect(fake.pendingEvents()).toEqual([]);
  });
});

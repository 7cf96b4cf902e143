import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';
import Stripe from 'stripe';
import { fixture, type StripeObject } from './stripe-fixtures.js';

/**
 * A local stand-in for Stripe's API, for the real `stripe` SDK (STRIPE_API_URL) and the browser's
 * Stripe.js stand-in. It behaves as Stripe documents, not as the app expects:
 * - every object starts as Stripe's published fixture (stripe-fixtures.ts), with the fields a
 *   scenario needs set on top;
 * - what happens at Stripe (a card paid, a Checkout completed, a renewal paid or failed, a refund,
 *   a dispute) updates the objects as Stripe does and emits the events Stripe emits, in its usual
 *   order, with `previous_attributes` on updates; API calls that Stripe answers with events (a
 *   refund, a cancellation) emit them too;
 * - events are queued for a webhook target and delivered in order, shuffled, duplicated or held
 *   back on request; an answer other than 2xx keeps the event pending, as Stripe retries;
 * - an Idempotency-Key replays the first answer (failures included) and is refused with other
 *   parameters.
 */

export type { StripeObject };

export const FAKE_STRIPE_KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_cohort_fake',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_cohort_fake',
  STRIPE_WEBHOOK_SECRET: 'whsec_cohort_fake_secret',
};

/** The API version of the SDK the app pins; events carry it unless told otherwise. */
export const PINNED_API_VERSION = '2026-10-28.endive';

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * The end of a billing period that starts at `start`, as Stripe counts it: the same day of the
 * next month (the month's last day when it has fewer days) or of the next year.
 */
export function periodEnd(start: number, interval: string, count = 1): number {
  const date = new Date(start * 1000);
  const months = interval === 'month' ? count : interval === 'year' ? 12 * count : 0;
  if (months === 0) throw new Error(`The fake Stripe bills by month or year, not ${interval}`);
  const day = date.getUTCDate();
  const target = new Date(date);
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const last = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(day, last));
  return Math.floor(target.getTime() / 1000);
}

/** A Price's billing interval (`year` for the fixture's). */
const intervalOf = (price: StripeObject) =>
  (price.recurring as { interval?: string } | null)?.interval ?? 'year';

/** The start of the period that ends at `end`. */
function periodStart(end: number, interval: string): number {
  // Counted back as Stripe counts forward: the first start whose period ends at or after `end`.
  const date = new Date(end * 1000);
  const months = interval === 'month' ? 1 : 12;
  date.setUTCMonth(date.getUTCMonth() - months);
  return Math.floor(date.getTime() / 1000);
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
  idempotencyKey: string | undefined;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  type: string;
  livemode: boolean;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  data: { object: StripeObject; previous_attributes?: Record<string, unknown> };
}

export interface Delivery {
  payload: string;
  headers: Record<string, string>;
}

export interface DeliverOptions {
  /** `stripe`: in the order emitted; `shuffled`: a seeded random order (Stripe does not order). */
  order?: 'stripe' | 'shuffled';
  /** Deliver each event twice, the copy later in the sequence. */
  duplicate?: boolean;
  seed?: number;
  /** Deliver only events of these types now; the rest stay pending. */
  only?: string[];
  /** Hold back events of these types; they stay pending. */
  except?: string[];
}

interface Answer {
  status: number;
  body: unknown;
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error: Record<string, unknown> },
  ) {
    super(String(body.error.message));
  }
}

const notFound = (id: string | undefined) =>
  new StripeApiError(404, {
    error: {
      type: 'invalid_request_error',
      code: 'resource_missing',
      message: `No such object: '${id ?? ''}'`,
    },
  });
const invalid = (message: string, code?: string) =>
  new StripeApiError(400, { error: { type: 'invalid_request_error', code, message } });

/** The PaymentIntent states Stripe lets a PaymentIntent be canceled from. */
const CANCELABLE_INTENT = new Set([
  'requires_payment_method',
  'requires_capture',
  'requires_confirmation',
  'requires_action',
  'processing',
]);

const unexpectedState = (intent: StripeObject, action: 'cancel' | 'confirm') =>
  invalid(
    `You cannot ${action} this PaymentIntent because it has a status of ${String(intent.status)}.`,
    'payment_intent_unexpected_state',
  );

/** A seeded PRNG (mulberry32), so a shuffled delivery can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const list = (data: unknown[], url: string) => ({ object: 'list', data, has_more: false, url });

/** How long Stripe keeps events for the Events API. */
const EVENT_RETENTION_SECONDS = 30 * 24 * 3600;

/** One page of a list, as Stripe pages them: `limit` (default 10) after `starting_after`. */
function page(all: { id: string }[], body: Record<string, unknown>, url: string) {
  const start = body.starting_after
    ? all.findIndex((item) => item.id === body.starting_after) + 1
    : 0;
  const limit = Math.min(Number(body.limit ?? 10), 100);
  return { ...list(all.slice(start, start + limit), url), has_more: start + limit < all.length };
}

export class FakeStripe {
  readonly objects = new Map<string, StripeObject>();
  /** How many invoices each discount has taken something off (a `once` coupon takes one). */
  private readonly discountUses = new Map<string, number>();
  readonly requests: RecordedRequest[] = [];
  /** Every event emitted, in order: what GET /v1/events lists. */
  readonly events: StripeEvent[] = [];
  /** The API version emitted events carry (an endpoint made with an older version gets that). */
  webhookApiVersion: string | undefined;
  /** The next card confirmation is declined, as Stripe.js reports a card error. */
  declineNextCard = false;
  /** Secret keys Stripe no longer accepts (rolled or deleted): calls with them answer 401. */
  readonly revokedKeys = new Set<string>();
  /**
   * The billing portal's saved settings. A new Stripe account has none (the portal then refuses
   * sessions); this fake starts as an account set up as docs/payments.md says, with them saved.
   */
  readonly portalConfigurations: StripeObject[] = [];
  /** The account's webhook endpoints (Dashboard → Developers → Webhooks). */
  readonly webhookEndpoints: StripeObject[] = [];
  url = '';

  private pending: StripeEvent[] = [];
  private target: ((delivery: Delivery) => Promise<number>) | undefined;
  private readonly idempotent = new Map<string, { fingerprint: string; answer: Answer }>();
  private failures = { status: 0, remaining: 0, hang: false };
  private server: http.Server | undefined;
  /** The real SDK, for signing webhook payloads exactly as Stripe does. */
  private readonly sdk = new Stripe(FAKE_STRIPE_KEYS.STRIPE_SECRET_KEY);

  constructor() {
    this.savePortalSettings();
  }

  async start(): Promise<this> {
    this.server = http.createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** The environment that points the app at this fake. */
  env(): Record<string, string> {
    return { ...FAKE_STRIPE_KEYS, STRIPE_API_URL: this.url };
  }

  /** The next `count` API calls answer `status` (or never answer, with `hang`). */
  failNext(count: number, status = 500, hang = false) {
    this.failures = { status, remaining: count, hang };
  }

  get<T extends StripeObject = StripeObject>(id: string): T {
    const object = this.objects.get(id);
    if (!object) throw new Error(`FakeStripe has no ${id}`);
    return object as T;
  }

  requestsTo(method: string, path: string) {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  /** Saves the billing portal's settings, as the operator does once per mode in the Dashboard. */
  savePortalSettings(): StripeObject {
    const configuration = {
      ...fixture('billing_portal.configuration'),
      id: newId('bpc'),
      livemode: false,
      is_default: true,
      active: true,
    } as StripeObject;
    this.portalConfigurations.push(configuration);
    return configuration;
  }

  /** Adds a webhook endpoint, as the operator does in the Dashboard. */
  addWebhookEndpoint(fields: {
    url: string;
    enabled_events: string[];
    api_version?: string | null;
    status?: 'enabled' | 'disabled';
  }): StripeObject {
    const endpoint = {
      ...fixture('webhook_endpoint'),
      id: newId('we'),
      created: nowSeconds(),
      livemode: false,
      description: null,
      status: 'enabled',
      api_version: null,
      ...fields,
    } as StripeObject;
    this.webhookEndpoints.push(endpoint);
    return endpoint;
  }

  // ── Objects, from Stripe's fixtures ──────────────────────────────────────────────────────

  private make(resource: string, prefix: string, fields: Record<string, unknown>): StripeObject {
    const object = {
      ...fixture(resource),
      id: newId(prefix),
      created: nowSeconds(),
      livemode: false,
      metadata: {},
      ...fields,
    } as StripeObject;
    this.objects.set(object.id, object);
    return object;
  }

  private find(predicate: (object: StripeObject) => boolean): StripeObject[] {
    return [...this.objects.values()].filter(predicate);
  }

  /** Objects of one kind, newest first, as Stripe's list endpoints order them. */
  private newestFirst(kind: string): StripeObject[] {
    return this.find((o) => o.object === kind).reverse();
  }

  private newCustomer(email: string | null): StripeObject {
    const customer = this.make('customer', 'cus', {
      email,
      discount: null,
      invoice_prefix: randomBytes(4).toString('hex').toUpperCase(),
    });
    this.emit('customer.created', customer);
    return customer;
  }

  private newPrice(fields: {
    unit_amount: number;
    currency: string;
    interval: string;
    lookup_key?: string | null;
    product?: string;
    productName?: string;
  }): StripeObject {
    const product =
      fields.product ??
      this.make('product', 'prod', { name: fields.productName ?? 'Product', default_price: null })
        .id;
    return this.make('price', 'price', {
      unit_amount: fields.unit_amount,
      unit_amount_decimal: String(fields.unit_amount),
      currency: fields.currency,
      lookup_key: fields.lookup_key ?? null,
      product,
      type: 'recurring',
      transform_quantity: null,
      recurring: {
        interval: fields.interval,
        interval_count: 1,
        meter: null,
        usage_type: 'licensed',
        trial_period_days: null,
      },
    });
  }

  private createPaymentIntent(body: Record<string, unknown>): StripeObject {
    const intent = this.make('payment_intent', 'pi', {
      amount: Number(body.amount),
      amount_received: 0,
      currency: body.currency,
      status: 'requires_payment_method',
      metadata: body.metadata ?? {},
      customer: body.customer ?? null,
      description: body.description ?? null,
      latest_charge: null,
      canceled_at: null,
      last_payment_error: null,
    });
    intent.client_secret = `${intent.id}_secret_${randomBytes(8).toString('hex')}`;
    this.emit('payment_intent.created', intent);
    return intent;
  }

  private newCharge(intent: StripeObject, paid: boolean): StripeObject {
    return this.make('charge', 'ch', {
      amount: intent.amount,
      amount_captured: paid ? intent.amount : 0,
      amount_refunded: 0,
      captured: paid,
      paid,
      refunded: false,
      disputed: false,
      status: paid ? 'succeeded' : 'failed',
      failure_code: paid ? null : 'card_declined',
      failure_message: paid ? null : 'Your card was declined.',
      currency: intent.currency,
      customer: intent.customer ?? null,
      payment_intent: intent.id,
      metadata: intent.metadata,
      refunds: list([], '/v1/refunds'),
    });
  }

  // ── What happens at Stripe ───────────────────────────────────────────────────────────────

  /** The card was charged: the PaymentIntent succeeds with a charge. */
  succeedPaymentIntent(id: string): StripeObject {
    const intent = this.get(id);
    if (intent.status === 'canceled') throw new Error(`PaymentIntent ${id} was canceled`);
    const charge = this.newCharge(intent, true);
    Object.assign(intent, {
      status: 'succeeded',
      amount_received: intent.amount,
      latest_charge: charge.id,
    });
    this.emit('charge.succeeded', charge);
    this.emit('payment_intent.succeeded', intent);
    return intent;
  }

  /** Canceled, a PaymentIntent can no longer be paid; one paid or canceled cannot be canceled. */
  private cancelPaymentIntent(id: string, body: Record<string, unknown>): StripeObject {
    const intent = this.get(id);
    if (!CANCELABLE_INTENT.has(String(intent.status))) throw unexpectedState(intent, 'cancel');
    Object.assign(intent, {
      status: 'canceled',
      canceled_at: nowSeconds(),
      cancellation_reason: body.cancellation_reason ?? null,
    });
    this.emit('payment_intent.canceled', intent);
    return intent;
  }

  /** A PaymentIntent created and paid, as the early-access form does with Stripe.js. */
  paidPaymentIntent(
    metadata: Record<string, string>,
    amount = 1200,
    currency = 'usd',
  ): StripeObject {
    const intent = this.createPaymentIntent({ amount, currency, metadata });
    return this.succeedPaymentIntent(intent.id);
  }

  private newInvoice(
    subscription: StripeObject,
    billingReason: string,
    period: { start: number; end: number },
    credit?: { amount: number; period: { start: number; end: number }; price: StripeObject },
    trial = false,
  ): StripeObject {
    const price = this.priceOf(subscription);
    const full = trial ? 0 : Number(price.unit_amount);
    const discount = trial ? null : this.discountFor(subscription, period.start);
    const discountAmount = discount ? this.discountAmount(discount, full) : 0;
    const charged = full - discountAmount;
    const total = charged - (credit?.amount ?? 0);
    // The customer's credit balance (negative) pays first; what is left over stays on it.
    const customer = this.get(String(subscription.customer));
    const balance = Number(customer.balance ?? 0);
    const due = Math.max(0, total + balance);
    customer.balance = Math.min(0, total + balance);
    const invoice = this.make('invoice', 'in', {
      customer: subscription.customer,
      subscription: undefined,
      billing_reason: billingReason,
      currency: price.currency,
      amount_due: due,
      amount_paid: 0,
      amount_remaining: due,
      subtotal: full - (credit?.amount ?? 0),
      total,
      discounts: discount ? [discount.id] : [],
      total_discount_amounts: discount ? [{ amount: discountAmount, discount: discount.id }] : [],
      starting_balance: balance,
      ending_balance: customer.balance,
      status: 'draft',
      attempted: false,
      attempt_count: 0,
      period_start: period.start,
      period_end: period.start,
      status_transitions: {
        finalized_at: null,
        marked_uncollectible_at: null,
        paid_at: null,
        voided_at: null,
      },
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: {
          subscription: subscription.id,
          metadata: subscription.metadata,
        },
      },
    });
    const line = {
      ...(fixture('invoice').lines as { data: Record<string, unknown>[] }).data[0],
      id: newId('il'),
      invoice: invoice.id,
      amount: charged,
      currency: price.currency,
      description: trial
        ? `Trial period for ${String(price.product)}`
        : `1 × ${String(price.product)} (at ${String(price.unit_amount)} / ${intervalOf(price)})`,
      period,
      subtotal: charged,
      parent: {
        type: 'subscription_item_details',
        invoice_item_details: null,
        subscription_item_details: {
          invoice_item: null,
          proration: false,
          proration_details: { credited_items: null },
          subscription: subscription.id,
          subscription_item: this.itemsOf(subscription)[0]?.id,
        },
      },
      pricing: {
        type: 'price_details',
        price_details: { price: price.id, product: price.product },
        unit_amount_decimal: String(price.unit_amount),
      },
    };
    const lines: Record<string, unknown>[] = [line];
    if (credit) {
      // Unused time on the old price, credited (Stripe's proration line).
      lines.unshift({
        ...line,
        id: newId('il'),
        amount: -credit.amount,
        currency: credit.price.currency,
        description: `Unused time on ${String(credit.price.product)}`,
        period: credit.period,
        subtotal: -credit.amount,
        parent: {
          ...line.parent,
          subscription_item_details: {
            ...line.parent.subscription_item_details,
            proration: true,
          },
        },
        pricing: {
          type: 'price_details',
          price_details: { price: credit.price.id, product: credit.price.product },
          unit_amount_decimal: String(credit.price.unit_amount),
        },
      });
    }
    invoice.lines = list(lines, `/v1/invoices/${invoice.id}/lines`);
    this.emit('invoice.created', invoice);
    Object.assign(invoice, {
      status: 'open',
      status_transitions: { ...(invoice.status_transitions as object), finalized_at: nowSeconds() },
    });
    this.emit('invoice.finalized', invoice);
    return invoice;
  }

  /** Charges an open invoice: its PaymentIntent, charge and InvoicePayment; paid or failed. */
  /** Collects an open invoice: charged, or, with nothing due (a credit paid it), paid at once. */
  private collectInvoice(invoice: StripeObject) {
    if (Number(invoice.amount_due) > 0) return this.chargeInvoice(invoice, true);
    this.payWithoutCharge(invoice);
    return { paymentIntent: null, charge: null };
  }

  /** Nothing to collect: Stripe marks the invoice paid, with no payment. */
  private payWithoutCharge(invoice: StripeObject) {
    Object.assign(invoice, {
      status: 'paid',
      attempted: true,
      amount_paid: 0,
      amount_remaining: 0,
      status_transitions: {
        ...(invoice.status_transitions as object),
        paid_at: nowSeconds(),
      },
    });
    this.emit('invoice.payment_succeeded', invoice);
    this.emit('invoice.paid', invoice);
  }

  private chargeInvoice(invoice: StripeObject, succeed: boolean) {
    const paymentIntent = this.createPaymentIntent({
      amount: invoice.amount_due,
      currency: invoice.currency,
      customer: invoice.customer,
      metadata: {},
      description: 'Subscription creation',
    });
    const charge = this.newCharge(paymentIntent, succeed);
    paymentIntent.latest_charge = charge.id;
    this.make('invoice_payment', 'inpay', {
      invoice: invoice.id,
      amount_paid: succeed ? invoice.amount_due : null,
      amount_requested: invoice.amount_due,
      currency: invoice.currency,
      is_default: true,
      status: succeed ? 'paid' : 'open',
      payment: { type: 'payment_intent', payment_intent: paymentIntent.id },
      status_transitions: { canceled_at: null, paid_at: succeed ? nowSeconds() : null },
    });
    if (!succeed) {
      Object.assign(paymentIntent, { status: 'requires_payment_method' });
      Object.assign(invoice, { attempted: true, attempt_count: 1, next_payment_attempt: null });
      this.emit('charge.failed', charge);
      this.emit('payment_intent.payment_failed', paymentIntent);
      this.emit('invoice.payment_failed', invoice);
      return { paymentIntent, charge };
    }
    Object.assign(paymentIntent, { status: 'succeeded', amount_received: paymentIntent.amount });
    Object.assign(invoice, {
      status: 'paid',
      attempted: true,
      attempt_count: 1,
      amount_paid: invoice.amount_due,
      amount_remaining: 0,
      status_transitions: {
        ...(invoice.status_transitions as object),
        paid_at: nowSeconds(),
      },
    });
    this.emit('charge.succeeded', charge);
    this.emit('payment_intent.succeeded', paymentIntent);
    this.emit('invoice.payment_succeeded', invoice);
    this.emit('invoice.paid', invoice);
    return { paymentIntent, charge };
  }

  private itemsOf(subscription: StripeObject) {
    return (subscription.items as { data: Record<string, unknown>[] }).data;
  }

  private priceOf(subscription: StripeObject): StripeObject {
    return this.itemsOf(subscription)[0]?.price as StripeObject;
  }

  /** A subscription to `price` for `customer`, with its first invoice paid. */
  /** A subscription object to `price` with one item for `period`, as Stripe makes one. */
  private newSubscription(
    customer: string,
    price: StripeObject,
    metadata: Record<string, string>,
    period: { start: number; end: number },
    fields: Record<string, unknown>,
  ): StripeObject {
    const template = this.itemsOf(fixture('subscription'))[0] ?? {};
    const subscription = this.make('subscription', 'sub', {
      customer,
      metadata,
      currency: price.currency,
      start_date: period.start,
      cancel_at: null,
      canceled_at: null,
      cancel_at_period_end: false,
      ended_at: null,
      trial_start: null,
      trial_end: null,
      pending_update: null,
      latest_invoice: null,
      ...fields,
    });
    subscription.items = list(
      [
        {
          ...template,
          id: newId('si'),
          created: period.start,
          price: structuredClone(price),
          plan: null,
          subscription: subscription.id,
          current_period_start: period.start,
          current_period_end: period.end,
        },
      ],
      `/v1/subscription_items?subscription=${subscription.id}`,
    );
    return subscription;
  }

  private startSubscription(
    customer: string,
    price: StripeObject,
    metadata: Record<string, string>,
    endAt?: number,
    promotionCode?: string,
  ) {
    // A period end in the past back-dates the subscription: it started a period before it.
    const interval = intervalOf(price);
    const start = endAt === undefined ? nowSeconds() : periodStart(endAt, interval);
    const end = endAt ?? periodEnd(start, interval);
    const subscription = this.newSubscription(
      customer,
      price,
      metadata,
      { start, end },
      {
        created: Math.min(start, nowSeconds()),
        status: 'incomplete',
        billing_cycle_anchor: start,
      },
    );
    if (promotionCode) this.applyPromotionCode(subscription, promotionCode, start);
    this.emit('customer.subscription.created', subscription);
    const invoice = this.newInvoice(subscription, 'subscription_create', { start, end });
    subscription.latest_invoice = invoice.id;
    const { paymentIntent, charge } = this.chargeInvoice(invoice, true);
    this.update('customer.subscription.updated', subscription, { status: 'active' });
    return { subscription, invoice, paymentIntent, charge };
  }

  /** The visitor paid on the hosted Checkout page: customer, subscription, invoice and payment. */
  completeCheckout(sessionId: string, options: { periodEnd?: number } = {}) {
    const session = this.get(sessionId);
    this.expireIfLapsed(session);
    if (session.status !== 'open') throw new Error(`Checkout Session ${sessionId} is not open`);
    if (this.trialOf(session))
      throw new Error('A trial Checkout completes with completeTrialCheckout');
    const customer =
      (session.customer as string | null) ??
      this.newCustomer((session.customer_email as string | null) ?? null).id;
    const metadata =
      (session.subscription_data as { metadata?: Record<string, string> } | undefined)?.metadata ??
      {};
    const discounts = session.discounts as { promotion_code?: string }[] | null | undefined;
    const paid = this.startSubscription(
      customer,
      this.get(String(session.price)),
      metadata,
      options.periodEnd,
      discounts?.[0]?.promotion_code,
    );
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      customer,
      subscription: paid.subscription.id,
      invoice: paid.invoice.id,
      amount_total: paid.invoice.amount_paid,
      amount_subtotal: paid.invoice.amount_paid,
      currency: paid.invoice.currency,
    });
    this.emit('checkout.session.completed', session);
    return { session, ...paid };
  }

  /** A Checkout's `discounts`: each promotion code must be one a customer can redeem now. */
  private checkDiscounts(value: unknown): { promotion_code: string }[] | null {
    const discounts = value as { promotion_code?: string }[] | undefined;
    if (!discounts || discounts.length === 0) return null;
    const id = discounts[0]?.promotion_code;
    const code = id ? this.objects.get(id) : undefined;
    if (!code || code.object !== 'promotion_code')
      throw invalid(`No such promotion code: '${String(id)}'`, 'resource_missing');
    const expired = code.expires_at !== null && Number(code.expires_at) <= nowSeconds();
    const usedUp =
      code.max_redemptions !== null && Number(code.times_redeemed) >= Number(code.max_redemptions);
    if (!code.active || expired || usedUp) {
      throw invalid(
        'This promotion code cannot be redeemed because the associated coupon is no longer valid.',
        'promotion_code_invalid',
      );
    }
    return [{ promotion_code: code.id }];
  }

  /** A subscription takes a promotion code's coupon: a Discount, counted as one redemption. */
  private applyPromotionCode(subscription: StripeObject, promotionCodeId: string, start: number) {
    const code = this.get(promotionCodeId);
    const couponId = (code.promotion as { coupon: string }).coupon;
    const coupon = this.get(couponId);
    const months = coupon.duration === 'repeating' ? Number(coupon.duration_in_months) : 0;
    const discount = this.make('discount', 'di', {
      source: { type: 'coupon', coupon: coupon.id },
      promotion_code: code.id,
      subscription: subscription.id,
      customer: subscription.customer,
      start,
      end: months > 0 ? periodEnd(start, 'month', months) : null,
    });
    subscription.discounts = [discount.id];
    code.times_redeemed = Number(code.times_redeemed) + 1;
    coupon.times_redeemed = Number(coupon.times_redeemed) + 1;
  }

  /** The discount an invoice for a period starting at `start` takes, as its coupon's duration says. */
  private discountFor(subscription: StripeObject, start: number): StripeObject | null {
    const [id] = (subscription.discounts as string[] | undefined) ?? [];
    const discount = id ? this.objects.get(id) : undefined;
    if (!discount) return null;
    const coupon = this.get((discount.source as { coupon: string }).coupon);
    const uses = this.discountUses.get(discount.id) ?? 0;
    if (coupon.duration === 'once' && uses >= 1) return null;
    if (discount.end !== null && start >= Number(discount.end)) return null;
    this.discountUses.set(discount.id, uses + 1);
    return discount;
  }

  private discountAmount(discount: StripeObject, amount: number): number {
    const coupon = this.get((discount.source as { coupon: string }).coupon);
    return coupon.percent_off !== null
      ? Math.round((amount * Number(coupon.percent_off)) / 100)
      : Math.min(Number(coupon.amount_off), amount);
  }

  private trialOf(session: StripeObject) {
    const data = session.subscription_data as { trial_period_days?: string } | undefined;
    return Number(data?.trial_period_days ?? 0);
  }

  /**
   * The visitor started a free trial on the hosted Checkout page: the subscription `trialing`, its
   * trial the first period, invoiced at $0 and paid with no payment (Stripe's own trial invoice).
   * `withCard`: a card was given (Checkout asks for one unless `payment_method_collection` is
   * `if_required`, and the visitor may give one then too).
   */
  completeTrialCheckout(sessionId: string, options: { withCard?: boolean } = {}) {
    const session = this.get(sessionId);
    this.expireIfLapsed(session);
    if (session.status !== 'open') throw new Error(`Checkout Session ${sessionId} is not open`);
    const days = this.trialOf(session);
    if (days <= 0) throw new Error(`Checkout Session ${sessionId} has no trial`);
    const withCard = options.withCard ?? session.payment_method_collection !== 'if_required';
    const customer =
      (session.customer as string | null) ??
      this.newCustomer((session.customer_email as string | null) ?? null).id;
    const data = session.subscription_data as {
      metadata?: Record<string, string>;
      trial_settings?: { end_behavior?: { missing_payment_method?: string } };
    };
    const price = this.get(String(session.price));
    const start = nowSeconds();
    const end = start + days * 24 * 3600;
    const subscription = this.newSubscription(
      customer,
      price,
      data.metadata ?? {},
      { start, end },
      {
        created: start,
        status: 'trialing',
        billing_cycle_anchor: end,
        trial_start: start,
        trial_end: end,
        trial_settings: {
          end_behavior: {
            missing_payment_method:
              data.trial_settings?.end_behavior?.missing_payment_method ?? 'create_invoice',
          },
        },
        default_payment_method: withCard ? newId('pm') : null,
      },
    );
    this.emit('customer.subscription.created', subscription);
    const invoice = this.newInvoice(
      subscription,
      'subscription_create',
      { start, end },
      undefined,
      true,
    );
    subscription.latest_invoice = invoice.id;
    this.payWithoutCharge(invoice);
    Object.assign(session, {
      status: 'complete',
      payment_status: 'no_payment_required',
      customer,
      subscription: subscription.id,
      invoice: invoice.id,
      amount_total: 0,
      amount_subtotal: 0,
      currency: price.currency,
    });
    this.emit('checkout.session.completed', session);
    return { session, subscription, invoice };
  }

  /**
   * The trial's last day came: with a card, the first paid period is invoiced and charged and the
   * subscription is `active`; without one, as `trial_settings.end_behavior.missing_payment_method`
   * says: `cancel` ends it (no invoice, nothing owed).
   */
  endTrial(subscriptionId: string) {
    const subscription = this.get(subscriptionId);
    if (subscription.status !== 'trialing') throw new Error(`${subscriptionId} is not trialing`);
    const behaviour = (
      subscription.trial_settings as { end_behavior: { missing_payment_method: string } }
    ).end_behavior.missing_payment_method;
    if (!subscription.default_payment_method && behaviour === 'cancel') {
      const end = Number(subscription.trial_end);
      Object.assign(subscription, { status: 'canceled', canceled_at: end, ended_at: end });
      this.emit('customer.subscription.deleted', subscription);
      return { subscription, invoice: null };
    }
    const { invoice } = this.nextPeriodInvoice(subscriptionId);
    this.collectInvoice(invoice);
    this.update('customer.subscription.updated', subscription, { status: 'active' });
    return { subscription, invoice };
  }

  /**
   * A subscription moved to another Price (`POST /v1/subscriptions/:id` with `items`), as Stripe
   * documents it for a change of billing interval: the period starts again now, the unused time
   * of the old one is credited (prorated by the second), and the new period is invoiced and
   * charged at once; a credit larger than the charge goes to the customer's balance, which pays
   * the next invoices. Only that case (and `none`: no credit) is played here.
   */
  private changePrice(
    subscription: StripeObject,
    item: { id?: string; price?: string },
    prorationBehavior: string,
  ) {
    if (subscription.status !== 'active' && subscription.status !== 'trialing') {
      throw invalid(`This subscription is ${String(subscription.status)}: it cannot change price.`);
    }
    const [current] = this.itemsOf(subscription);
    if (!current || (item.id && item.id !== current.id)) {
      throw invalid(`No such subscription item: '${String(item.id)}'`, 'resource_missing');
    }
    const oldPrice = current.price as StripeObject;
    const newPrice = this.get(String(item.price));
    if (intervalOf(oldPrice) === intervalOf(newPrice)) {
      // The same interval: the period stays; with proration off nothing is invoiced now, and the
      // next renewal charges the new price (Stripe's price migration).
      if (prorationBehavior !== 'none') {
        throw new Error(
          'The fake Stripe changes a price within an interval only without proration',
        );
      }
      const previousItems = structuredClone(subscription.items);
      current.price = structuredClone(newPrice);
      this.emit('customer.subscription.updated', subscription, { items: previousItems });
      return subscription;
    }
    const now = nowSeconds();
    const oldPeriod = {
      start: Number(current.current_period_start),
      end: Number(current.current_period_end),
    };
    const unused = Math.max(0, oldPeriod.end - now) / (oldPeriod.end - oldPeriod.start);
    const creditAmount =
      prorationBehavior === 'none' ? 0 : Math.round(Number(oldPrice.unit_amount) * unused);
    const previousItems = structuredClone(subscription.items);
    const period = { start: now, end: periodEnd(now, intervalOf(newPrice)) };
    Object.assign(current, {
      price: structuredClone(newPrice),
      current_period_start: period.start,
      current_period_end: period.end,
    });
    subscription.billing_cycle_anchor = now;
    const invoice = this.newInvoice(
      subscription,
      'subscription_update',
      period,
      creditAmount > 0
        ? { amount: creditAmount, period: { start: now, end: oldPeriod.end }, price: oldPrice }
        : undefined,
    );
    const previousInvoice = subscription.latest_invoice;
    subscription.latest_invoice = invoice.id;
    this.emit('customer.subscription.updated', subscription, {
      items: previousItems,
      latest_invoice: previousInvoice,
    });
    this.collectInvoice(invoice);
    return subscription;
  }

  /** Someone subscribed the customer to another product on the same Stripe account. */
  subscribeToOtherProduct(customer: string, metadata: Record<string, string> = {}) {
    const price = this.newPrice({
      unit_amount: 500,
      currency: 'usd',
      interval: 'month',
      productName: 'Another product',
    });
    return this.startSubscription(customer, price, metadata);
  }

  // ── Another platform's members in the same account (what an import finds) ────────────────

  /** A customer made outside Cohort: another platform's member, from its own checkout. */
  createCustomer(email: string | null = null): StripeObject {
    return this.newCustomer(email);
  }

  /**
   * A Price made outside Cohort: another product's in the account (Ghost's or Substack's
   * membership), with no lookup key, unless one is given (a Cohort plan's, made in the Dashboard).
   */
  createPrice(fields: {
    unit_amount: number;
    interval: 'month' | 'year';
    currency?: string;
    productName?: string;
    lookup_key?: string;
  }): StripeObject {
    return this.newPrice({
      unit_amount: fields.unit_amount,
      currency: fields.currency ?? 'usd',
      interval: fields.interval,
      productName: fields.productName ?? 'Another platform’s membership',
      lookup_key: fields.lookup_key ?? null,
    });
  }

  /**
   * The customer subscribed to `priceId` elsewhere (another platform's checkout): the subscription
   * and its first invoice, paid. A `periodEnd` in the past back-dates it.
   */
  subscribeCustomer(
    customer: string,
    priceId: string,
    options: { periodEnd?: number; metadata?: Record<string, string> } = {},
  ) {
    return this.startSubscription(
      customer,
      this.get(priceId),
      options.metadata ?? {},
      options.periodEnd,
    );
  }

  /** Cancelled from the end of the period paid for (the portal's "cancel"): active until then. */
  cancelAtPeriodEnd(subscriptionId: string): StripeObject {
    const subscription = this.get(subscriptionId);
    const [item] = this.itemsOf(subscription);
    return this.update('customer.subscription.updated', subscription, {
      cancel_at_period_end: true,
      cancel_at: Number(item?.current_period_end),
      canceled_at: nowSeconds(),
    });
  }

  /** Deleted in the Dashboard: Stripe answers its id with `{id, object, deleted: true}` after. */
  deleteCustomer(customerId: string): void {
    const customer = this.get(customerId);
    this.objects.set(customerId, { id: customerId, object: 'customer', deleted: true });
    this.emit('customer.deleted', customer);
  }

  /** A year later: Stripe moves the period first, then invoices and charges the renewal. */
  renewSubscription(subscriptionId: string) {
    const { invoice, period } = this.nextPeriodInvoice(subscriptionId);
    // A credit on the customer's balance (a plan switched down) may pay it whole: no charge then.
    const paid = this.collectInvoice(invoice);
    return { invoice, period, ...paid };
  }

  /** The renewal charge is declined: the subscription goes `past_due`. */
  failRenewal(subscriptionId: string) {
    const { invoice } = this.nextPeriodInvoice(subscriptionId);
    const failed = this.chargeInvoice(invoice, false);
    this.update('customer.subscription.updated', this.get(subscriptionId), {
      status: 'past_due',
    });
    return { invoice, ...failed };
  }

  private nextPeriodInvoice(subscriptionId: string) {
    const subscription = this.get(subscriptionId);
    const [item] = this.itemsOf(subscription);
    const start = Number(item?.current_period_end);
    const period = { start, end: periodEnd(start, intervalOf(this.priceOf(subscription))) };
    const previousItems = structuredClone(subscription.items);
    const previousInvoice = subscription.latest_invoice;
    for (const each of this.itemsOf(subscription)) {
      Object.assign(each, { current_period_start: period.start, current_period_end: period.end });
    }
    const invoice = this.newInvoice(subscription, 'subscription_cycle', period);
    subscription.latest_invoice = invoice.id;
    this.emit('customer.subscription.updated', subscription, {
      items: previousItems,
      latest_invoice: previousInvoice,
    });
    return { invoice, period };
  }

  /** Stripe changes the status (after the last retry: `unpaid` or `canceled`). */
  setSubscriptionStatus(subscriptionId: string, status: string) {
    const subscription = this.get(subscriptionId);
    if (status === 'canceled') return this.cancelSubscription(subscriptionId);
    return this.update('customer.subscription.updated', subscription, { status });
  }

  /** Cancelled now (the dashboard, the portal, or the API). */
  cancelSubscription(subscriptionId: string): StripeObject {
    const subscription = this.get(subscriptionId);
    if (subscription.status === 'canceled') {
      throw invalid(
        'A canceled subscription can only update its cancellation_details and metadata.',
      );
    }
    const now = nowSeconds();
    Object.assign(subscription, { status: 'canceled', canceled_at: now, ended_at: now });
    this.emit('customer.subscription.deleted', subscription);
    return subscription;
  }

  /** A refund of a charge (or a PaymentIntent's charge): in full, or `amount` of it. */
  refund(chargeOrPaymentIntent: string, amount?: number, reason: string | null = null) {
    const target = this.objects.get(chargeOrPaymentIntent);
    if (!target) throw notFound(chargeOrPaymentIntent);
    const charge =
      target.object === 'charge' ? target : this.objects.get(String(target.latest_charge));
    if (!charge) throw invalid('This PaymentIntent has no charge to refund.');
    const left = Number(charge.amount) - Number(charge.amount_refunded);
    const refunding = amount ?? left;
    if (left <= 0 || refunding > left) {
      throw invalid(`Charge ${charge.id} has already been refunded.`, 'charge_already_refunded');
    }
    const refund = this.make('refund', 're', {
      amount: refunding,
      charge: charge.id,
      currency: charge.currency,
      payment_intent: charge.payment_intent,
      reason,
      status: 'succeeded',
    });
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
    Object.assign(charge, {
      amount_refunded: Number(charge.amount_refunded) + refunding,
      refunded: Number(charge.amount_refunded) + refunding >= Number(charge.amount),
    });
    const refunds = charge.refunds as { data: unknown[] };
    refunds.data.push(structuredClone(refund));
    this.emit('refund.created', refund);
    this.emit('charge.refunded', charge, previous);
    return refund;
  }

  /** A full refund of a PaymentIntent's charge; answers the charge. */
  refundPaymentIntent(paymentIntentId: string): StripeObject {
    this.refund(paymentIntentId);
    return this.get(String(this.get(paymentIntentId).latest_charge));
  }

  /** The cardholder's bank opens a chargeback. */
  openDispute(chargeId: string): StripeObject {
    const charge = this.get(chargeId);
    const dispute = this.make('dispute', 'dp', {
      amount: charge.amount,
      charge: charge.id,
      currency: charge.currency,
      payment_intent: charge.payment_intent,
      reason: 'fraudulent',
      status: 'needs_response',
      is_charge_refundable: false,
    });
    charge.disputed = true;
    this.emit('charge.dispute.created', dispute);
    this.emit('charge.dispute.funds_withdrawn', dispute);
    return dispute;
  }

  /** The bank decides. */
  closeDispute(disputeId: string, outcome: 'won' | 'lost'): StripeObject {
    const dispute = this.get(disputeId);
    dispute.status = outcome;
    this.emit('charge.dispute.closed', dispute, { status: 'needs_response' });
    if (outcome === 'won') this.emit('charge.dispute.funds_reinstated', dispute);
    return dispute;
  }

  // ── Events ───────────────────────────────────────────────────────────────────────────────

  /** An event about `object`, built from Stripe's event fixture. */
  event(
    type: string,
    object: StripeObject,
    options: {
      apiVersion?: string;
      previousAttributes?: Record<string, unknown>;
      id?: string;
    } = {},
  ): StripeEvent {
    return {
      ...(fixture('event') as unknown as StripeEvent),
      id: options.id ?? newId('evt'),
      object: 'event',
      api_version: options.apiVersion ?? this.webhookApiVersion ?? PINNED_API_VERSION,
      created: nowSeconds(),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: {
        object: structuredClone(object),
        ...(options.previousAttributes && { previous_attributes: options.previousAttributes }),
      },
    };
  }

  private emit(type: string, object: StripeObject, previousAttributes?: Record<string, unknown>) {
    const event = this.event(type, object, { previousAttributes });
    this.events.push(event);
    this.pending.push(event);
    return event;
  }

  /** Changes fields and emits the update with the old values as `previous_attributes`. */
  private update(type: string, object: StripeObject, fields: Record<string, unknown>) {
    const previous = Object.fromEntries(Object.keys(fields).map((key) => [key, object[key]]));
    Object.assign(object, fields);
    this.emit(type, object, previous);
    return object;
  }

  /** A payload and its Stripe-Signature header, made with the SDK's own test helper. */
  signedDelivery(event: unknown, options: { secret?: string; timestamp?: number } = {}): Delivery {
    const payload = JSON.stringify(event);
    const header = this.sdk.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? FAKE_STRIPE_KEYS.STRIPE_WEBHOOK_SECRET,
      timestamp: options.timestamp,
    });
    return { payload, headers: { 'stripe-signature': header, 'content-type': 'application/json' } };
  }

  /** Where `deliverPending` sends events (the app's webhook endpoint); answers the HTTP status. */
  setWebhookTarget(send: (delivery: Delivery) => Promise<number>) {
    this.target = send;
  }

  pendingEvents(): readonly StripeEvent[] {
    return [...this.pending];
  }

  clearPending() {
    this.pending = [];
  }

  /**
   * Delivers the pending events, each signed afresh. Events whose every delivery was refused
   * (not 2xx) stay pending, as Stripe retries them; events emitted meanwhile wait for the next
   * call.
   */
  async deliverPending(options: DeliverOptions = {}) {
    if (!this.target) throw new Error('FakeStripe: setWebhookTarget first');
    const chosen = this.pending.filter(
      (event) =>
        (!options.only || options.only.includes(event.type)) &&
        !options.except?.includes(event.type),
    );
    this.pending = this.pending.filter((event) => !chosen.includes(event));
    const next = random(options.seed ?? 1);
    let sequence = [...chosen];
    if (options.order === 'shuffled') {
      for (let i = sequence.length - 1; i > 0; i -= 1) {
        const j = Math.floor(next() * (i + 1));
        [sequence[i], sequence[j]] = [sequence[j] as StripeEvent, sequence[i] as StripeEvent];
      }
    }
    if (options.duplicate) {
      const copies = [...sequence];
      for (const [index, event] of copies.entries()) {
        const at = index + 1 + Math.floor(next() * (sequence.length - index));
        sequence = [...sequence.slice(0, at), event, ...sequence.slice(at)];
      }
    }
    const delivered: { id: string; type: string; status: number }[] = [];
    const accepted = new Set<string>();
    for (const event of sequence) {
      const status = await this.target(this.signedDelivery(event));
      delivered.push({ id: event.id, type: event.type, status });
      if (status >= 200 && status < 300) accepted.add(event.id);
    }
    this.pending.push(...chosen.filter((event) => !accepted.has(event.id)));
    return { delivered };
  }

  // ── The API ──────────────────────────────────────────────────────────────────────────────

  /** A copy of `object` with the listed fields (`a`, `a.b`) expanded from ids to objects. */
  private expand(object: StripeObject, paths: string[]): StripeObject {
    const copy = structuredClone(object);
    for (const path of paths) {
      if (object.object === 'invoice' && path === 'payments') {
        copy.payments = list(
          this.find((o) => o.object === 'invoice_payment' && o.invoice === object.id),
          `/v1/invoice_payments?invoice=${object.id}`,
        );
        continue;
      }
      const [head, ...rest] = path.split('.');
      if (!head) continue;
      const value = copy[head];
      const found = typeof value === 'string' ? this.objects.get(value) : undefined;
      if (found)
        copy[head] = rest.length ? this.expand(found, [rest.join('.')]) : structuredClone(found);
    }
    return copy;
  }

  private retrieve(id: string | undefined, kind: string, body: Record<string, unknown>): Answer {
    const object = id ? this.objects.get(id) : undefined;
    if (!object || object.object !== kind) throw notFound(id);
    const paths = Array.isArray(body.expand) ? (body.expand as string[]) : [];
    return { status: 200, body: this.expand(object, paths) };
  }

  /**
   * When a Checkout Session expires: 24 hours after it is made, or at `expires_at`, which Stripe
   * takes from 30 minutes to 24 hours ahead.
   */
  private checkoutExpiry(value: unknown): number {
    const now = nowSeconds();
    if (value === undefined) return now + 24 * 3600;
    const at = Number(value);
    if (!Number.isInteger(at) || at < now + 30 * 60 || at > now + 24 * 3600) {
      throw invalid(
        'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
        'parameter_invalid_integer',
      );
    }
    return at;
  }

  /** Stripe expires an open Checkout Session at its `expires_at`. */
  private expireIfLapsed(session: StripeObject): void {
    if (session.status === 'open' && Number(session.expires_at) <= nowSeconds()) {
      session.status = 'expired';
      this.emit('checkout.session.expired', session);
    }
  }

  private createCheckoutSession(body: Record<string, unknown>): StripeObject {
    const [item] = (body.line_items ?? []) as {
      price?: string;
      price_data?: {
        currency: string;
        unit_amount: string;
        recurring: { interval: string };
        product_data?: { name: string };
      };
    }[];
    if (!item) throw invalid('line_items is required in subscription mode.');
    const price = item.price
      ? this.objects.get(item.price)
      : item.price_data &&
        this.newPrice({
          unit_amount: Number(item.price_data.unit_amount),
          currency: item.price_data.currency,
          interval: item.price_data.recurring.interval,
          productName: item.price_data.product_data?.name,
        });
    if (!price) throw invalid(`No such price: '${String(item.price)}'`);
    const session = this.make('checkout.session', 'cs_test', {
      mode: body.mode,
      status: 'open',
      payment_status: 'unpaid',
      client_reference_id: body.client_reference_id ?? null,
      metadata: body.metadata ?? {},
      subscription_data: body.subscription_data,
      discounts: this.checkDiscounts(body.discounts),
      payment_method_collection: body.payment_method_collection ?? 'always',
      customer: body.customer ?? null,
      customer_email: body.customer_email ?? null,
      cancel_url: body.cancel_url,
      subscription: null,
      invoice: null,
      payment_intent: null,
      amount_total: price.unit_amount,
      amount_subtotal: price.unit_amount,
      currency: price.currency,
      price: price.id,
      expires_at: this.checkoutExpiry(body.expires_at),
    });
    session.url = `${this.url}/checkout/${session.id}`;
    session.success_url = body.success_url;
    return session;
  }

  /**
   * Stripe's Search API (`GET /v1/<resource>/search?query=…`) for the clauses Cohort writes:
   * `metadata['key']:'value'`, joined by OR. Anything else is refused, as Stripe refuses a query
   * it cannot parse, rather than answered wrongly. Newest first, one page.
   */
  private search(resource: string, body: Record<string, unknown>, url: string) {
    const kinds: Record<string, string> = {
      payment_intents: 'payment_intent',
      subscriptions: 'subscription',
    };
    const kind = kinds[resource];
    if (!kind) throw invalid(`FakeStripe does not search ${resource}`);
    const clauses = String(body.query ?? '')
      .split(/\s+OR\s+/)
      .map((clause) => {
        const match = /^metadata\['([^']+)'\]:'([^']*)'$/.exec(clause.trim());
        if (!match)
          throw invalid(`Unsupported search query clause: ${clause}`, 'parameter_invalid');
        return { key: match[1] ?? '', value: match[2] ?? '' };
      });
    const data = this.newestFirst(kind).filter((o) =>
      clauses.some(({ key, value }) => (o.metadata as Record<string, string>)[key] === value),
    );
    return { object: 'search_result', data, has_more: false, next_page: null, url };
  }

  private route(method: string, path: string, body: Record<string, unknown>): Answer {
    const ok = (object: unknown): Answer => ({ status: 200, body: object });
    // /v1/<resource>[/<id>[/<action>]], where a resource may be namespaced (checkout/sessions).
    const parts = path.split('/').slice(2);
    if (parts[0] === 'checkout' || parts[0] === 'billing_portal') {
      parts.splice(0, 2, `${parts[0]}/${parts[1] ?? ''}`);
    }
    const [resource, id, action] = parts;
    if (method === 'GET' && id === 'search' && !action) {
      return ok(this.search(resource ?? '', body, path));
    }
    const key = `${method} ${resource ?? ''}${id ? '/:id' : ''}${action ? `/${action}` : ''}`;
    switch (key) {
      case 'POST payment_intents':
        return ok(this.createPaymentIntent(body));
      case 'GET payment_intents/:id':
        return this.retrieve(id, 'payment_intent', body);
      case 'POST payment_intents/:id/confirm': {
        // Called by the browser (the Stripe.js stand-in) with the client secret.
        const intent = id ? this.objects.get(id) : undefined;
        if (!intent || intent.client_secret !== body.client_secret) throw notFound(id);
        if (intent.status === 'canceled') throw unexpectedState(intent, 'confirm');
        if (this.declineNextCard) {
          this.declineNextCard = false;
          throw new StripeApiError(402, {
            error: {
              type: 'card_error',
              code: 'card_declined',
              message: 'Your card was declined.',
            },
          });
        }
        return ok(this.succeedPaymentIntent(intent.id));
      }
      case 'POST payment_intents/:id/cancel':
        return ok(this.cancelPaymentIntent(String(id), body));
      case 'GET charges/:id':
        return this.retrieve(id, 'charge', body);
      case 'POST refunds':
        return ok(
          this.refund(
            String(body.charge ?? body.payment_intent),
            body.amount === undefined ? undefined : Number(body.amount),
            (body.reason as string | undefined) ?? null,
          ),
        );
      case 'GET refunds/:id':
        return this.retrieve(id, 'refund', body);
      case 'GET disputes/:id':
        return this.retrieve(id, 'dispute', body);
      case 'GET disputes':
        return ok(
          list(
            this.find(
              (o) =>
                o.object === 'dispute' &&
                (!body.charge || o.charge === body.charge) &&
                (!body.payment_intent || o.payment_intent === body.payment_intent),
            ),
            '/v1/disputes',
          ),
        );
      case 'POST checkout/sessions':
        return ok(this.createCheckoutSession(body));
      case 'GET checkout/sessions/:id': {
        const session = id ? this.objects.get(id) : undefined;
        if (session?.object === 'checkout.session') this.expireIfLapsed(session);
        return this.retrieve(id, 'checkout.session', body);
      }
      case 'POST checkout/sessions/:id/expire': {
        const session = this.get(String(id));
        this.expireIfLapsed(session);
        if (session.status !== 'open') throw invalid('Only open Checkout Sessions can be expired.');
        session.status = 'expired';
        this.emit('checkout.session.expired', session);
        return ok(session);
      }
      case 'POST coupons': {
        const percent = body.percent_off === undefined ? null : Number(body.percent_off);
        const amount = body.amount_off === undefined ? null : Number(body.amount_off);
        if ((percent === null) === (amount === null)) {
          throw invalid('You must pass exactly one of percent_off or amount_off.');
        }
        if (amount !== null && !body.currency) {
          throw invalid('You must pass currency when passing amount_off.');
        }
        if (body.duration === 'repeating' && body.duration_in_months === undefined) {
          throw invalid('You must pass duration_in_months when duration is repeating.');
        }
        return ok(
          this.make('coupon', 'co', {
            percent_off: percent,
            amount_off: amount,
            currency: body.currency ?? null,
            duration: body.duration,
            duration_in_months:
              body.duration_in_months === undefined ? null : Number(body.duration_in_months),
            name: body.name ?? null,
            metadata: body.metadata ?? {},
            max_redemptions: null,
            redeem_by: null,
            times_redeemed: 0,
            valid: true,
          }),
        );
      }
      case 'POST promotion_codes': {
        const promotion = body.promotion as { type?: string; coupon?: string } | undefined;
        const coupon = promotion?.coupon ? this.objects.get(promotion.coupon) : undefined;
        if (!coupon || coupon.object !== 'coupon') {
          throw invalid(`No such coupon: '${String(promotion?.coupon)}'`, 'resource_missing');
        }
        const code = String(body.code ?? '');
        const clash = [...this.objects.values()].some(
          (o) =>
            o.object === 'promotion_code' &&
            o.active &&
            String(o.code).toUpperCase() === code.toUpperCase(),
        );
        if (clash) throw invalid('An active promotion code with `code` already exists.');
        return ok(
          this.make('promotion_code', 'promo', {
            active: true,
            code,
            promotion: { type: 'coupon', coupon: coupon.id },
            max_redemptions:
              body.max_redemptions === undefined ? null : Number(body.max_redemptions),
            expires_at: body.expires_at === undefined ? null : Number(body.expires_at),
            times_redeemed: 0,
            metadata: body.metadata ?? {},
          }),
        );
      }
      case 'POST promotion_codes/:id': {
        const code = this.get(String(id));
        if (body.active !== undefined) code.active = body.active === 'true';
        return ok(code);
      }
      case 'GET subscriptions/:id':
        return this.retrieve(id, 'subscription', body);
      case 'DELETE subscriptions/:id':
        return ok(this.cancelSubscription(String(id)));
      case 'POST subscriptions/:id': {
        const subscription = this.get(String(id));
        const fields: Record<string, unknown> = {};
        if (body.cancel_at_period_end !== undefined) {
          fields.cancel_at_period_end = body.cancel_at_period_end === 'true';
        }
        if (body.metadata)
          fields.metadata = { ...(subscription.metadata as object), ...(body.metadata as object) };
        const items = body.items as { id?: string; price?: string }[] | undefined;
        if (body.payment_behavior === 'pending_if_incomplete' && body.metadata) {
          // Stripe's documented limit: a pending update takes items and billing parameters only.
          throw invalid(
            'When `payment_behavior` is `pending_if_incomplete`, you can only pass the following parameters: items, proration_date, proration_behavior, billing_cycle_anchor, trial_end, trial_from_plan, expand.',
          );
        }
        if (items?.[0]?.price) {
          Object.assign(subscription, fields);
          return ok(
            this.changePrice(
              subscription,
              items[0],
              String(body.proration_behavior ?? 'create_prorations'),
            ),
          );
        }
        return ok(this.update('customer.subscription.updated', subscription, fields));
      }
      case 'GET invoices/:id':
        return this.retrieve(id, 'invoice', body);
      case 'GET invoice_payments': {
        const payment = body.payment as { payment_intent?: string } | undefined;
        return ok(
          list(
            this.find(
              (o) =>
                o.object === 'invoice_payment' &&
                (!body.invoice || o.invoice === body.invoice) &&
                (!payment?.payment_intent ||
                  (o.payment as { payment_intent?: string }).payment_intent ===
                    payment.payment_intent),
            ),
            '/v1/invoice_payments',
          ),
        );
      }
      case 'POST customers':
        return ok(this.newCustomer((body.email as string | undefined) ?? null));
      case 'GET customers/:id':
        return this.retrieve(id, 'customer', body);
      case 'POST customers/:id': {
        const customer = this.get(String(id));
        return ok(this.update('customer.updated', customer, body));
      }
      case 'GET prices': {
        const keys = (body.lookup_keys ?? []) as string[];
        return ok(
          list(
            this.find(
              (o) =>
                o.object === 'price' &&
                (keys.length === 0 || keys.includes(String(o.lookup_key))) &&
                (body.active === undefined || String(o.active) === body.active),
            ),
            '/v1/prices',
          ),
        );
      }
      case 'POST prices': {
        const recurring = body.recurring as { interval?: string } | undefined;
        const taken = this.find((o) => o.object === 'price' && o.lookup_key === body.lookup_key);
        if (body.lookup_key && taken.length > 0) {
          throw invalid(`A price with lookup_key ${String(body.lookup_key)} already exists.`);
        }
        return ok(
          this.newPrice({
            unit_amount: Number(body.unit_amount),
            currency: String(body.currency),
            interval: recurring?.interval ?? 'year',
            lookup_key: (body.lookup_key as string | undefined) ?? null,
            product: body.product as string | undefined,
            productName: (body.product_data as { name?: string } | undefined)?.name,
          }),
        );
      }
      case 'GET prices/:id':
        return this.retrieve(id, 'price', body);
      case 'GET products/:id':
        return this.retrieve(id, 'product', body);
      case 'POST billing_portal/sessions': {
        if (!body.customer || !this.objects.has(String(body.customer))) {
          throw notFound(body.customer as string | undefined);
        }
        if (!this.portalConfigurations.some((o) => o.is_default && o.active)) {
          throw invalid(
            'You can’t create a portal session in test mode until you save your customer portal settings in test mode at https://dashboard.stripe.com/test/settings/billing/portal.',
          );
        }
        const portal = this.make('billing_portal.session', 'bps', {
          customer: body.customer,
          return_url: body.return_url,
          flow: null,
        });
        portal.url = `${this.url}/portal/${portal.id}`;
        return ok(portal);
      }
      case 'GET account':
        return ok({
          ...fixture('account'),
          id: 'acct_cohortfake',
          charges_enabled: true,
          details_submitted: true,
          default_currency: 'usd',
        });
      case 'GET billing_portal/configurations':
        return ok(
          page(
            this.portalConfigurations.filter(
              (o) =>
                (body.is_default === undefined || String(o.is_default) === body.is_default) &&
                (body.active === undefined || String(o.active) === body.active),
            ),
            body,
            '/v1/billing_portal/configurations',
          ),
        );
      case 'GET webhook_endpoints':
        return ok(page(this.webhookEndpoints, body, '/v1/webhook_endpoints'));
      case 'GET subscriptions': {
        // Without a status, Stripe lists every subscription that is not canceled.
        const status = body.status as string | undefined;
        return ok(
          page(
            this.newestFirst('subscription').filter(
              (o) =>
                (status === 'all' || (status ? o.status === status : o.status !== 'canceled')) &&
                (!body.customer || o.customer === body.customer) &&
                (!body.price || this.priceOf(o).id === body.price) &&
                Number(o.created) >=
                  Number((body.created as { gte?: string } | undefined)?.gte ?? 0),
            ),
            body,
            '/v1/subscriptions',
          ),
        );
      }
      case 'GET invoices':
        return ok(
          page(
            this.newestFirst('invoice').filter(
              (o) =>
                (!body.status || o.status === body.status) &&
                (!body.customer || o.customer === body.customer) &&
                (!body.subscription ||
                  (o.parent as { subscription_details?: { subscription?: string } } | null)
                    ?.subscription_details?.subscription === body.subscription),
            ),
            body,
            '/v1/invoices',
          ),
        );
      case 'GET payment_intents': {
        const since = Number((body.created as { gte?: string } | undefined)?.gte ?? 0);
        return ok(
          page(
            this.newestFirst('payment_intent').filter((o) => Number(o.created) >= since),
            body,
            '/v1/payment_intents',
          ),
        );
      }
      case 'GET events/:id': {
        const event = this.events.find((e) => e.id === id);
        if (!event) throw notFound(id);
        return ok(event);
      }
      case 'GET events': {
        // Newest first, as Stripe lists them. Stripe keeps events for 30 days.
        const since = Math.max(
          Number((body.created as { gte?: string } | undefined)?.gte ?? 0),
          nowSeconds() - EVENT_RETENTION_SECONDS,
        );
        const all = [...this.events].reverse().filter((event) => event.created >= since);
        return ok(page(all, body, '/v1/events'));
      }
      default:
        throw new StripeApiError(404, {
          error: {
            type: 'invalid_request_error',
            message: `Unrecognized request URL (${method}: ${path}).`,
          },
        });
    }
  }

  private answer(method: string, path: string, body: Record<string, unknown>): Answer {
    try {
      return this.route(method, path, body);
    } catch (error) {
      if (error instanceof StripeApiError) return { status: error.status, body: error.body };
      throw error;
    }
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse) {
    // The browser calls a few endpoints directly (with the publishable key), as with Stripe.js.
    response.setHeader('access-control-allow-origin', '*');
    response.setHeader('access-control-allow-headers', 'authorization, content-type');
    if (request.method === 'OPTIONS') {
      response.writeHead(204);
      response.end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', this.url);
    const method = request.method ?? 'GET';
    const raw = Buffer.concat(chunks).toString();
    const body = qs.parse(method === 'GET' ? url.search.slice(1) : raw, {
      depth: 10,
      arrayLimit: 100,
    }) as Record<string, unknown>;
    const idempotencyKey =
      method === 'GET' ? undefined : (request.headers['idempotency-key'] as string | undefined);
    this.requests.push({ method, path: url.pathname, body, idempotencyKey });

    const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (bearer && this.revokedKeys.has(bearer)) {
      // Stripe's answer to a rolled or deleted key: 401, the key shown with most of it hidden.
      return send(response, 401, {
        error: {
          type: 'invalid_request_error',
          message: `Invalid API Key provided: ${bearer.slice(0, 8)}****${bearer.slice(-4)}`,
        },
      });
    }

    const fingerprint = `${method} ${url.pathname} ${raw}`;
    const saved = idempotencyKey ? this.idempotent.get(idempotencyKey) : undefined;
    if (saved) {
      if (saved.fingerprint !== fingerprint) {
        return send(response, 400, {
          error: {
            type: 'idempotency_error',
            message:
              'Keys for idempotent requests can only be used with the same parameters they were ' +
              `first used with. Try using a key other than '${idempotencyKey ?? ''}' if you meant ` +
              'to execute a different request.',
          },
        });
      }
      return send(response, saved.answer.status, saved.answer.body, true);
    }

    let answer: Answer;
    if (this.failures.remaining > 0) {
      this.failures.remaining -= 1;
      if (this.failures.hang) return; // never answers: the SDK's timeout has to fire
      answer = {
        status: this.failures.status,
        body: { error: { type: 'api_error', message: 'FakeStripe: injected failure' } },
      };
    } else {
      answer = this.answer(method, url.pathname, body);
    }
    // Stripe saves the first answer for a key, a 500 included, but not a refused request.
    if (idempotencyKey && answer.status !== 400) {
      this.idempotent.set(idempotencyKey, { fingerprint, answer });
    }
    send(response, answer.status, answer.body);
  }
}

function send(response: http.ServerResponse, status: number, body: unknown, replayed = false) {
  response.writeHead(status, {
    'content-type': 'application/json',
    'request-id': newId('req'),
    'stripe-version': PINNED_API_VERSION,
    ...(replayed && { 'idempotent-replayed': 'true' }),
  });
  response.end(JSON.stringify(body));
}

export async function startFakeStripe(): Promise<FakeStripe> {
  return new FakeStripe().start();
}

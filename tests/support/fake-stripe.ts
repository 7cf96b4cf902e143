import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';
import Stripe from 'stripe';

/**
 * A local stand-in for the parts of Stripe's API the server calls, so the real `stripe` SDK can be
 * tested against it (STRIPE_API_URL). It keeps objects in memory, honours Idempotency-Key, and
 * lets a test drive what happens at Stripe: a card paid, a checkout completed, a subscription
 * cancelled, an outage.
 */

type StripeObject = Record<string, unknown> & { id: string; object: string };

export const FAKE_STRIPE_KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_cohort_fake',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_cohort_fake',
  STRIPE_WEBHOOK_SECRET: 'whsec_cohort_fake_secret',
};

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const YEAR_SECONDS = 365 * 24 * 3600;

export interface RecordedRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
  idempotencyKey: string | undefined;
}

export class FakeStripe {
  readonly objects = new Map<string, StripeObject>();
  readonly requests: RecordedRequest[] = [];
  private readonly idempotent = new Map<string, { status: number; body: unknown }>();
  /** The next card confirmation is declined, as Stripe.js reports a card error. */
  declineNextCard = false;
  private failures: { status: number; remaining: number; hang: boolean } = {
    status: 0,
    remaining: 0,
    hang: false,
  };
  private server: http.Server | undefined;
  url = '';
  /** The real SDK, for signing webhook payloads exactly as Stripe does. */
  private readonly sdk = new Stripe(FAKE_STRIPE_KEYS.STRIPE_SECRET_KEY);

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

  // ── What happens at Stripe ────────────────────────────────────────────────────────────────

  /** The card was charged: the PaymentIntent succeeds. */
  succeedPaymentIntent(id: string): StripeObject {
    const intent = this.get(id);
    const charge = this.put({
      id: newId('ch'),
      object: 'charge',
      amount: intent.amount,
      amount_refunded: 0,
      refunded: false,
      currency: intent.currency,
      payment_intent: id,
      customer: intent.customer ?? null,
      metadata: intent.metadata,
    });
    return Object.assign(intent, {
      status: 'succeeded',
      amount_received: intent.amount,
      latest_charge: charge.id,
    });
  }

  /** A PaymentIntent as if the browser had created and paid it, for webhook tests. */
  paidPaymentIntent(metadata: Record<string, string>, amount = 1200): StripeObject {
    const intent = this.createPaymentIntent({ amount, currency: 'usd', metadata });
    return this.succeedPaymentIntent(intent.id);
  }

  /** The visitor paid on the hosted Checkout page: a customer, a subscription and its invoice. */
  completeCheckout(sessionId: string, options: { periodEnd?: number } = {}) {
    const session = this.get(sessionId);
    const metadata =
      (session.subscription_data as { metadata?: Record<string, string> } | undefined)?.metadata ??
      {};
    const customer =
      (session.customer as string | null) ??
      this.put({ id: newId('cus'), object: 'customer', email: session.customer_email ?? null }).id;
    const subscription = this.createSubscription({
      customer,
      metadata,
      periodEnd: options.periodEnd,
    });
    const invoice = this.put({
      id: newId('in'),
      object: 'invoice',
      customer,
      amount_paid: 1200,
      currency: 'usd',
      status: 'paid',
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscription.id, metadata },
      },
    });
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      customer,
      subscription: subscription.id,
      invoice: invoice.id,
      amount_total: 1200,
      currency: 'usd',
    });
    return { session, subscription, invoice };
  }

  createSubscription(options: {
    customer: string;
    metadata: Record<string, string>;
    periodEnd?: number;
    status?: string;
  }) {
    const start = nowSeconds();
    const periodEnd = options.periodEnd ?? start + YEAR_SECONDS;
    return this.put({
      id: newId('sub'),
      object: 'subscription',
      customer: options.customer,
      status: options.status ?? 'active',
      metadata: options.metadata,
      cancel_at_period_end: false,
      items: {
        object: 'list',
        data: [
          {
            id: newId('si'),
            object: 'subscription_item',
            current_period_start: start,
            current_period_end: periodEnd,
          },
        ],
      },
    });
  }

  /** Changes a subscription at Stripe (a renewal moves the period end, a cancellation the status). */
  updateSubscription(id: string, change: { status?: string; periodEnd?: number }) {
    const subscription = this.get(id);
    if (change.status) subscription.status = change.status;
    if (change.periodEnd) {
      const items = subscription.items as { data: { current_period_end: number }[] };
      for (const item of items.data) item.current_period_end = change.periodEnd;
    }
    return subscription;
  }

  /** A renewal invoice for a subscription. */
  renewalInvoice(subscriptionId: string): StripeObject {
    const subscription = this.get(subscriptionId);
    return this.put({
      id: newId('in'),
      object: 'invoice',
      customer: subscription.customer,
      amount_paid: 1200,
      currency: 'usd',
      status: 'paid',
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscriptionId, metadata: subscription.metadata },
      },
    });
  }

  /** A full refund of a PaymentIntent's charge. */
  refundPaymentIntent(paymentIntentId: string): StripeObject {
    const intent = this.get(paymentIntentId);
    const charge = this.get(String(intent.latest_charge));
    return Object.assign(charge, { refunded: true, amount_refunded: charge.amount });
  }

  // ── Webhook events ───────────────────────────────────────────────────────────────────────

  event(type: string, object: StripeObject, id = newId('evt')) {
    return {
      id,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: nowSeconds(),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: structuredClone(object) },
    };
  }

  /** A payload and its Stripe-Signature header, made with the SDK's own test helper. */
  signedDelivery(event: unknown, options: { secret?: string; timestamp?: number } = {}) {
    const payload = JSON.stringify(event);
    const header = this.sdk.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? FAKE_STRIPE_KEYS.STRIPE_WEBHOOK_SECRET,
      timestamp: options.timestamp,
    });
    return { payload, headers: { 'stripe-signature': header, 'content-type': 'application/json' } };
  }

  // ── The API ──────────────────────────────────────────────────────────────────────────────

  private put(object: StripeObject): StripeObject {
    this.objects.set(object.id, object);
    return object;
  }

  private createPaymentIntent(body: Record<string, unknown>): StripeObject {
    const id = newId('pi');
    return this.put({
      id,
      object: 'payment_intent',
      amount: Number(body.amount),
      amount_received: 0,
      currency: body.currency,
      status: 'requires_payment_method',
      client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
      metadata: body.metadata ?? {},
      customer: body.customer ?? null,
      description: body.description ?? null,
      latest_charge: null,
    });
  }

  private route(
    method: string,
    path: string,
    body: Record<string, unknown>,
  ): { status: number; body: unknown } {
    const found = (id: string | undefined) => {
      const object = id ? this.objects.get(id) : undefined;
      return object ? { status: 200, body: object } : notFound(id);
    };
    let match: RegExpMatchArray | null;
    if (method === 'POST' && path === '/v1/payment_intents') {
      return { status: 200, body: this.createPaymentIntent(body) };
    }
    if (method === 'GET' && (match = path.match(/^\/v1\/payment_intents\/([^/]+)$/)))
      return found(match[1]);
    // Called by the browser (the Stripe.js stand-in) with the client secret, as Stripe.js does.
    if (method === 'POST' && (match = path.match(/^\/v1\/payment_intents\/([^/]+)\/confirm$/))) {
      const id = match[1] ?? '';
      const intent = this.objects.get(id);
      if (!intent || intent.client_secret !== body.client_secret) return notFound(id);
      if (this.declineNextCard) {
        this.declineNextCard = false;
        return {
          status: 402,
          body: {
            error: {
              type: 'card_error',
              code: 'card_declined',
              message: 'Your card was declined.',
            },
          },
        };
      }
      return { status: 200, body: this.succeedPaymentIntent(id) };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const id = newId('cs_test');
      return {
        status: 200,
        body: this.put({
          id,
          object: 'checkout.session',
          url: `${this.url}/checkout/${id}`,
          mode: body.mode,
          status: 'open',
          payment_status: 'unpaid',
          client_reference_id: body.client_reference_id ?? null,
          metadata: body.metadata ?? {},
          subscription_data: body.subscription_data,
          customer: body.customer ?? null,
          customer_email: body.customer_email ?? null,
          line_items_requested: body.line_items,
          success_url: body.success_url,
          cancel_url: body.cancel_url,
          subscription: null,
          invoice: null,
          amount_total: null,
          currency: null,
        }),
      };
    }
    if (method === 'GET' && (match = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/)))
      return found(match[1]);
    if (method === 'GET' && (match = path.match(/^\/v1\/subscriptions\/([^/]+)$/)))
      return found(match[1]);
    if (method === 'DELETE' && (match = path.match(/^\/v1\/subscriptions\/([^/]+)$/))) {
      const id = match[1] ?? '';
      if (!this.objects.has(id)) return notFound(id);
      return { status: 200, body: this.updateSubscription(id, { status: 'canceled' }) };
    }
    if (method === 'POST' && (match = path.match(/^\/v1\/customers\/([^/]+)$/))) {
      const id = match[1] ?? '';
      if (!this.objects.has(id)) return notFound(id);
      return { status: 200, body: Object.assign(this.get(id), body) };
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const id = newId('bps');
      return {
        status: 200,
        body: this.put({
          id,
          object: 'billing_portal.session',
          customer: body.customer,
          return_url: body.return_url,
          url: `${this.url}/portal/${id}`,
        }),
      };
    }
    return {
      status: 404,
      body: {
        error: {
          type: 'invalid_request_error',
          message: `FakeStripe does not implement ${method} ${path}`,
        },
      },
    };
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse) {
    // The browser calls a few endpoints directly (with the publishable key), as with real Stripe.
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
    const raw = Buffer.concat(chunks).toString();
    const body = (
      request.method === 'GET' ? qs.parse(url.search.slice(1)) : qs.parse(raw)
    ) as Record<string, unknown>;
    const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
    this.requests.push({
      method: request.method ?? 'GET',
      path: url.pathname,
      body,
      idempotencyKey,
    });

    if (this.failures.remaining > 0) {
      this.failures.remaining -= 1;
      if (this.failures.hang) return; // never answers: the SDK's timeout has to fire
      return send(response, this.failures.status, {
        error: { type: 'api_error', message: 'FakeStripe: injected failure' },
      });
    }
    const cacheKey = idempotencyKey && `${request.method} ${url.pathname} ${idempotencyKey}`;
    const cached = cacheKey ? this.idempotent.get(cacheKey) : undefined;
    if (cached) return send(response, cached.status, cached.body, true);

    const result = this.route(request.method ?? 'GET', url.pathname, body);
    if (cacheKey) this.idempotent.set(cacheKey, result);
    send(response, result.status, result.body);
  }
}

function notFound(id: string | undefined) {
  return {
    status: 404,
    body: {
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such object: '${id}'`,
      },
    },
  };
}

function send(response: http.ServerResponse, status: number, body: unknown, replayed = false) {
  response.writeHead(status, {
    'content-type': 'application/json',
    'request-id': newId('req'),
    ...(replayed && { 'idempotent-replayed': 'true' }),
  });
  response.end(JSON.stringify(body));
}

export async function startFakeStripe(): Promise<FakeStripe> {
  return new FakeStripe().start();
}

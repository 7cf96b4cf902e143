import http from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';
import { fixture } from '../stripe-fixtures.js';
import {
  newId,
  nowSeconds,
  StripeApiError,
  notFound,
  invalid,
  unexpectedState,
  list,
  page,
  EVENT_RETENTION_SECONDS,
  FAKE_STRIPE_KEYS,
  PINNED_API_VERSION,
  type Answer,
} from './basics.js';
import { StripeCheckout } from './checkout.js';

// The fake Stripe's HTTP API (fake-stripe.ts): a local server the real `stripe` SDK and the
// browser's Stripe.js stand-in call, which routes each call to the objects, replays an
// Idempotency-Key's first answer, refuses revoked keys, and fails or hangs on request.

export class FakeStripe extends StripeCheckout {
  /** Secret keys Stripe no longer accepts (rolled or deleted): calls with them answer 401. */
  readonly revokedKeys = new Set<string>();
  private readonly idempotent = new Map<string, { fingerprint: string; answer: Answer }>();
  private failures = { status: 0, remaining: 0, hang: false };
  private server: http.Server | undefined;

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
            metadata: (body.metadata as Record<string, string> | undefined) ?? {},
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

import Stripe from 'stripe';
import { fixture, type StripeObject } from '../stripe-fixtures.js';
import {
  newId,
  nowSeconds,
  random,
  FAKE_STRIPE_KEYS,
  PINNED_API_VERSION,
  type StripeEvent,
  type Delivery,
  type DeliverOptions,
} from './basics.js';
import { StripeStore } from './store.js';

// The fake Stripe's events and webhooks (fake-stripe.ts): events made as Stripe makes them, each
// change emitted (an update with its `previous_attributes`), the account's webhook endpoints, and
// the pending events delivered signed, in order, shuffled, duplicated or held back.

export class StripeWebhooks extends StripeStore {
  /** Every event emitted, in order: what GET /v1/events lists. */
  readonly events: StripeEvent[] = [];
  /** The API version emitted events carry (an endpoint made with an older version gets that). */
  webhookApiVersion: string | undefined;
  /** The account's webhook endpoints (Dashboard → Developers → Webhooks). */
  readonly webhookEndpoints: StripeObject[] = [];
  protected pending: StripeEvent[] = [];
  protected target: ((delivery: Delivery) => Promise<number>) | undefined;
  /** The real SDK, for signing webhook payloads exactly as Stripe does. */
  protected readonly sdk = new Stripe(FAKE_STRIPE_KEYS.STRIPE_SECRET_KEY);

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

  protected emit(type: string, object: StripeObject, previousAttributes?: Record<string, unknown>) {
    const event = this.event(type, object, { previousAttributes });
    this.events.push(event);
    this.pending.push(event);
    return event;
  }

  /** Changes fields and emits the update with the old values as `previous_attributes`. */
  protected update(type: string, object: StripeObject, fields: Record<string, unknown>) {
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
}

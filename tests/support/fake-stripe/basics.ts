import { randomBytes } from 'node:crypto';
import type { StripeObject } from '../stripe-fixtures.js';

// What the fake Stripe's modules (fake-stripe.ts) share: its keys and API version, ids and times,
// billing periods as Stripe counts them, the events and deliveries it records, its errors, and
// lists as Stripe pages them.

export const FAKE_STRIPE_KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_cohort_fake',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_cohort_fake',
  STRIPE_WEBHOOK_SECRET: 'whsec_cohort_fake_secret',
};

/** The API version of the SDK the app pins; events carry it unless told otherwise. */
export const PINNED_API_VERSION = '2026-10-28.endive';

export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
export const nowSeconds = () => Math.floor(Date.now() / 1000);

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
export const intervalOf = (price: StripeObject) =>
  (price.recurring as { interval?: string } | null)?.interval ?? 'year';

/** The start of the period that ends at `end`. */
export function periodStart(end: number, interval: string): number {
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

export interface Answer {
  status: number;
  body: unknown;
}

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error: Record<string, unknown> },
  ) {
    super(String(body.error.message));
  }
}

export const notFound = (id: string | undefined) =>
  new StripeApiError(404, {
    error: {
      type: 'invalid_request_error',
      code: 'resource_missing',
      message: `No such object: '${id ?? ''}'`,
    },
  });
export const invalid = (message: string, code?: string) =>
  new StripeApiError(400, { error: { type: 'invalid_request_error', code, message } });

/** The PaymentIntent states Stripe lets a PaymentIntent be canceled from. */
export const CANCELABLE_INTENT = new Set([
  'requires_payment_method',
  'requires_capture',
  'requires_confirmation',
  'requires_action',
  'processing',
]);

export const unexpectedState = (intent: StripeObject, action: 'cancel' | 'confirm') =>
  invalid(
    `You cannot ${action} this PaymentIntent because it has a status of ${String(intent.status)}.`,
    'payment_intent_unexpected_state',
  );

/** A seeded PRNG (mulberry32), so a shuffled delivery can be replayed. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const list = (data: unknown[], url: string) => ({
  object: 'list',
  data,
  has_more: false,
  url,
});

/** How long Stripe keeps events for the Events API. */
export const EVENT_RETENTION_SECONDS = 30 * 24 * 3600;

/** One page of a list, as Stripe pages them: `limit` (default 10) after `starting_after`. */
export function page(all: { id: string }[], body: Record<string, unknown>, url: string) {
  const start = body.starting_after
    ? all.findIndex((item) => item.id === body.starting_after) + 1
    : 0;
  const limit = Math.min(Number(body.limit ?? 10), 100);
  return { ...list(all.slice(start, start + limit), url), has_more: start + limit < all.length };
}

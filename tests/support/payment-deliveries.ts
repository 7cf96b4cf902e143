import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { earlyAccessMetadata } from '../../server/src/stripe/cohort-sales.js';
import type { FakeStripe } from './fake-stripe.js';

/** The offer as the test apps configure it (MEMBERSHIP_PRICE_CENTS and _CURRENCY defaults). */
const MEMBERSHIP_PRICE = { priceCents: 1200, currency: 'usd', priceId: undefined };

/** One early-access payment as Stripe reports it: a `payment_intent.succeeded` for a new visitor. */
export interface PaymentEvent {
  userId: string;
  intentId: string;
  event: ReturnType<FakeStripe['event']>;
}

/**
 * A paid PaymentIntent for `userId`, made in the fake Stripe (the webhook re-reads it from there):
 * by default for a new visitor who has no user row yet (the webhook creates it).
 */
export function newPaymentEvent(stripe: FakeStripe, userId: string = randomUUID()): PaymentEvent {
  const intent = stripe.paidPaymentIntent(earlyAccessMetadata(userId, MEMBERSHIP_PRICE));
  return { userId, intentId: intent.id, event: stripe.event('payment_intent.succeeded', intent) };
}

export interface DeliveryOutcome {
  /** The HTTP status, or 0 when no answer came (refused, reset, or timed out). */
  status: number;
  body: string;
  ms: number;
}

/**
 * Delivers an event to `<url>/webhooks/stripe` as Stripe does: signed now (each retry carries a
 * fresh signature), and given up on after `timeoutMs`.
 */
export async function deliverWebhook(
  url: string,
  stripe: FakeStripe,
  event: unknown,
  timeoutMs = 10_000,
): Promise<DeliveryOutcome> {
  const { payload, headers } = stripe.signedDelivery(event);
  const started = performance.now();
  try {
    const response = await fetch(`${url}/webhooks/stripe`, {
      method: 'POST',
      headers,
      body: payload,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await response.text();
    return { status: response.status, body, ms: performance.now() - started };
  } catch (error) {
    return { status: 0, body: String(error), ms: performance.now() - started };
  }
}

/** What the database holds for a set of payments: the rows the money path writes. */
export interface Ledger {
  /** stripe_events rows for these events. */
  events: number;
  /** Ledger entitlements for these PaymentIntents. */
  payments: number;
  /** memberships rows for these visitors. */
  memberships: number;
  /** Visitors whose membership runs for more than one paid year (a payment granted twice). */
  grantedTwice: number;
  /** Payments whose event is recorded but whose effect is missing, or the other way round. */
  halfRecorded: number;
}

export async function readLedger(databaseUrl: string, paid: PaymentEvent[]): Promise<Ledger> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // One statement, so one snapshot: writes still landing cannot make the counts disagree.
    const { rows } = await client.query<Record<keyof Ledger, string>>(
      `WITH paid AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::uuid[]) AS p(event_id, intent_id, user_id)
       )
       SELECT
         (SELECT count(*) FROM stripe_events WHERE id IN (SELECT event_id FROM paid)) AS events,
         (SELECT count(*) FROM entitlements WHERE id IN (SELECT intent_id FROM paid)) AS payments,
         (SELECT count(*) FROM memberships WHERE "userId" IN (SELECT user_id FROM paid))
           AS memberships,
         (SELECT count(*) FROM memberships
           WHERE "userId" IN (SELECT user_id FROM paid)
             AND "expiresAt" > "createdAt" + interval '366 days') AS "grantedTwice",
         (SELECT count(*) FROM paid
           WHERE EXISTS (SELECT 1 FROM stripe_events e WHERE e.id = paid.event_id)
              <> EXISTS (SELECT 1 FROM entitlements p WHERE p.id = paid.intent_id)) AS "halfRecorded"`,
      [paid.map((p) => p.event.id), paid.map((p) => p.intentId), paid.map((p) => p.userId)],
    );
    const row = rows[0];
    if (!row) throw new Error('the ledger query returned no row');
    return {
      events: Number(row.events),
      payments: Number(row.payments),
      memberships: Number(row.memberships),
      grantedTwice: Number(row.grantedTwice),
      halfRecorded: Number(row.halfRecorded),
    };
  } finally {
    await client.end();
  }
}

import { randomBytes } from 'node:crypto';
import type { StripeObject } from '../stripe-fixtures.js';
import {
  nowSeconds,
  notFound,
  invalid,
  CANCELABLE_INTENT,
  unexpectedState,
  list,
} from './basics.js';
import { StripeCustomersAndPrices } from './customers-and-prices.js';

// The fake Stripe's payment intents, charges, refunds and disputes (fake-stripe.ts): a card paid
// or declined, an intent canceled, money refunded and disputes opened and closed, each with the
// events Stripe emits.

export class StripePaymentIntentsAndCharges extends StripeCustomersAndPrices {
  /** The next card confirmation is declined, as Stripe.js reports a card error. */
  declineNextCard = false;

  protected createPaymentIntent(body: Record<string, unknown>): StripeObject {
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

  protected newCharge(intent: StripeObject, paid: boolean): StripeObject {
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
  protected cancelPaymentIntent(id: string, body: Record<string, unknown>): StripeObject {
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
}

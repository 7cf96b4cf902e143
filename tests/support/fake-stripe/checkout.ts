import type { StripeObject } from '../stripe-fixtures.js';
import { newId, nowSeconds, invalid } from './basics.js';
import { StripePriceChanges } from './price-changes.js';

// The fake Stripe's Checkout (fake-stripe.ts): a session made by the app, expired when it lapses,
// and completed by a test as a buyer would, paid now or after a trial.

export class StripeCheckout extends StripePriceChanges {
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
  protected checkDiscounts(value: unknown): { promotion_code: string }[] | null {
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

  protected trialOf(session: StripeObject) {
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
   * When a Checkout Session expires: 24 hours after it is made, or at `expires_at`, which Stripe
   * takes from 30 minutes to 24 hours ahead.
   */
  protected checkoutExpiry(value: unknown): number {
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
  protected expireIfLapsed(session: StripeObject): void {
    if (session.status === 'open' && Number(session.expires_at) <= nowSeconds()) {
      session.status = 'expired';
      this.emit('checkout.session.expired', session);
    }
  }

  protected createCheckoutSession(body: Record<string, unknown>): StripeObject {
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
}

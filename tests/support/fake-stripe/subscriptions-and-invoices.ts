import { fixture, type StripeObject } from '../stripe-fixtures.js';
import { newId, nowSeconds, periodEnd, intervalOf, periodStart, invalid, list } from './basics.js';
import { StripePaymentIntentsAndCharges } from './payment-intents-and-charges.js';

// The fake Stripe's subscriptions and invoices (fake-stripe.ts): a subscription started, renewed,
// failed, its price changed, canceled; each period's invoice, its discount, and how it is paid,
// with the events Stripe emits in its order.

/** A line of an invoice the fake makes: what it charges (or credits) for which time at which Price. */
export interface InvoiceLineSpec {
  amount: number;
  price: StripeObject;
  period: { start: number; end: number };
  /** A proration: the time left of a period at a changed price (credited, or charged). */
  proration: boolean;
  description: string;
  /** For a credit: the invoice and lines it credits (Stripe's `proration_details`). */
  credited?: { invoice: string; invoice_line_items: string[] };
}

export class StripeSubscriptionsAndInvoices extends StripePaymentIntentsAndCharges {
  /** How many invoices each discount has taken something off (a `once` coupon takes one). */
  protected readonly discountUses = new Map<string, number>();

  protected newInvoice(
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
    const lines: InvoiceLineSpec[] = [
      {
        amount: full - discountAmount,
        price,
        period,
        proration: false,
        description: trial
          ? `Trial period for ${String(price.product)}`
          : `1 × ${String(price.product)} (at ${String(price.unit_amount)} / ${intervalOf(price)})`,
      },
    ];
    if (credit) {
      // Unused time on the old price, credited (Stripe's proration line).
      lines.unshift({
        amount: -credit.amount,
        price: credit.price,
        period: credit.period,
        proration: true,
        description: `Unused time on ${String(credit.price.product)}`,
      });
    }
    return this.invoiceOf(subscription, billingReason, period.start, lines, {
      subtotal: full - (credit?.amount ?? 0),
      discount: discount && { discount, amount: discountAmount },
    });
  }

  /**
   * An invoice of `lines` for the subscription, drawn against the customer's credit balance, and
   * finalized (open), with the events Stripe emits for it.
   */
  protected invoiceOf(
    subscription: StripeObject,
    billingReason: string,
    periodStart: number,
    lines: InvoiceLineSpec[],
    options: { subtotal: number; discount: { discount: StripeObject; amount: number } | null },
  ): StripeObject {
    const total = lines.reduce((sum, line) => sum + line.amount, 0);
    const { discount } = options;
    // The customer's credit balance (negative) pays first; what is left over stays on it.
    const customer = this.get(String(subscription.customer));
    const balance = Number(customer.balance ?? 0);
    const due = Math.max(0, total + balance);
    customer.balance = Math.min(0, total + balance);
    const currency = this.priceOf(subscription).currency;
    const invoice = this.make('invoice', 'in', {
      customer: subscription.customer,
      subscription: undefined,
      billing_reason: billingReason,
      currency,
      amount_due: due,
      amount_paid: 0,
      amount_remaining: due,
      subtotal: options.subtotal,
      total,
      discounts: discount ? [discount.discount.id] : [],
      total_discount_amounts: discount
        ? [{ amount: discount.amount, discount: discount.discount.id }]
        : [],
      starting_balance: balance,
      ending_balance: customer.balance,
      status: 'draft',
      attempted: false,
      attempt_count: 0,
      period_start: periodStart,
      period_end: periodStart,
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
    const template = (fixture('invoice').lines as { data: Record<string, unknown>[] }).data[0];
    const data = lines.map((line) => ({
      ...template,
      id: newId('il'),
      invoice: invoice.id,
      amount: line.amount,
      currency: line.price.currency,
      description: line.description,
      period: line.period,
      subtotal: line.amount,
      parent: {
        type: 'subscription_item_details',
        invoice_item_details: null,
        subscription_item_details: {
          invoice_item: null,
          proration: line.proration,
          proration_details: { credited_items: line.credited ?? null },
          subscription: subscription.id,
          subscription_item: this.itemsOf(subscription)[0]?.id,
        },
      },
      pricing: {
        type: 'price_details',
        price_details: { price: line.price.id, product: line.price.product },
        unit_amount_decimal: String(line.price.unit_amount),
      },
    }));
    invoice.lines = list(data, `/v1/invoices/${invoice.id}/lines`);
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
  protected collectInvoice(invoice: StripeObject) {
    if (Number(invoice.amount_due) > 0) return this.chargeInvoice(invoice, true);
    this.payWithoutCharge(invoice);
    return { paymentIntent: null, charge: null };
  }

  /** Nothing to collect: Stripe marks the invoice paid, with no payment. */
  protected payWithoutCharge(invoice: StripeObject) {
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

  protected chargeInvoice(invoice: StripeObject, succeed: boolean) {
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

  protected itemsOf(subscription: StripeObject) {
    return (subscription.items as { data: Record<string, unknown>[] }).data;
  }

  protected priceOf(subscription: StripeObject): StripeObject {
    return this.itemsOf(subscription)[0]?.price as StripeObject;
  }

  /** A subscription to `price` for `customer`, with its first invoice paid. */
  /** A subscription object to `price` with one item for `period`, as Stripe makes one. */
  protected newSubscription(
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

  protected startSubscription(
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

  /** A subscription takes a promotion code's coupon: a Discount, counted as one redemption. */
  protected applyPromotionCode(subscription: StripeObject, promotionCodeId: string, start: number) {
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
  protected discountFor(subscription: StripeObject, start: number): StripeObject | null {
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

  protected discountAmount(discount: StripeObject, amount: number): number {
    const coupon = this.get((discount.source as { coupon: string }).coupon);
    return coupon.percent_off !== null
      ? Math.round((amount * Number(coupon.percent_off)) / 100)
      : Math.min(Number(coupon.amount_off), amount);
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

  protected nextPeriodInvoice(subscriptionId: string) {
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
}

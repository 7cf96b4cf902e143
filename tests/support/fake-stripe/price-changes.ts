import type { StripeObject } from '../stripe-fixtures.js';
import { nowSeconds, periodEnd, intervalOf, invalid } from './basics.js';
import {
  StripeSubscriptionsAndInvoices,
  type InvoiceLineSpec,
} from './subscriptions-and-invoices.js';

// The fake Stripe's price changes (fake-stripe.ts): a subscription moved to another Price, as
// Stripe documents `POST /v1/subscriptions/:id` with `items` and a `proration_behavior`.

export class StripePriceChanges extends StripeSubscriptionsAndInvoices {
  /**
   * A subscription moved to another Price (`POST /v1/subscriptions/:id` with `items`), as Stripe
   * documents it. A change of billing interval: the period starts again now, the unused time of
   * the old one is credited (prorated by the second), and the new period is invoiced and charged
   * at once; a credit larger than the charge goes to the customer's balance, which pays the next
   * invoices. Within an interval the period stays: with `none`, nothing is invoiced now and the
   * next renewal charges the new Price; with `always_invoice`, the time left is prorated at once
   * (`prorateWithinPeriod`). Only these cases are played here.
   */
  protected changePrice(
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
    // The Price it has already: nothing changes, nothing is invoiced.
    if (oldPrice.id === newPrice.id) return subscription;
    if (intervalOf(oldPrice) === intervalOf(newPrice)) {
      if (prorationBehavior === 'always_invoice') {
        return this.prorateWithinPeriod(subscription, current, newPrice);
      }
      // The same interval: the period stays; with proration off nothing is invoiced now, and the
      // next renewal charges the new price (Stripe's price migration).
      if (prorationBehavior !== 'none') {
        throw new Error(
          'The fake Stripe changes a price within an interval only with `none` or `always_invoice`',
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

  /**
   * A change of Price within the period with `always_invoice`, as Stripe's prorations work: the
   * period and the billing date stay; two proration lines for the time left (from now to the
   * period's end, by the second), a credit for the unused time at the old Price (naming the
   * invoice line it credits) and a charge for the same time at the new one, invoiced and collected
   * at once (the credit balance first). The subscription takes the new Price.
   */
  protected prorateWithinPeriod(
    subscription: StripeObject,
    item: Record<string, unknown>,
    newPrice: StripeObject,
  ) {
    const oldPrice = item.price as StripeObject;
    const now = nowSeconds();
    const period = { start: now, end: Number(item.current_period_end) };
    const share = Math.max(0, period.end - now) / (period.end - Number(item.current_period_start));
    const credited = this.periodLineOf(subscription, oldPrice);
    const on = new Date(now * 1000).toISOString().slice(0, 10);
    const lines: InvoiceLineSpec[] = [
      {
        amount: -Math.round(Number(oldPrice.unit_amount) * share),
        price: oldPrice,
        period,
        proration: true,
        description: `Unused time on ${String(oldPrice.product)} after ${on}`,
        ...(credited && { credited }),
      },
      {
        amount: Math.round(Number(newPrice.unit_amount) * share),
        price: newPrice,
        period,
        proration: true,
        description: `Remaining time on ${String(newPrice.product)} after ${on}`,
      },
    ];
    const previousItems = structuredClone(subscription.items);
    item.price = structuredClone(newPrice);
    const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
    const invoice = this.invoiceOf(subscription, 'subscription_update', now, lines, {
      subtotal,
      discount: null,
    });
    const previousInvoice = subscription.latest_invoice;
    subscription.latest_invoice = invoice.id;
    this.emit('customer.subscription.updated', subscription, {
      items: previousItems,
      latest_invoice: previousInvoice,
    });
    this.collectInvoice(invoice);
    return subscription;
  }

  /** The invoice line that charged the subscription's current period at `price`, if any. */
  protected periodLineOf(subscription: StripeObject, price: StripeObject) {
    const [item] = this.itemsOf(subscription);
    const start = Number(item?.current_period_start);
    for (const invoice of this.find(
      (o) =>
        o.object === 'invoice' &&
        o.status === 'paid' &&
        (o.parent as { subscription_details?: { subscription?: string } } | null)
          ?.subscription_details?.subscription === subscription.id,
    )) {
      const line = (invoice.lines as { data: Record<string, unknown>[] }).data.find(
        (each) =>
          (each.pricing as { price_details: { price: string } }).price_details.price === price.id &&
          (each.period as { start: number }).start === start,
      );
      if (line) return { invoice: invoice.id, invoice_line_items: [String(line.id)] };
    }
    return null;
  }
}

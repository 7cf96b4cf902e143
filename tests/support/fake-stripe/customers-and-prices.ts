import { randomBytes } from 'node:crypto';
import type { StripeObject } from '../stripe-fixtures.js';
import { StripeWebhooks } from './webhooks.js';

// The fake Stripe's customers and prices (fake-stripe.ts): made by the app's calls or by a test,
// and a customer deleted as in the Dashboard.

export class StripeCustomersAndPrices extends StripeWebhooks {
  protected newCustomer(email: string | null): StripeObject {
    const customer = this.make('customer', 'cus', {
      email,
      discount: null,
      invoice_prefix: randomBytes(4).toString('hex').toUpperCase(),
    });
    this.emit('customer.created', customer);
    return customer;
  }

  protected newPrice(fields: {
    unit_amount: number;
    currency: string;
    interval: string;
    lookup_key?: string | null;
    product?: string;
    productName?: string;
    metadata?: Record<string, string>;
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
      metadata: fields.metadata ?? {},
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

  /** Deleted in the Dashboard: Stripe answers its id with `{id, object, deleted: true}` after. */
  deleteCustomer(customerId: string): void {
    const customer = this.get(customerId);
    this.objects.set(customerId, { id: customerId, object: 'customer', deleted: true });
    this.emit('customer.deleted', customer);
  }
}

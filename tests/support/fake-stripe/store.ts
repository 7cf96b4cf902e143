import { fixture, type StripeObject } from '../stripe-fixtures.js';
import { newId, nowSeconds, notFound, list, type Answer, type RecordedRequest } from './basics.js';

// The fake Stripe's objects (fake-stripe.ts): every object made from Stripe's published fixture,
// kept by id, found, listed newest first, expanded and retrieved as the API does; the calls it
// was sent, and the billing portal's settings.

export class StripeStore {
  readonly objects = new Map<string, StripeObject>();
  readonly requests: RecordedRequest[] = [];
  /**
   * The billing portal's saved settings. A new Stripe account has none (the portal then refuses
   * sessions); this fake starts as an account set up as docs/payments.md says, with them saved.
   */
  readonly portalConfigurations: StripeObject[] = [];
  url = '';

  constructor() {
    this.savePortalSettings();
  }

  get<T extends StripeObject = StripeObject>(id: string): T {
    const object = this.objects.get(id);
    if (!object) throw new Error(`FakeStripe has no ${id}`);
    return object as T;
  }

  requestsTo(method: string, path: string) {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  /** Saves the billing portal's settings, as the operator does once per mode in the Dashboard. */
  savePortalSettings(): StripeObject {
    const configuration = {
      ...fixture('billing_portal.configuration'),
      id: newId('bpc'),
      livemode: false,
      is_default: true,
      active: true,
    } as StripeObject;
    this.portalConfigurations.push(configuration);
    return configuration;
  }

  // ── Objects, from Stripe's fixtures ──────────────────────────────────────────────────────

  protected make(resource: string, prefix: string, fields: Record<string, unknown>): StripeObject {
    const object = {
      ...fixture(resource),
      id: newId(prefix),
      created: nowSeconds(),
      livemode: false,
      metadata: {},
      ...fields,
    } as StripeObject;
    this.objects.set(object.id, object);
    return object;
  }

  protected find(predicate: (object: StripeObject) => boolean): StripeObject[] {
    return [...this.objects.values()].filter(predicate);
  }

  /** Objects of one kind, newest first, as Stripe's list endpoints order them. */
  protected newestFirst(kind: string): StripeObject[] {
    return this.find((o) => o.object === kind).reverse();
  }

  // ── The API ──────────────────────────────────────────────────────────────────────────────

  /** A copy of `object` with the listed fields (`a`, `a.b`) expanded from ids to objects. */
  protected expand(object: StripeObject, paths: string[]): StripeObject {
    const copy = structuredClone(object);
    for (const path of paths) {
      if (object.object === 'invoice' && path === 'payments') {
        copy.payments = list(
          this.find((o) => o.object === 'invoice_payment' && o.invoice === object.id),
          `/v1/invoice_payments?invoice=${object.id}`,
        );
        continue;
      }
      const [head, ...rest] = path.split('.');
      if (!head) continue;
      const value = copy[head];
      const found = typeof value === 'string' ? this.objects.get(value) : undefined;
      if (found)
        copy[head] = rest.length ? this.expand(found, [rest.join('.')]) : structuredClone(found);
    }
    return copy;
  }

  protected retrieve(id: string | undefined, kind: string, body: Record<string, unknown>): Answer {
    const object = id ? this.objects.get(id) : undefined;
    if (!object || object.object !== kind) throw notFound(id);
    const paths = Array.isArray(body.expand) ? (body.expand as string[]) : [];
    return { status: 200, body: this.expand(object, paths) };
  }
}

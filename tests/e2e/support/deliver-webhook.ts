import type { APIRequestContext } from '@playwright/test';
import type { FakeStripe, StripeObject } from '#test/fake-stripe';

/** Posts a Stripe event to the site as Stripe would: signed, raw JSON. */
export async function deliverWebhook(
  request: APIRequestContext,
  siteUrl: string,
  stripe: FakeStripe,
  event: unknown,
): Promise<number> {
  const { payload, headers } = stripe.signedDelivery(event);
  const response = await request.post(`${siteUrl}/webhooks/stripe`, { data: payload, headers });
  return response.status();
}

/** Tells the site, as Stripe would, that the PaymentIntent `intent` is paid. */
export function deliverPaymentSucceeded(
  request: APIRequestContext,
  siteUrl: string,
  stripe: FakeStripe,
  intent: StripeObject,
): Promise<number> {
  return deliverWebhook(request, siteUrl, stripe, stripe.event('payment_intent.succeeded', intent));
}

/** The PaymentIntent the fake Stripe holds whose metadata gives `key` this `value`, if any. */
export function paymentIntentWith(
  stripe: FakeStripe,
  key: string,
  value: string,
): StripeObject | undefined {
  return [...stripe.objects.values()].find(
    (o) => o.object === 'payment_intent' && (o.metadata as Record<string, unknown>)[key] === value,
  );
}

import type { APIRequestContext } from '@playwright/test';
import type { FakeStripe } from '#test/fake-stripe';

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

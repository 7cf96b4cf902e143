import { useEffect, useState } from 'react';
import type { SiteConfig } from '../../../../contract/api';
import { paymentStatusMessage } from '../../lib/payment-messages';
import { useQueryParamOnce } from '../../lib/use-query-param';
import { getStripe } from './stripe-loader';

/**
 * Back from Stripe with `?payment_intent_client_secret=…`: asks Stripe.js how the payment went and
 * answers what to tell the payer (`succeeded` when it succeeded, Stripe's status in words
 * otherwise); null before then, or when the page was not opened by Stripe's return. `afterSuccess`
 * runs once it succeeded (the early-access year waits for the membership its webhook makes).
 */
export function useReturnedPayment(
  config: SiteConfig | null,
  succeeded: string | null,
  afterSuccess?: (signal: AbortSignal) => Promise<unknown>,
): string | null {
  const [message, setMessage] = useState<string | null>(null);
  const clientSecret = useQueryParamOnce('payment_intent_client_secret');
  useEffect(() => {
    if (!clientSecret || !config?.stripePublishableKey) return;
    const controller = new AbortController();
    void getStripe(config.stripePublishableKey).then(async (stripe) => {
      if (!stripe || controller.signal.aborted) return;
      const { paymentIntent } = await stripe.retrievePaymentIntent(clientSecret);
      if (controller.signal.aborted) return;
      const status = paymentIntent?.status ?? 'unknown';
      setMessage((status === 'succeeded' && succeeded) || paymentStatusMessage(status));
      if (status === 'succeeded') await afterSuccess?.(controller.signal);
    });
    return () => controller.abort();
  }, [clientSecret, config?.stripePublishableKey, succeeded, afterSuccess]);
  return message;
}

import Stripe from 'stripe';
import type { StripeConfig } from '../config.js';

/** The real Stripe SDK; `STRIPE_API_URL` points it at another server (the tests' fake Stripe). */
export function createStripeClient(config: StripeConfig): Stripe {
  const api = config.apiUrl ? new URL(config.apiUrl) : undefined;
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 1,
    timeout: config.timeoutMs,
    telemetry: false,
    appInfo: { name: 'Cohort' },
    ...(api && {
      host: api.hostname,
      port: api.port || (api.protocol === 'https:' ? 443 : 80),
      protocol: api.protocol === 'https:' ? 'https' : 'http',
    }),
  });
}

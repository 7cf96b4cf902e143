import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type Stripe from 'stripe';
import type { AppConfig } from '../../config.js';
import { HttpError } from '../../http/errors.js';
import { createStripeClient } from '../../stripe/stripe-client.js';

export interface Payments {
  stripe: Stripe;
  webhookSecret: string;
  priceId: string | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Null when the Stripe keys are not configured (payments off). */
    payments: Payments | null;
    /** The payments setup, or a 503 saying payments are not configured. */
    requirePayments(): Payments;
  }
}

export const PAYMENTS_OFF_MESSAGE = 'Payments are not configured on this site yet.';

export default fp(
  async function payments(app: FastifyInstance, options: { config: AppConfig }) {
    const stripeConfig = options.config.stripe;
    const value: Payments | null = stripeConfig
      ? {
          stripe: createStripeClient(stripeConfig),
          webhookSecret: stripeConfig.webhookSecret,
          priceId: stripeConfig.priceId,
        }
      : null;
    app.decorate('payments', value);
    app.decorate('requirePayments', () => {
      if (!value) throw new HttpError(503, 'payments_not_configured', PAYMENTS_OFF_MESSAGE);
      return value;
    });
  },
  { name: 'payments' },
);

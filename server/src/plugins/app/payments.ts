import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type Stripe from 'stripe';
import type { AppConfig } from '../../config.js';
import { HttpError } from '../../http/errors.js';
import type { Offer } from '../../stripe/offer.js';
import { runStripeActions } from '../../stripe/stripe-actions.js';
import { createStripeClient } from '../../stripe/stripe-client.js';

export interface Payments {
  stripe: Stripe;
  webhookSecret: string;
  /** What Cohort sells: the price the server sets, and the operator's Stripe Price if any. */
  offer: Offer;
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

/** How often queued Stripe actions that failed are tried again. */
const STRIPE_ACTIONS_RETRY_MS = 60_000;

export default fp(
  async function payments(app: FastifyInstance, options: { config: AppConfig }) {
    const stripeConfig = options.config.stripe;
    const value: Payments | null = stripeConfig
      ? {
          stripe: createStripeClient(stripeConfig),
          webhookSecret: stripeConfig.webhookSecret,
          offer: {
            priceCents: options.config.membership.priceCents,
            currency: options.config.membership.currency,
            priceId: stripeConfig.priceId,
          },
        }
      : null;
    app.decorate('payments', value);
    app.decorate('requirePayments', () => {
      if (!value) throw new HttpError(503, 'payments_not_configured', PAYMENTS_OFF_MESSAGE);
      return value;
    });

    if (value) {
      const retry = setInterval(() => {
        runStripeActions({ db: app.db, stripe: value.stripe, log: app.log }).catch(
          (error: unknown) => app.log.error({ err: error }, 'could not run queued Stripe actions'),
        );
      }, STRIPE_ACTIONS_RETRY_MS);
      retry.unref();
      app.addHook('onClose', async () => clearInterval(retry));
    }
  },
  { name: 'payments', dependencies: ['database'] },
);

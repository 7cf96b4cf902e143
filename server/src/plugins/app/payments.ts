import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type Stripe from 'stripe';
import type { AppConfig } from '../../config.js';
import { HttpError } from '../../http/errors.js';
import { membershipPriceOf, type MembershipPrice } from '../../stripe/cohort-sales.js';
import { PaymentsStatus } from '../../stripe/payments-status.js';
import { logStripeFailure, PaymentsUnavailableError } from '../../stripe/call-stripe.js';
import { checkStripeSetup } from '../../stripe/stripe-check.js';
import { runStripeActions } from '../../stripe/stripe-actions.js';
import { releaseLapsedRedemptions } from '../../memberships/offer-redemptions.js';
import { keysOf } from '../../stripe/key-check.js';
import { createStripeClient } from '../../stripe/stripe-client.js';
import { stopOfferPayment } from '../../stripe/stop-offer-payment.js';

export interface Payments {
  stripe: Stripe;
  webhookSecret: string;
  /** The membership's price as the server sets it, and the operator's Stripe Price if any. */
  membershipPrice: MembershipPrice;
  /** Whether Stripe accepts the keys, from its answers so far (`/readyz`). */
  status: PaymentsStatus;
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

/**
 * How often queued Stripe actions that failed are tried again, and offers' redemptions held by
 * checkouts not paid in time are released.
 */
const STRIPE_ACTIONS_RETRY_MS = 60_000;

export default fp(
  async function payments(app: FastifyInstance, options: { config: AppConfig }) {
    const stripeConfig = options.config.stripe;
    const stripe = stripeConfig ? createStripeClient(stripeConfig) : null;
    const status = new PaymentsStatus();
    if (stripe) status.watch(stripe);
    const value: Payments | null =
      stripeConfig && stripe
        ? {
            stripe,
            status,
            webhookSecret: stripeConfig.webhookSecret,
            membershipPrice: membershipPriceOf(options.config),
          }
        : null;
    app.decorate('payments', value);
    app.decorate('requirePayments', () => {
      if (!value) throw new HttpError(503, 'payments_not_configured', PAYMENTS_OFF_MESSAGE);
      return value;
    });

    // A Stripe failure that ends a request (the visitor gets our message from the error handler):
    // the operator's log line with Stripe's details, and the metric.
    app.addHook('onError', async (request, _reply, error) => {
      if (!(error instanceof PaymentsUnavailableError)) return;
      logStripeFailure(request.log, error);
      app.metrics.stripeErrors.inc({ operation: error.stripe.operation, type: error.stripe.type });
    });

    if (value) {
      const retry = setInterval(() => {
        runStripeActions({ db: app.db, stripe: value.stripe, log: app.log }).catch(
          (error: unknown) => app.log.error({ err: error }, 'could not run queued Stripe actions'),
        );
        releaseLapsedRedemptions({
          pool: app.db.pool,
          stopPayment: stopOfferPayment(value.stripe),
          log: app.log,
        }).catch((error: unknown) =>
          app.log.error({ err: error }, 'could not release offers’ lapsed redemptions'),
        );
      }, STRIPE_ACTIONS_RETRY_MS);
      retry.unref();
      app.addHook('onClose', async () => clearInterval(retry));
    }
  },
  { name: 'payments', dependencies: ['database', 'metrics'] },
);

/**
 * The start-up check (`npm run stripe:check`'s, logged): never blocks or fails start-up; what is
 * wrong goes to the log at error level and to `/readyz`'s payments detail.
 */
export async function checkStripeAtStart(app: FastifyInstance, config: AppConfig): Promise<void> {
  const payments = app.payments;
  if (!payments || !config.stripe) return;
  try {
    const findings = await checkStripeSetup({
      stripe: payments.stripe,
      membershipPrice: payments.membershipPrice,
      plans: await app.plans.list(),
      keys: keysOf(config.stripe),
      siteUrl: config.siteUrl,
      production: config.env === 'production',
    });
    const problems: string[] = [];
    for (const finding of findings) {
      const line = `stripe check: ${finding.subject}: ${finding.message}${finding.fix ? ` (${finding.fix})` : ''}`;
      if (finding.level === 'error') {
        app.log.error(line);
        problems.push(`${finding.subject}: ${finding.message}`);
      } else if (finding.level === 'warning') app.log.warn(line);
    }
    payments.status.recordCheck(problems);
    if (problems.length === 0) app.log.info('stripe check: Stripe is set up for Cohort');
  } catch (error) {
    app.log.error({ err: error }, 'stripe check could not run');
  }
}

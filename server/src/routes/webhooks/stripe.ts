import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { Type } from 'typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import { HttpError } from '../../http/errors.js';
import { MalformedEventError } from '../../stripe/event-facts.js';
import { handleStripeEvent } from '../../stripe/handle-stripe-event.js';

/** Stripe's default: a signature more than five minutes old is refused (replay protection). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export default async function stripeWebhookRoutes(
  app: FastifyInstance,
  options: { graceDays: number },
) {
  // The signature covers the exact bytes Stripe sent, so this route (and only this one) keeps the
  // body raw instead of parsing JSON.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: 1024 * 1024 },
    (_request, body, done) => done(null, body),
  );

  app.post<{ Body: Buffer }>(
    '/webhooks/stripe',
    {
      schema: {
        response: {
          200: Type.Object({ received: Type.Boolean() }),
          400: ErrorResponseSchema,
          503: ErrorResponseSchema,
        },
      },
      // Stripe's signature of the raw body, checked below: no hook before the body can.
      config: { access: 'stripe-signature', changesState: true },
    },
    async (request) => {
      const payments = app.requirePayments();
      const signature = request.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) {
        throw new HttpError(400, 'invalid_signature', 'Missing Stripe-Signature header or body.');
      }
      let event: Stripe.Event;
      try {
        event = payments.stripe.webhooks.constructEvent(
          request.body,
          signature,
          payments.webhookSecret,
          WEBHOOK_TOLERANCE_SECONDS,
        );
      } catch {
        app.metrics.webhookEvents.inc({ type: 'unknown', outcome: 'invalid_signature' });
        // Every event failing this means STRIPE_WEBHOOK_SECRET is not this endpoint's secret.
        request.log.warn(
          'Stripe webhook signature does not verify: if every event fails, STRIPE_WEBHOOK_SECRET is not the signing secret of the endpoint that sends them (each endpoint and each mode has its own)',
        );
        throw new HttpError(
          400,
          'invalid_signature',
          'The Stripe signature does not verify (or is too old).',
        );
      }
      const outcome = await handleStripeEvent(
        {
          ...payments,
          db: app.db,
          log: request.log,
          graceDays: options.graceDays,
          onGiving: () => app.giving.deliverSoon(),
        },
        event,
      ).catch((error: unknown) => {
        app.metrics.webhookEvents.inc({ type: event.type, outcome: 'failed' });
        if (error instanceof MalformedEventError) {
          throw new HttpError(400, 'invalid_event', 'The event is not shaped like a Stripe event.');
        }
        throw error;
      });
      app.metrics.webhookEvents.inc({ type: event.type, outcome });
      request.log.info({ eventId: event.id, type: event.type, outcome }, 'stripe event');
      return { received: true };
    },
  );
}

import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppConfig } from '../../config.js';

const ConfigResponseSchema = Type.Object({
  siteName: Type.String(),
  /** The public address: Stripe's return_url is built from it (PRODUCT decision 9). */
  siteUrl: Type.String(),
  paymentsEnabled: Type.Boolean(),
  stripePublishableKey: Type.Union([Type.String(), Type.Null()]),
  priceCents: Type.Integer(),
  currency: Type.String(),
  paywallDelayMs: Type.Integer(),
});

/** What the browser needs to know about this deployment, so one built client serves any of them. */
export default async function configRoutes(app: FastifyInstance, options: { config: AppConfig }) {
  const { config } = options;
  const body = {
    siteName: config.siteName,
    siteUrl: config.siteUrl,
    paymentsEnabled: config.stripe !== null,
    stripePublishableKey: config.stripe?.publishableKey ?? null,
    priceCents: config.membership.priceCents,
    currency: config.membership.currency,
    paywallDelayMs: config.paywallDelayMs,
  };
  app.get(
    '/api/config',
    { schema: { response: { 200: ConfigResponseSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return body;
    },
  );
}

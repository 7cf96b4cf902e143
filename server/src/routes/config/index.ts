import type { FastifyInstance } from 'fastify';
import { SiteConfigSchema, type SiteConfig } from '../../../../contract/api.js';
import type { AppConfig } from '../../config.js';

/** What the browser needs to know about this deployment, so one built client serves any of them. */
export default async function configRoutes(app: FastifyInstance, options: { config: AppConfig }) {
  const { config } = options;
  const body: SiteConfig = {
    siteName: config.siteName,
    siteUrl: config.siteUrl,
    paymentsEnabled: config.stripe !== null,
    stripePublishableKey: config.stripe?.publishableKey ?? null,
    priceCents: config.membership.priceCents,
    currency: config.membership.currency,
    paywallDelayMs: config.paywallDelayMs,
    social: config.social,
  };
  app.get(
    '/api/config',
    { schema: { response: { 200: SiteConfigSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return body;
    },
  );
}

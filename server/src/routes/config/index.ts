import type { FastifyInstance } from 'fastify';
import { SiteConfigSchema, type SiteConfig } from '../../../../contract/api.js';
import type { AppConfig } from '../../config.js';
import { FIRST_TIER_ID } from '../../memberships/derive-membership.js';
import { onSale } from '../../memberships/plan-catalog.js';
import { publicTiers } from '../../memberships/tier-catalog.js';

/** What the browser needs to know about this deployment, so one built client serves any of them. */
export default async function configRoutes(app: FastifyInstance, options: { config: AppConfig }) {
  const { config } = options;
  const fixed = {
    siteUrl: config.siteUrl,
    paymentsEnabled: config.stripe !== null,
    stripePublishableKey: config.stripe?.publishableKey ?? null,
    paywallDelayMs: config.paywallDelayMs,
    social: config.social,
  };
  app.get(
    '/api/config',
    {
      schema: { response: { 200: SiteConfigSchema } },
      config: { access: 'anyone', changesState: false },
    },
    async (_request, reply): Promise<SiteConfig> => {
      reply.header('cache-control', 'no-cache');
      const catalog = await app.plans.catalog();
      const rows = catalog.plans.get(FIRST_TIER_ID) ?? [];
      const plans = config.stripe ? onSale(rows) : [];
      const year =
        rows.find((row) => row.id === 'early-access' && row.enabled) ??
        rows.find((row) => row.id === 'yearly');
      return {
        // The publication's name now (the desk's settings), not the SITE_NAME it started with.
        siteName: app.siteContent.current().settings.title,
        ...fixed,
        priceCents: year?.amountCents ?? config.membership.priceCents,
        currency: year?.currency ?? config.membership.currency,
        plans,
        tiers: publicTiers(catalog, {
          selling: config.stripe !== null,
          currency: config.membership.currency,
        }),
      };
    },
  );
}

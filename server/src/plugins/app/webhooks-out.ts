import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { readPostRow } from '../../content/post-row.js';
import { adminGhostTiers, webhookPostJson } from '../../ghost-admin/admin-post-json.js';
import type { KeySecrets } from '../../integrations/integrations.js';
import {
  startWebhookDelivery,
  type WebhookDelivery,
  type WebhookTimings,
} from '../../webhooks/webhook-delivery.js';

const KICKING_PATHS = /^\/(ghost\/api\/admin|api\/(desk|auth|account))\//;

declare module 'fastify' {
  interface FastifyInstance {
    /** Integrations' webhooks out (webhooks/webhook-delivery.ts). */
    webhooks: WebhookDelivery;
  }
}

/**
 * Sends the events changes recorded (webhooks/webhook-events.ts) to integrations' webhooks, from
 * the job queue: at once after a change this server drew (the content moved, or a request wrote
 * one), and every few seconds for those another server recorded.
 */
export default fp(
  async function webhooksOut(
    app: FastifyInstance,
    options: {
      allowPrivate: boolean;
      siteUrl: string;
      secrets: KeySecrets;
      timings?: Partial<WebhookTimings>;
    },
  ) {
    const delivery = startWebhookDelivery(app.db.pool, app.jobs, {
      allowPrivate: options.allowPrivate,
      secrets: options.secrets,
      log: app.log,
      ...(options.timings && { timings: options.timings }),
      async renderPost(postId) {
        const row = await readPostRow(app.db.pool, postId);
        if (!row) return null;
        const site = {
          siteUrl: options.siteUrl,
          sectionSlugs: app.siteContent.current().sectionSlugs,
          tiers: adminGhostTiers(
            await app.plans.catalog(),
            options.siteUrl,
            app.config.membership.currency,
          ),
        };
        return webhookPostJson(app.db.pool, site, row);
      },
    });
    app.decorate('webhooks', delivery);
    app.siteContent.onChange(() => delivery.kick());
    // The requests that can add or delete a member (the Admin API, the desk, registration and
    // sign-in, an account's deletion): what they recorded leaves at once, not at the next look.
    app.addHook('onResponse', async (request) => {
      if (request.method === 'GET' || request.method === 'HEAD') return;
      if (KICKING_PATHS.test(request.url)) delivery.kick();
    });
    app.addHook('onClose', () => delivery.stop());
  },
  { name: 'webhooks-out', dependencies: ['site-content', 'job-queue', 'plans'] },
);

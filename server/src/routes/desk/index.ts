import { tmpdir } from 'node:os';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DeskStaffSchema } from '../../../../contract/desk-api.js';
import { changesAllowedUntil } from '../../staff/staff.js';
import { modeOfKey } from '../../stripe/key-check.js';
import deskAnalyticsRoutes from './analytics.js';
import deskCommentRoutes from './comments.js';
import { requireAccessDeclared } from './desk-access.js';
import { deskStaff } from './desk-staff.js';
import deskMailboxRoutes from './mailbox.js';
import membersAndMoney from './members-and-money.js';
import newsletterSendRoutes from './newsletter-send.js';
import deskPostRoutes from './posts.js';
import deskPostPreviewRoutes from './post-preview.js';
import deskAuthorRoutes from './authors.js';
import deskSectionRoutes from './sections.js';
import deskRedirectRoutes from './redirects.js';
import deskSettingsRoutes from './settings.js';
import deskSampleRoutes from './samples.js';
import deskUploadRoutes from './uploads.js';
import deskIntegrationRoutes from './integrations.js';
import deskStaffTokenRoutes from './staff-token.js';
import deskWebhookRoutes from './webhooks.js';
import { keySecretsOf } from '../../integrations/integrations.js';
import { siteNamed } from '../../http/site-named.js';

/**
 * The publisher's desk's API, registered under `/api/desk`. Its gate is the app's one access
 * hook (plugins/app/route-access.ts), before anything else of a request is looked at (its body,
 * its parameters): to anyone who is not staff, every address here answers what an unknown address
 * answers (404, same body, same headers), whatever way the path is spelled, since the hook belongs
 * to the routes the router found, not to the text of the URL. Then it holds the staff member to
 * what the route declares (`config: { access }`, one of desk-access.ts: every route here says who
 * may call it, or the app does not start) and puts them on the request, which every handler here
 * reads with `deskStaff(request)` (desk-staff.ts): none checks a role again. Staff answers are
 * never cached or indexed.
 */
const desk: FastifyPluginAsyncTypebox = async (app) => {
  const { config } = app;
  app.addHook('onRoute', requireAccessDeclared);
  app.addHook('onSend', async (request, reply) => {
    if (await request.getStaff().catch(() => null)) {
      void reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
    }
  });

  /** Who the staff member is and what they may do: the desk's first request. */
  app.get(
    '/me',
    { schema: { response: { 200: DeskStaffSchema } }, config: { access: 'staff' } },
    async (request) => {
      const staff = deskStaff(request);
      const until = changesAllowedUntil(staff);
      return {
        email: staff.email,
        role: staff.role,
        canChange: until !== null && until.getTime() > Date.now(),
        signedInAt: staff.signedInAt?.toISOString() ?? null,
        changesAllowedUntil: until?.toISOString() ?? null,
        paymentsEnabled: app.payments !== null,
        currency: config.membership.currency,
        mailbox: app.mailbox !== null,
      };
    },
  );

  // Their mails name the site as its settings do when each is sent.
  await app.register(
    deskPostRoutes,
    siteNamed(app, { publishers: [...config.staff.owners, ...config.staff.editors] }),
  );
  await app.register(deskPostPreviewRoutes);
  await app.register(deskSectionRoutes);
  await app.register(deskSettingsRoutes);
  await app.register(deskRedirectRoutes);
  await app.register(deskSampleRoutes, {
    samplePerks: app.perkCatalog
      .all()
      .filter((perk) => perk.sample)
      .map((perk) => perk.id),
  });
  await app.register(deskAuthorRoutes, { staff: config.staff });
  await app.register(deskUploadRoutes, {
    store: app.imageStore,
    maxBytes: {
      image: config.uploads.maxBytes,
      audio: config.uploads.audioMaxBytes,
      video: config.uploads.videoMaxBytes,
    },
    // Where the uploads are kept on disk, a file streams in beside them; with a bucket, in /tmp.
    stagingDir: config.uploads.s3 ? tmpdir() : config.uploads.dir,
  });
  await app.register(newsletterSendRoutes, {
    siteUrl: config.siteUrl,
    mailFrom: config.mailFrom,
    smtpUrl: config.smtpUrl,
    sessionSecret: config.sessionSecret,
    connections: config.newsletterConnections,
    tracking: config.newsletterTracking,
  });
  if (app.mailbox) await app.register(deskMailboxRoutes, { mailbox: app.mailbox });
  await app.register(deskCommentRoutes);
  await app.register(deskAnalyticsRoutes);
  await app.register(deskIntegrationRoutes, {
    siteUrl: config.siteUrl,
    secrets: keySecretsOf(config),
  });
  await app.register(deskStaffTokenRoutes, { secrets: keySecretsOf(config) });
  await app.register(deskWebhookRoutes, {
    allowPrivate: config.webhooksAllowPrivate,
    secrets: keySecretsOf(config),
  });
  await app.register(
    membersAndMoney,
    siteNamed(app, {
      currency: config.membership.currency,
      graceDays: config.membership.graceDays,
      perkTitles: new Map(
        app.perkCatalog.all().map((perk) => [perk.id, `${perk.partner}: ${perk.offer}`]),
      ),
      stripeMode: config.stripe ? modeOfKey(config.stripe.secretKey) : null,
    }),
  );
};

export default desk;

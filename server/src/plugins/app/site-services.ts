import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { contentDir, perkRedemptionsFile, perksContentDir, siteStylesheet } from '../../paths.js';
import { createCardReader, type CardReader } from '../../embeds/card-reader.js';
import type { OutboundRouting } from '../../embeds/outbound.js';
import { isMailboxOn } from '../../mail/mailbox.js';
import { senderNamed } from '../../mail/sender.js';
import { readPerkCatalog, type PerkCatalog } from '../../perks/catalog.js';
import { openImageStore, type ImageStore } from '../../uploads/image-store.js';
import analytics from './analytics-plugin.js';
import giving from './giving.js';
import jobQueue from './job-queue.js';
import mailer from './mailer.js';
import pageComments from './page-comments-plugin.js';
import postTrash from './post-trash-plugin.js';
import customRedirects from './redirects-plugin.js';
import payments from './payments.js';
import plans from './plans-plugin.js';
import siteSearch from './search.js';
import siteContent from './site-content-plugin.js';
import staff from './staff.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The partner perks and their codes (content/perks, perks/redemptions.json). */
    perkCatalog: PerkCatalog;
    /** Where uploaded images are kept (UPLOADS_DIR's folder, or S3). */
    imageStore: ImageStore;
    /** Reads what posts' card addresses say, when they are saved or imported (embeds/). */
    cardReader: CardReader;
  }
}

export interface SiteServicesOptions {
  /** The partner perks; read from content/perks and perks/redemptions.json unless given. */
  perkCatalog?: PerkCatalog;
  /** The content folder imported once into a new site (content/ unless given); null for none. */
  seedContentDir?: string | null;
  /** Where uploaded images are kept: UPLOADS_DIR's folder (or S3) unless given. */
  imageStore?: ImageStore;
  /** Tests only: where outbound requests go instead of the network (embeds/outbound.ts). */
  outboundRouting?: OutboundRouting;
}

/**
 * The site's services, each decorated once for every area: the job queue, staff, payments, plans,
 * mail, gifts and seats, the perks, uploaded images, the published content, its search and the
 * comments its pages draw.
 */
export default fp(
  async function siteServices(app: FastifyInstance, options: SiteServicesOptions) {
    const { config } = app;
    // First: the areas below and after define their queues on it, and it closes after them.
    await app.register(jobQueue);
    await app.register(staff, { staff: config.staff });
    await app.register(payments, { config });
    await app.register(plans, {
      defaults: {
        yearCents: config.membership.priceCents,
        monthCents: config.membership.monthlyPriceCents,
        currency: config.membership.currency,
        yearlyPriceId: config.stripe?.priceId ?? null,
      },
    });
    await app.register(mailer, {
      smtpUrl: config.smtpUrl,
      // Without MAIL_FROM, from the publication's title at each send (the desk may rename it).
      from: config.mailFromSet
        ? config.mailFrom
        : () => senderNamed(app.siteContent.current().settings.title),
      mailbox: isMailboxOn(config),
    });
    await app.register(giving, {
      siteUrl: config.siteUrl,
      graceDays: config.membership.graceDays,
    });

    const perkCatalog =
      options.perkCatalog ??
      (await readPerkCatalog({
        contentDir: perksContentDir,
        redemptionsFile: perkRedemptionsFile,
      }));
    app.decorate('perkCatalog', perkCatalog);
    app.decorate('imageStore', options.imageStore ?? openImageStore(config.uploads));
    app.decorate(
      'cardReader',
      createCardReader({
        pool: app.db.pool,
        imageStore: app.imageStore,
        maxImageBytes: config.uploads.maxBytes,
        outbound: {
          allowPrivate: config.outboundAllowPrivate,
          ...(options.outboundRouting && { routing: options.outboundRouting }),
        },
      }),
    );

    await app.register(siteContent, {
      seedDir: options.seedContentDir === undefined ? contentDir : options.seedContentDir,
      perks: perkCatalog.all().map(({ redemption: _redemption, ...perk }) => perk),
      cssFiles: [siteStylesheet],
      settingsSeed: { title: app.config.siteName, social: app.config.social },
      samples: { load: app.config.sampleContent, titleSet: app.config.siteNameSet },
      facts: { newsletterTracking: app.config.newsletterTracking },
    });
    await app.register(postTrash);
    await app.register(customRedirects);
    await app.register(siteSearch);
    await app.register(pageComments);
    await app.register(analytics);
  },
  { name: 'site-services', dependencies: ['foundation'] },
);

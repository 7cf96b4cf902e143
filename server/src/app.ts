import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { AppConfig } from './config.js';
import type { Database } from './db/database.js';
import {
  clientDistDir,
  contentDir,
  perkRedemptionsFile,
  perksContentDir,
  siteStylesheet,
  ssrDistDir,
} from './paths.js';
import newsletterIssueRoutes from './routes/newsletter/issues.js';
import { readPerkCatalog, type PerkCatalog } from './perks/catalog.js';
import perkRoutes from './routes/perks/index.js';
import newsletterRoutes from './routes/newsletter/index.js';
import clientAssets from './plugins/app/client-assets.js';
import database from './plugins/app/database.js';
import errorHandler from './plugins/app/error-handler.js';
import gracefulClose from './plugins/app/graceful-close.js';
import crossSiteGuard from './plugins/app/cross-site-guard.js';
import sessions from './plugins/app/sessions.js';
import cookie from './plugins/external/cookie.js';
import rateLimit from './plugins/external/rate-limit.js';
import healthRoutes from './routes/health/index.js';
import sessionRoutes from './routes/session/index.js';
import configRoutes from './routes/config/index.js';
import paymentRoutes from './routes/payments/index.js';
import stripeWebhookRoutes from './routes/webhooks/stripe.js';
import payments from './plugins/app/payments.js';
import mailer from './plugins/app/mailer.js';
import {
  clientErrorHandler,
  frameworkErrors,
  HTTP_TIMEOUTS,
  type HttpTimeouts,
} from './http/framework-errors.js';
import { requestIdOf, serializeRequest } from './http/request-log.js';
import metrics from './plugins/app/metrics.js';
import requestLog from './plugins/app/request-log.js';
import securityHeaders from './plugins/external/security-headers.js';
import authRoutes from './routes/auth/index.js';
import accountRoutes from './routes/account/index.js';
import passkeyRoutes from './routes/auth/passkeys.js';
import accountPaymentRoutes from './routes/account/payments.js';
import siteFileRoutes from './routes/site-files/index.js';
import giftRoutes from './routes/gifts/index.js';
import seatRoutes from './routes/seats/index.js';
import giving from './plugins/app/giving.js';
import plans from './plugins/app/plans.js';
import { openImageStore, type ImageStore } from './uploads/image-store.js';
import staff from './plugins/app/staff.js';
import desk from './routes/desk/index.js';
import uploadedImageRoutes from './routes/uploads/index.js';
import siteContent from './plugins/app/site-content.js';
import siteDataRoutes from './routes/site-data/index.js';
import searchRoutes from './routes/search/index.js';
import siteSearch from './plugins/app/search.js';
import { DESK_API, DESK_PATH } from '../../contract/constants.js';

export interface AppDependencies {
  database: Database;
  /** Where the built client lives; tests point it elsewhere. */
  clientDir?: string;
  /** Where the app built for Node lives (dist/ssr); tests point it elsewhere. */
  ssrDir?: string;
  /** The partner perks; read from content/perks and perks/redemptions.json unless given. */
  perkCatalog?: PerkCatalog;
  /**
   * The content folder imported once into a new site (content/ unless given); null for none.
   */
  seedContentDir?: string | null;
  /** Where uploaded images are kept: UPLOADS_DIR's folder unless given. */
  imageStore?: ImageStore;
  /** Header and request timeouts; tests shorten them. */
  httpTimeouts?: HttpTimeouts;
  /** Where log lines go (JSON, one a line); standard output unless given. Tests read them. */
  logStream?: { write(line: string): void; dropped?(): number };
}

/** Builds the whole app without listening, so tests can `inject` requests into it. */
export async function buildApp(
  config: AppConfig,
  dependencies: AppDependencies,
): Promise<FastifyInstance> {
  const timeouts = dependencies.httpTimeouts ?? HTTP_TIMEOUTS;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(dependencies.logStream && { stream: dependencies.logStream }),
      serializers: { req: serializeRequest },
      redact: [
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["stripe-signature"]',
      ],
    },
    // One line per request, written by plugins/app/request-log.ts.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestIdOf,
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    // A wrong body is a 400 with a message: no silent coercion of types, no silent dropping of
    // fields the schema does not know.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    // Keep-alive sockets would hold a graceful shutdown open: idle ones close at once, the others
    // once their response is sent (plugins/app/graceful-close.ts).
    forceCloseConnections: 'idle',
    // A request that arrives while closing is served (with `Connection: close`), not refused with a
    // 503: nginx would pass that 503 on, where a refused connection it retries on another replica.
    return503OnClosing: false,
    requestTimeout: timeouts.requestMs,
    http: {
      headersTimeout: timeouts.headersMs,
      // How often Node looks for connections past those limits (30 s by default).
      connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs),
    },
    frameworkErrors,
    clientErrorHandler,
  });

  if (!config.sessionSecret) throw new Error('buildApp needs config.sessionSecret');
  const sessionSecret = config.sessionSecret;
  for (const warning of config.warnings) app.log.warn(`configuration: ${warning}`);

  await app.register(gracefulClose);
  await app.register(requestLog);
  await app.register(errorHandler);
  await app.register(database, { database: dependencies.database });
  await app.register(metrics, {
    token: config.metricsToken,
    droppedLogLines: dependencies.logStream?.dropped,
  });
  await app.register(securityHeaders);
  await app.register(cookie);
  await app.register(rateLimit, { redisUrl: config.redisUrl });
  await app.register(crossSiteGuard, { siteUrl: config.siteUrl });
  await app.register(sessions, {
    secret: config.sessionSecret,
    previousSecret: config.sessionSecretPrevious,
  });

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
  await app.register(mailer, { smtpUrl: config.smtpUrl, from: config.mailFrom });
  await app.register(giving, {
    siteUrl: config.siteUrl,
    siteName: config.siteName,
    graceDays: config.membership.graceDays,
  });

  await app.register(healthRoutes);
  await app.register(configRoutes, { config });
  await app.register(paymentRoutes, { config });
  await app.register(seatRoutes, { siteName: config.siteName });
  await app.register(giftRoutes, {
    siteName: config.siteName,
    graceDays: config.membership.graceDays,
  });
  await app.register(stripeWebhookRoutes, { graceDays: config.membership.graceDays });
  await app.register(authRoutes, {
    siteUrl: config.siteUrl,
    siteName: config.siteName,
    loginRateLimit: config.loginRateLimit,
    accountRateLimit: config.accountRateLimit,
    graceDays: config.membership.graceDays,
  });
  await app.register(passkeyRoutes, {
    siteUrl: config.siteUrl,
    siteName: config.siteName,
    loginRateLimit: config.loginRateLimit,
    sessionRateLimit: config.sessionRateLimit,
    accountRateLimit: config.accountRateLimit,
    graceDays: config.membership.graceDays,
  });
  await app.register(accountRoutes, {
    accountRateLimit: config.accountRateLimit,
    siteUrl: config.siteUrl,
    siteName: config.siteName,
  });
  await app.register(accountPaymentRoutes);
  const imageStore = dependencies.imageStore ?? openImageStore(config.uploads);
  const perkCatalog =
    dependencies.perkCatalog ??
    (await readPerkCatalog({ contentDir: perksContentDir, redemptionsFile: perkRedemptionsFile }));
  await app.register(perkRoutes, { catalog: perkCatalog });
  await app.register(siteContent, {
    seedDir: dependencies.seedContentDir === undefined ? contentDir : dependencies.seedContentDir,
    perks: perkCatalog.all().map(({ redemption: _redemption, ...perk }) => perk),
    cssFiles: [siteStylesheet],
  });
  await app.register(desk, {
    prefix: DESK_API,
    config,
    sessionSecret,
    imageStore,
    perkTitles: new Map(
      perkCatalog.all().map((perk) => [perk.id, `${perk.partner}: ${perk.offer}`]),
    ),
  });
  await app.register(uploadedImageRoutes, { store: imageStore });
  await app.register(newsletterRoutes, {
    siteUrl: config.siteUrl,
    siteName: config.siteName,
    sessionSecret: config.sessionSecret,
    signUpRateLimit: config.newsletterRateLimit,
  });
  await app.register(newsletterIssueRoutes);
  await app.register(sessionRoutes, { sessionRateLimit: config.sessionRateLimit });
  await app.register(siteFileRoutes, { siteUrl: config.siteUrl, siteName: config.siteName });
  await app.register(siteDataRoutes);
  await app.register(siteSearch);
  await app.register(searchRoutes);
  await app.register(clientAssets, {
    dir: dependencies.clientDir ?? clientDistDir,
    ssrDir: dependencies.ssrDir ?? ssrDistDir,
    siteUrl: config.siteUrl,
    siteName: config.siteName,
    paymentsEnabled: config.stripe !== null,
    // The desk's pages exist for staff only: to anyone else, the not-found page and a 404.
    staffOnlyPrefix: DESK_PATH,
  });

  return app;
}

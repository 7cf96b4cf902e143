import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { DESK_API } from '../../contract/constants.js';
import type { AppConfig } from './config.js';
import type { Database } from './db/database.js';
import {
  clientErrorHandler,
  frameworkErrors,
  HTTP_TIMEOUTS,
  type HttpTimeouts,
} from './http/framework-errors.js';
import { requestIdOf, serializeRequest } from './http/request-log.js';
import { schemaController } from './http/schema-compilers.js';
import { clientDistDir, ssrDistDir } from './paths.js';
import type { PerkCatalog } from './perks/catalog.js';
import clientAssets from './plugins/app/client-assets.js';
import commentsPlugin from './plugins/app/comments-plugin.js';
import configPlugin from './plugins/app/config.js';
import foundation from './plugins/app/foundation.js';
import sitePages from './plugins/app/site-pages-plugin.js';
import siteServices from './plugins/app/site-services.js';
import accounts from './routes/accounts.js';
import desk from './routes/desk/index.js';
import ghostApi, { GHOST_API_PREFIX } from './routes/ghost-api/index.js';
import ghostAdminRoutes from './routes/ghost-admin/index.js';
import webhooksOut from './plugins/app/webhooks-out.js';
import { keySecretsOf } from './integrations/integrations.js';
import money from './routes/money.js';
import publicSite from './routes/public-site.js';
import stripeWebhookRoutes from './routes/webhooks/stripe.js';
import type { ImageStore } from './uploads/image-store.js';
import type { OutboundRouting } from './embeds/outbound.js';

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
  /**
   * Tests only, never from the environment: where outbound requests (cards' pages and providers)
   * go instead of the network (embeds/outbound.ts).
   */
  outboundRouting?: OutboundRouting;
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
    // Compiled once for the process, not once for each app (http/schema-compilers.ts).
    schemaController,
    // Keep-alive sockets would hold a graceful shutdown open: idle ones close at once, the others
    // once their response is sent (plugins/app/graceful-close.ts).
    forceCloseConnections: 'idle',
    // The app is ready once it has read the site (and, on a first start, imported the shipped
    // posts): on a slow or busy machine that takes more than Fastify's 10 s, which would stop it.
    pluginTimeout: 120_000,
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

  const { sessionSecret } = config;
  if (!sessionSecret) throw new Error('buildApp needs config.sessionSecret');
  for (const warning of config.warnings) app.log.warn(`configuration: ${warning}`);

  // The validated configuration, once; what every request goes through; the site's services.
  await app.register(configPlugin, { config: { ...config, sessionSecret } });
  await app.register(foundation, {
    database: dependencies.database,
    droppedLogLines: dependencies.logStream?.dropped,
  });
  await app.register(siteServices, {
    perkCatalog: dependencies.perkCatalog,
    seedContentDir: dependencies.seedContentDir,
    imageStore: dependencies.imageStore,
    outboundRouting: dependencies.outboundRouting,
  });
  // Comments under posts: their rules, the reader behind a request, their mail queue.
  await app.register(commentsPlugin);
  // The pages, drawn from the published content with the client's server build.
  await app.register(sitePages, {
    clientDir: dependencies.clientDir ?? clientDistDir,
    ssrDir: dependencies.ssrDir ?? ssrDistDir,
    siteUrl: config.siteUrl,
    paymentsEnabled: config.stripe !== null,
  });

  // The areas, each registering its own routes.
  await app.register(publicSite);
  await app.register(accounts);
  await app.register(money);
  await app.register(stripeWebhookRoutes, { graceDays: config.membership.graceDays });
  await app.register(desk, { prefix: DESK_API });
  // Ghost's Content API, read with an integration's key (docs/ghost-api.md).
  await app.register(ghostApi, { prefix: GHOST_API_PREFIX });
  // Ghost's Admin API (docs/ghost-api.md), and the webhooks out its integrations ask for.
  await app.register(webhooksOut, {
    allowPrivate: config.webhooksAllowPrivate,
    siteUrl: config.siteUrl,
    secrets: keySecretsOf(config),
  });
  await app.register(ghostAdminRoutes, {
    prefix: '/ghost/api/admin',
    siteUrl: config.siteUrl,
    staff: config.staff,
    secrets: config,
    maxUploadBytes: config.uploads.maxBytes,
  });

  // The built client's files.
  await app.register(clientAssets, { dir: dependencies.clientDir ?? clientDistDir });

  return app;
}

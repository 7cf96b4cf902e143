import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../../db/database.js';
import cookie from '../external/cookie.js';
import rateLimit from '../external/rate-limit.js';
import securityHeaders from '../external/security-headers.js';
import crossSiteGuard from './cross-site-guard.js';
import database from './database.js';
import errorHandler from './error-handler.js';
import gracefulClose from './graceful-close.js';
import metrics from './metrics.js';
import requestLog from './request-log.js';
import routeAccess, { declaredRoutes } from './route-access.js';
import sessions from './sessions.js';

export interface FoundationOptions {
  database: Database;
  /** How many log lines the log's destination dropped (for /metrics). */
  droppedLogLines?: () => number;
}

/**
 * What every request goes through, whatever it asks for: shutdown, the request log, the one error
 * handler, the database, metrics, the security headers, cookies, rate limits, the cross-site guard,
 * the session, and who may call each route (route-access.ts).
 */
export default fp(
  async function foundation(app: FastifyInstance, options: FoundationOptions) {
    const { config } = app;
    // First: it sees every route the app adds, and the app starts only if each declares its rules.
    await app.register(declaredRoutes);
    await app.register(gracefulClose);
    await app.register(requestLog);
    await app.register(errorHandler);
    await app.register(database, { database: options.database });
    await app.register(metrics, { droppedLogLines: options.droppedLogLines });
    await app.register(securityHeaders);
    await app.register(cookie);
    await app.register(rateLimit, { redisUrl: config.redisUrl, limits: config.limits });
    await app.register(crossSiteGuard, { siteUrl: config.siteUrl });
    await app.register(sessions, {
      secret: config.sessionSecret,
      previousSecret: config.sessionSecretPrevious,
    });
    await app.register(routeAccess);
  },
  { name: 'foundation', dependencies: ['config'] },
);

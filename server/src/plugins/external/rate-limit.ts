import rateLimit from '@fastify/rate-limit';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { HttpError } from '../../http/errors.js';
import type { LimitName, Limits } from '../../limits.js';

const CONNECT_TIMEOUT_MS = 3_000;
/**
 * The longest a request waits on one Redis command. A Redis that stops answering (a stalled
 * network) then costs a request half a second, not the 12 s it took ioredis to give up.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/** How often the app asks Redis whether it answers, to tell the operator when it stops. */
const REDIS_WATCH_INTERVAL_MS = 5_000;

export interface RateLimitingOptions {
  /**
   * With a Redis server the counters live there, so every app server behind the proxy enforces one
   * limit; without one, each process counts on its own. Connection options can ride in the URL's
   * query string (`?keyPrefix=cohort:` when several sites share one Redis).
   */
  redisUrl?: string;
  /** The limits table (limits.ts) with the operator's maxes: `app.config.limits`. */
  limits: Limits;
}

/**
 * Per-client-IP rate limits, opted into route by route with a name from the limits table
 * (`config: { limit: 'login' }`). Behind nginx the client IP comes from X-Forwarded-For, trusted
 * only from the configured proxy.
 */
declare module 'fastify' {
  interface FastifyInstance {
    /** The Redis the rate limits count in (REDIS_URL), for other shared counters; else null. */
    sharedRedis: Redis | null;
  }
  interface FastifyContextConfig {
    /** The route's rate limit: a row of LIMITS (limits.ts). Routes without one are not limited. */
    limit?: LimitName;
  }
}

export default fp(
  async function rateLimiting(app: FastifyInstance, options: RateLimitingOptions) {
    const redis = options.redisUrl ? await connectRedis(app, options.redisUrl) : undefined;
    app.decorate('sharedRedis', redis ?? null);

    // Runs before @fastify/rate-limit's own onRoute hook (added when it registers, below), which
    // reads the settings this one puts in. A name not in the table, or settings written on the
    // route itself, stop the app from starting: a limit is only ever one of the table's rows.
    app.addHook('onRoute', (route) => {
      const config: FastifyContextConfig = route.config ?? {};
      if (config.rateLimit !== undefined) {
        throw new Error(
          `${String(route.method)} ${route.url}: a route names its rate limit (config.limit), a row of LIMITS in server/src/limits.ts`,
        );
      }
      if (config.limit === undefined) return;
      if (!Object.hasOwn(options.limits, config.limit)) {
        throw new Error(
          `${String(route.method)} ${route.url}: no rate limit "${config.limit}" in LIMITS (server/src/limits.ts)`,
        );
      }
      // A new object: Fastify copies a GET route's options for its HEAD route before this runs.
      route.config = { ...config, rateLimit: { ...options.limits[config.limit] } };
    });

    await app.register(rateLimit, {
      global: false,
      ...(redis && {
        redis,
        nameSpace: 'cohort-rate-limit:',
        // Redis down: let requests through rather than fail them. nginx's own limits still hold,
        // and a rate limit is not worth an outage.
        skipOnError: true,
      }),
      errorResponseBuilder: (_request, context) =>
        new HttpError(
          context.statusCode,
          'rate_limited',
          `Too many requests: try again in ${context.after}.`,
        ),
    });
  },
  { name: 'rate-limit' },
);

/** A Redis client, connected if Redis answers within a few seconds (the app starts either way). */
async function connectRedis(app: FastifyInstance, url: string): Promise<Redis> {
  const redis = new Redis(url, {
    connectionName: 'cohort-rate-limit',
    // Fail a command at once while the connection is down (the limiter then skips it) instead of
    // holding the request until Redis is back.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  });
  let reportedDown = false;
  redis.on('error', (error: Error) => {
    // ioredis retries on its own and emits an error for each failed attempt: log the first.
    if (!reportedDown) app.log.error({ err: error }, 'rate-limit Redis is unreachable');
    reportedDown = true;
  });
  redis.on('ready', () => {
    if (reportedDown) app.log.info('rate-limit Redis is reachable again');
    reportedDown = false;
  });
  // A connection can stay up while Redis answers nothing: commands then time out and are skipped
  // (fail open). Say so once when it starts and once when it ends.
  let answering = true;
  const watch = setInterval(() => {
    redis.ping().then(
      () => {
        if (!answering)
          app.log.info('Redis answers again: rate limits and sign-in counters are back');
        answering = true;
      },
      (error: unknown) => {
        if (answering) {
          app.log.warn(
            { err: error },
            `Redis is not answering within ${REDIS_COMMAND_TIMEOUT_MS} ms: rate limits and sign-in counters are skipped until it does`,
          );
        }
        answering = false;
      },
    );
  }, REDIS_WATCH_INTERVAL_MS);
  watch.unref();
  app.addHook('onClose', async () => {
    clearInterval(watch);
    await redis.quit().catch(() => redis.disconnect());
  });
  await new Promise<void>((resolve) => {
    const timer = setTimeout(ready, CONNECT_TIMEOUT_MS);
    function ready() {
      clearTimeout(timer);
      redis.off('ready', ready);
      resolve();
    }
    redis.on('ready', ready);
  });
  return redis;
}

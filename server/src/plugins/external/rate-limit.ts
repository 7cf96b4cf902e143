import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../../http/errors.js';

/**
 * Per-client-IP rate limits, opted into route by route (`config.rateLimit`). Behind nginx the
 * client IP comes from X-Forwarded-For, trusted only from the configured proxy.
 */
export default fp(
  async function rateLimiting(app: FastifyInstance) {
    await app.register(rateLimit, {
      global: false,
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

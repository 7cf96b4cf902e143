import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * One log line per request, once it is answered: method, path (query redacted), status, time and
 * the request id, which every answer also carries in `X-Request-Id` (Fastify's own two lines per
 * request are off: app.ts).
 */
export default fp(
  async function requestLog(app: FastifyInstance) {
    app.addHook('onRequest', async (request, reply) => {
      void reply.header('x-request-id', request.id);
    });
    app.addHook('onResponse', async (request, reply) => {
      request.log.info(
        { req: request, res: reply, responseTime: Math.round(reply.elapsedTime * 10) / 10 },
        'request completed',
      );
    });
  },
  { name: 'request-log' },
);

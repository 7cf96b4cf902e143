import type { FastifyInstance } from 'fastify';
import { isDatabaseReady } from '../../db/database.js';
import { errorBody } from '../../http/errors.js';

export default async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));

  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    if (await isDatabaseReady(app.db.pool)) return { status: 'ready' };
    return reply
      .code(503)
      .send(errorBody('database_unavailable', 'The database is not answering.'));
  });
}

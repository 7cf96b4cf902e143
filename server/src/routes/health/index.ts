import type { FastifyInstance } from 'fastify';
import { isDatabaseReady } from '../../db/database.js';
import { errorBody } from '../../http/errors.js';

export default async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));

  /**
   * Ready while the database answers. Payments are reported beside it but never make the site
   * unready: the content is served whatever Stripe thinks of the keys.
   */
  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    if (!(await isDatabaseReady(app.db.pool))) {
      return reply
        .code(503)
        .send(errorBody('database_unavailable', 'The database is not answering.'));
    }
    return {
      status: 'ready',
      payments: app.payments ? app.payments.status.view() : { state: 'off' },
    };
  });
}

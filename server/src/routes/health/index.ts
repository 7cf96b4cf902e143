import type { FastifyInstance } from 'fastify';
import { isDatabaseReady } from '../../db/database.js';
import { errorBody } from '../../http/errors.js';

/**
 * Database checks in a row that must fail before /healthz says this process is unhealthy: a blip
 * restarts nothing, a database that stays silent to this process (its connections stuck, say)
 * gets it restarted by Docker or Kubernetes.
 */
export const UNHEALTHY_AFTER_FAILED_CHECKS = 3;

export default async function healthRoutes(app: FastifyInstance) {
  let failedChecks = 0;
  async function checkDatabase(): Promise<boolean> {
    const ready = await isDatabaseReady(app.db.pool);
    failedChecks = ready ? 0 : failedChecks + 1;
    return ready;
  }

  /** Alive unless the database has failed several checks in a row. */
  app.get(
    '/healthz',
    { logLevel: 'warn', config: { access: 'anyone', changesState: false } },
    async (_request, reply) => {
      if (await checkDatabase()) return { status: 'ok' };
      if (failedChecks < UNHEALTHY_AFTER_FAILED_CHECKS) return { status: 'ok' };
      app.log.error(`the database has failed ${failedChecks} health checks in a row`);
      return reply
        .code(503)
        .send(
          errorBody(
            'database_unavailable',
            `The database has not answered ${failedChecks} checks in a row.`,
          ),
        );
    },
  );

  /**
   * Ready while the database answers. Payments are reported beside it but never make the site
   * unready: the content is served whatever Stripe thinks of the keys.
   */
  app.get(
    '/readyz',
    { logLevel: 'warn', config: { access: 'anyone', changesState: false } },
    async (_request, reply) => {
      if (!(await checkDatabase())) {
        return reply
          .code(503)
          .send(errorBody('database_unavailable', 'The database is not answering.'));
      }
      return {
        status: 'ready',
        payments: app.payments ? app.payments.status.view() : { state: 'off' },
      };
    },
  );
}

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createJobQueue, type JobQueue } from '../../jobs/job-queue.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one job queue the areas define theirs with (jobs/job-queue.ts). */
    jobs: JobQueue;
  }
}

/**
 * The job queue, once for the app: pg-boss starts with the first queue an area uses, never while
 * the app is built (the server applies the migrations after building it). Registered after the
 * database and before the areas: Fastify closes in the reverse order, so each area stops adding
 * jobs first, then this waits for the jobs in hand, then the database's pool closes.
 */
export default fp(
  async function jobQueue(app: FastifyInstance) {
    const jobs = createJobQueue(app.db.pool, {
      log: (error) => app.log.error({ err: error }, 'the job queue failed'),
    });
    app.decorate('jobs', jobs);
    app.addHook('onClose', async () => jobs.stop());
  },
  { name: 'job-queue', dependencies: ['database'] },
);

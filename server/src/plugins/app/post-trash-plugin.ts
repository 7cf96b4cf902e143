import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createTrashPurge, type TrashPurge } from '../../content/post-trash.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Trash's purge on the job queue (content/post-trash.ts). */
    postTrash: TrashPurge;
  }
}

/**
 * Deleted posts' purge, TRASH_DAYS after their deletion, on the one job queue: what a stopped site
 * left due is purged once the site is ready; a purge makes the site read its content again.
 */
export default fp(
  async function postTrash(app: FastifyInstance) {
    const trash = createTrashPurge(app.db.pool, app.jobs, {
      onPurged: () => void app.siteContent.refresh(),
      log: (error) => app.log.error({ err: error }, 'could not purge the Trash'),
    });
    app.decorate('postTrash', trash);
    app.addHook('onReady', async () => {
      await trash.start();
    });
    app.addHook('onClose', async () => trash.stop());
  },
  { name: 'post-trash', dependencies: ['job-queue', 'site-content'] },
);

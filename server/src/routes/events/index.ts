import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EVENTS_PATH, PageviewEventSchema } from '../../../../contract/analytics.js';

/**
 * The site's pages report each view here (docs/analytics.md): 202, with no body, whether or not
 * it is counted, so a page learns nothing from the answer; only a body that is not an event is a
 * 400, and an address over its limit (`events` in limits.ts) a 429. A view that cannot be counted now (the database away)
 * is logged, never the reader's error.
 */
const eventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    EVENTS_PATH,
    {
      schema: { body: PageviewEventSchema },
      config: { access: 'anyone', changesState: true, limit: 'events' },
    },
    async (request, reply) => {
      await app.analytics
        .countView(request, request.body)
        .catch((error: unknown) => request.log.error({ err: error }, 'could not count a view'));
      return reply.code(202).header('cache-control', 'no-store').send();
    },
  );
};

export default eventRoutes;

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EVENTS_PATH, PageviewEventSchema } from '../../../../contract/analytics.js';

/**
 * Views one client address may report a minute (docs/analytics.md#limits), counted across the app
 * servers in Redis when there is one. A reader sends one a page, so this is a household or an
 * office behind one address reading two pages a second between them; past it the answer is 429
 * and nothing is counted, which bounds the "visitors" one address can make by changing its user
 * agent. nginx's cohort_events zone, looser, stops a flood before it reaches the app.
 */
export const EVENTS_PER_ADDRESS_PER_MINUTE = 120;

export interface EventRouteOptions {
  /** POST /api/events per client IP per minute: EVENTS_PER_ADDRESS_PER_MINUTE unless told. */
  eventsRateLimit?: number;
}

/**
 * The site's pages report each view here (docs/analytics.md): 202, with no body, whether or not
 * it is counted, so a page learns nothing from the answer; only a body that is not an event is a
 * 400, and an address over its limit a 429. A view that cannot be counted now (the database away)
 * is logged, never the reader's error.
 */
const eventRoutes: FastifyPluginAsyncTypebox<EventRouteOptions> = async (app, options) => {
  const max = options.eventsRateLimit ?? EVENTS_PER_ADDRESS_PER_MINUTE;
  app.post(
    EVENTS_PATH,
    {
      schema: { body: PageviewEventSchema },
      config: { rateLimit: { max, timeWindow: '1 minute' } },
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

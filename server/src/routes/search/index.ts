import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { MAX_SEARCH_LIMIT, SEARCH_API } from '../../../../contract/search.js';

/**
 * GET /api/search?q=&limit=: what the search page shows (contract/search.ts), as JSON. Results
 * change as posts are published: revalidated on every use.
 */
const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    SEARCH_API,
    {
      schema: {
        querystring: Type.Object({
          // Any length is read, so that a long query gets the search's own message.
          q: Type.String(),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SEARCH_LIMIT })),
        }),
      },
    },
    async (request, reply) => {
      const results = await app.siteSearch.find(request.query.q, request.query.limit);
      return reply.header('cache-control', 'no-cache').send(results);
    },
  );
};

export default searchRoutes;

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { MAX_SEARCH_LIMIT, SEARCH_API } from '../../../../contract/search.js';
import { HttpError } from '../../http/errors.js';

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
          limit: Type.Optional(Type.String({ maxLength: 10 })),
        }),
      },
      config: { access: 'anyone', changesState: false },
    },
    async (request, reply) => {
      const { limit } = request.query;
      const count = limit === undefined ? undefined : Number(limit);
      if (
        count !== undefined &&
        !(Number.isInteger(count) && count >= 1 && count <= MAX_SEARCH_LIMIT)
      ) {
        throw new HttpError(
          400,
          'invalid_request',
          `limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT}.`,
        );
      }
      const results = await app.siteSearch.find(request.query.q, count);
      return reply.header('cache-control', 'no-cache').send(results);
    },
  );
};

export default searchRoutes;

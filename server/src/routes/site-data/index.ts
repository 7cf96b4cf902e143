import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { SITE_DATA_PATH } from '../../../../contract/site-data.js';
import { siteDataFor } from '../../content/site-data.js';

/**
 * What a screen draws (contract/site-data.ts), for the reader moving to it in the browser: the
 * same content the server would have put into that page. Revalidated on every use, like pages.
 */
const siteDataRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    SITE_DATA_PATH,
    {
      schema: {
        querystring: Type.Object({ path: Type.String({ pattern: '^/', maxLength: 300 }) }),
      },
    },
    async (request, reply) => {
      const data = siteDataFor(app.siteContent.current(), request.query.path.split('?')[0] ?? '/');
      return reply.header('cache-control', 'no-cache').send(data);
    },
  );
};

export default siteDataRoutes;

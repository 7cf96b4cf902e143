import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { SITE_DATA_PATH } from '../../../../contract/site-data.js';
import { VISITOR } from '../../../../contract/reading.js';
import { readerOf } from '../../content/readers.js';
import { rulesOnScreen, screenReader, siteDataFor } from '../../content/site-data.js';

/**
 * What a screen draws (contract/site-data.ts), for the reader moving to it in the browser: the
 * same content the server would have put into that page, with the navigation. Revalidated on
 * every use, like pages; a restricted post's whole body only to a reader who may read it.
 */
const siteDataRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    SITE_DATA_PATH,
    {
      schema: {
        querystring: Type.Object({ path: Type.String({ pattern: '^/', maxLength: 300 }) }),
      },
      config: { access: 'anyone', changesState: false },
    },
    async (request, reply) => {
      const content = app.siteContent.current();
      const path = request.query.path.split('?')[0] ?? '/';
      // The navigation and the settings come with every screen: a menu or a look changed in the
      // desk shows at the next move.
      const { navigation, settings } = content;
      // The comments under its posts, as its page draws them (site/page-comments.ts).
      const said = await app.pageComments.forPage(content, path);
      const comments = said && { comments: said.comments };
      if (rulesOnScreen(content, path).length === 0) {
        return reply
          .header('cache-control', 'no-cache')
          .send({ navigation, settings, ...siteDataFor(content, path), ...comments });
      }
      // A restricted post: whole for a reader who may read it (their browser's alone), else its
      // opening, as a visitor reads it.
      const reader = screenReader(content, path, await readerOf(request));
      return reply
        .header('cache-control', reader === VISITOR ? 'no-cache' : 'private, no-store')
        .header('vary', 'Cookie')
        .send({ navigation, settings, ...siteDataFor(content, path, reader), ...comments });
    },
  );
};

export default siteDataRoutes;

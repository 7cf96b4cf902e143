import type { FastifyPluginAsync } from 'fastify';
import { notFound } from '../../ghost-api/ghost-error.js';
import { answerErrorsAsGhost, ghostErrorBody } from '../../http/ghost-errors.js';
import { describeError } from '../../plugins/app/error-handler.js';
import ghostContentRoutes from './content.js';

/** Where Ghost's APIs are, as Ghost's clients build their addresses. */
export const GHOST_API_PREFIX = '/ghost/api';

/** The Content API's prefixes: today's, and the versioned ones older clients (v2 to v4) use. */
const CONTENT_PREFIXES = [
  '/content',
  '/v2/content',
  '/v3/content',
  '/v4/content',
  '/canary/content',
];

/** The version this site answers as (`Content-Version`): Ghost 5's API. */
export const GHOST_API_VERSION = 'v5.0';

/**
 * Ghost's APIs (docs/ghost-api.md), under `/ghost/api`: the Content API at `content/` (read with
 * an integration's content key). Every answer here, errors (written by the one error handler) and
 * unknown addresses too, is in Ghost's shape, since Ghost's clients read only that, and carries
 * `Content-Version`. Ghost's addresses end with a slash and are answered as they are: the site's
 * rule that redirects such paths (routes/pages) is for pages, and never sees these.
 */
const ghostApi: FastifyPluginAsync = async (app) => {
  app.addHook('onSend', async (_request, reply) => {
    void reply.header('content-version', GHOST_API_VERSION);
  });

  answerErrorsAsGhost(app);

  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send(
        ghostErrorBody(
          describeError(
            notFound(`Resource not found: ${request.method} ${request.url.split('?')[0] ?? ''}`),
          ),
        ),
      ),
  );

  for (const prefix of CONTENT_PREFIXES) {
    await app.register(ghostContentRoutes, { prefix });
  }
};

export default ghostApi;

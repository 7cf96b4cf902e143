import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyPluginAsync, FastifyReply } from 'fastify';
import { DomainError } from '../../domain-error.js';
import { GhostError, ghostTypeOfStatus } from '../../ghost-api/ghost-error.js';
import { HttpError } from '../../http/errors.js';
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

/** An error in Ghost's shape: `{errors: [{message, type, context, …}]}`. */
export function sendGhostError(
  reply: FastifyReply,
  status: number,
  type: string,
  message: string,
  context: string | null = null,
) {
  return reply.code(status).send({
    errors: [
      {
        message,
        context,
        type,
        details: null,
        property: null,
        help: null,
        code: null,
        id: randomUUID(),
      },
    ],
  });
}

/**
 * Ghost's APIs (docs/ghost-api.md), under `/ghost/api`: the Content API at `content/` (read with
 * an integration's content key). Every answer here, errors and unknown addresses too, is in
 * Ghost's shape, since Ghost's clients read only that, and carries `Content-Version`. Ghost's
 * addresses end with a slash and are answered as they are: the site's rule that redirects such
 * paths (plugins/app/client-assets.ts) is for pages, and never sees these.
 */
const ghostApi: FastifyPluginAsync = async (app) => {
  app.addHook('onSend', async (_request, reply) => {
    void reply.header('content-version', GHOST_API_VERSION);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof GhostError) {
      return sendGhostError(reply, error.status, error.type, error.message, error.context);
    }
    if (error instanceof DomainError) {
      return sendGhostError(reply, error.status, ghostTypeOfStatus(error.status), error.message);
    }
    if (error instanceof HttpError) {
      return sendGhostError(
        reply,
        error.statusCode,
        ghostTypeOfStatus(error.statusCode),
        error.message,
      );
    }
    const status = error.statusCode ?? 500;
    if (error.validation || (status >= 400 && status < 500)) {
      const code = error.validation ? 400 : status;
      return sendGhostError(reply, code, ghostTypeOfStatus(code), error.message);
    }
    request.log.error({ err: error }, 'Ghost API request failed');
    return sendGhostError(
      reply,
      status === 503 ? 503 : 500,
      'InternalServerError',
      'Something went wrong on our side. Please try again.',
    );
  });

  app.setNotFoundHandler((request, reply) =>
    sendGhostError(
      reply,
      404,
      'NotFoundError',
      `Resource not found: ${request.method} ${request.url.split('?')[0] ?? ''}`,
    ),
  );

  for (const prefix of CONTENT_PREFIXES) {
    await app.register(ghostContentRoutes, { prefix });
  }
};

export default ghostApi;

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { errorBody } from '../../http/errors.js';
import { SERVER_PATHS } from '../../../../contract/constants.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const SHORT = 'public, max-age=3600';

/** Paths the server answers itself: an unknown one is a JSON 404, never the client's page. */
const isServerPath = (path: string) =>
  SERVER_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/**
 * Serves the built client: hashed files under /assets/ cached for a year, everything else
 * revalidated, and index.html for every client route so the router can draw it.
 */
export default fp(
  async function clientAssets(app: FastifyInstance, options: { dir: string }) {
    const indexPath = join(options.dir, 'index.html');
    const indexHtml = existsSync(indexPath) ? readFileSync(indexPath) : null;

    if (indexHtml) {
      await app.register(fastifyStatic, {
        root: options.dir,
        wildcard: false,
        index: false,
        cacheControl: false,
        setHeaders(res, path) {
          res.header('cache-control', path.includes('/assets/') ? IMMUTABLE : SHORT);
        },
      });
    } else {
      app.log.warn(`No built client in ${options.dir}: run \`npm run build\` to serve the site.`);
    }

    function sendIndex(reply: FastifyReply) {
      return reply
        .code(200)
        .header('cache-control', REVALIDATE)
        .type('text/html; charset=utf-8')
        .send(indexHtml);
    }

    app.get('/', (_request, reply) => {
      if (indexHtml) return sendIndex(reply);
      return reply
        .code(503)
        .type('text/plain')
        .send('The client is not built: run `npm run build`.');
    });

    app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split('?')[0] ?? '/';
      const wantsPage =
        (request.method === 'GET' || request.method === 'HEAD') &&
        !isServerPath(path) &&
        !/\.[a-z0-9]+$/i.test(path) &&
        indexHtml !== null;
      if (wantsPage) return sendIndex(reply);
      return reply
        .code(404)
        .send(errorBody('not_found', `No such resource: ${request.method} ${path}`));
    });
  },
  { name: 'client-assets' },
);

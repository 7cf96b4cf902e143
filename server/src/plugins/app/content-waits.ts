import type { FastifyInstance } from 'fastify';
import { collectContentChanges, type AnnouncedChanges } from '../../content/content-changes.js';
import { errorBody } from '../../http/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route may change what the site shows (a post, a topic, a section, a byline, the keys
     * the content is read with): its answer leaves once this server draws the change.
     */
    changesContent?: boolean;
  }
  interface FastifyRequest {
    /** The content changes the request's handler announced (`contentChanged`); null before it. */
    contentChanges: AnnouncedChanges | null;
  }
}

/**
 * The content wait, declared rather than remembered (docs/decisions/0021-content-generation.md),
 * as Ghost's endpoints declare `cacheInvalidate`: a route that changes what the site shows says
 * so (`config: { changesContent: true }`); every `contentChanged` its handler's writes make is
 * noted for the request; and one hook holds the answer until this server draws the highest
 * generation noted (`siteContent.waitFor`). A route that announced a
 * change without saying so is a mistake in the code: outside production its answer is a 500 that
 * names it, so any test of the route fails; in production it is logged, and waited for all the same.
 */
export function waitForAnnouncedChanges(app: FastifyInstance, options: { production: boolean }) {
  app.decorateRequest('contentChanges', null);
  // Right before the handler, its body read: the handler and all it starts run inside this.
  app.addHook('preHandler', (request, _reply, done) => {
    const changes: AnnouncedChanges = { highest: null };
    request.contentChanges = changes;
    collectContentChanges(changes, done);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const generation = request.contentChanges?.highest ?? null;
    if (generation === null) return payload;
    await app.siteContent.waitFor(generation);
    if (request.routeOptions.config.changesContent) return payload;
    const message = `${request.method} ${request.routeOptions.url ?? request.url} changed the site's content without declaring it (config: { changesContent: true })`;
    request.log.error(message);
    if (options.production) return payload;
    void reply.code(500).type('application/json; charset=utf-8');
    return JSON.stringify(errorBody('undeclared_content_change', message));
  });
}

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DESK_API } from '../../../../contract/constants.js';
import { COMMENTS_CHANNEL } from '../../comments/comment-store.js';
import { PageComments } from '../../site/page-comments.js';
import { listenForChanges } from './listen-for-changes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The comments drawn into pages, kept per post until they change (site/page-comments.ts). */
    pageComments: PageComments;
  }
}

/** The routes whose writes change comments (contract/comments.ts), by the start of their path. */
const CHANGING_ROUTES = [
  '/api/posts/:postId/comments',
  '/api/comments/',
  `${DESK_API}/comments/`,
  `${DESK_API}/commenters/`,
];

/** How often a server that cannot LISTEN (behind PgBouncer) asks whether kept comments moved. */
export const COMMENTS_POLL_MS = 1_000;

/**
 * Keeps the comments the pages draw fresh on every app server: LISTENs for the notice each change
 * of a post's comments sends (comments/comment-store.ts), or, where LISTEN is not possible,
 * asks for the versions of the posts it keeps every second, as the content does
 * (docs/decisions/0021-content-generation.md).
 */
export default fp(
  async function pageComments(app: FastifyInstance) {
    const comments = new PageComments(app.db.pool, app.config.comments.who !== 'off');
    app.decorate('pageComments', comments);
    if (app.config.comments.who === 'off') return;

    const check = () =>
      comments
        .checkKept()
        .catch((error: unknown) => app.log.warn({ err: error }, 'could not check comments'));
    const changes = listenForChanges(app, {
      channel: COMMENTS_CHANNEL,
      what: 'comments',
      onNotice(payload) {
        const postId = Number(payload.split(':')[0]);
        if (Number.isInteger(postId) && postId > 0) comments.noticed(postId);
      },
      check,
      pollMs: COMMENTS_POLL_MS,
    });

    // A change made through this server shows in its next page at once, not a notice later: the
    // routes that change comments (routes/comments, routes/desk/comments.ts) answer once the
    // versions of the posts kept here are read again. One query, for writes only.
    app.addHook('onSend', async (request, reply, payload) => {
      const route = request.routeOptions.url ?? '';
      if (
        request.method !== 'GET' &&
        request.method !== 'HEAD' &&
        reply.statusCode < 300 &&
        CHANGING_ROUTES.some((prefix) => route.startsWith(prefix))
      ) {
        await check();
      }
      return payload;
    });

    app.addHook('onReady', changes.listen);
    app.addHook('onClose', changes.stop);
  },
  { name: 'page-comments', dependencies: ['database'] },
);

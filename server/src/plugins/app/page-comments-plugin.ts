import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type pg from 'pg';
import { DESK_API } from '../../../../contract/constants.js';
import { COMMENTS_CHANNEL } from '../../comments/comment-store.js';
import { PageComments } from '../../site/page-comments.js';

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

    let listener: pg.Client | null = null;
    let poll: NodeJS.Timeout | undefined;
    let closed = false;
    const check = () =>
      comments
        .checkKept()
        .catch((error: unknown) => app.log.warn({ err: error }, 'could not check comments'));

    async function listen() {
      const client = app.db.connectListener();
      if (!client) {
        startPolling();
        return;
      }
      listener = client;
      client.on('notification', (notice) => {
        const postId = Number((notice.payload ?? '').split(':')[0]);
        if (Number.isInteger(postId) && postId > 0) comments.noticed(postId);
      });
      client.on('error', () => {});
      client.on('end', () => {
        if (closed) return;
        listener = null;
        setTimeout(() => void listen(), 1_000).unref();
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${COMMENTS_CHANNEL}`);
      } catch (error) {
        app.log.warn({ err: error }, 'could not LISTEN for comments: asking every second');
        await client.end().catch(() => {});
        listener = null;
        startPolling();
        return;
      }
      // What changed while nobody listened.
      await check();
    }

    function startPolling() {
      poll = setInterval(() => void check(), COMMENTS_POLL_MS);
      poll.unref();
    }

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

    app.addHook('onReady', listen);
    app.addHook('onClose', async () => {
      closed = true;
      clearInterval(poll);
      await listener?.end().catch(() => {});
    });
  },
  { name: 'page-comments', dependencies: ['database'] },
);

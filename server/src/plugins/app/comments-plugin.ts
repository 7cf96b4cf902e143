import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  createCommentMailQueue,
  createCommentMailTokens,
  type CommentMailQueue,
  type CommentMailTokens,
} from '../../comments/comment-mail.js';
import type { CommentReader, CommentRules } from '../../comments/comments.js';
import { staffRoleOf } from '../../staff/staff.js';
import { VISITOR } from '../../../../contract/reading.js';
import { readerOfUser } from '../../content/readers.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Comments under posts (docs/comments.md): the site's rules and the mail queue. */
    comments: {
      rules: CommentRules;
      mail: CommentMailQueue;
      tokens: CommentMailTokens;
      /** Who the request's reader is, as comments care. */
      readerOf(request: FastifyRequest): Promise<CommentReader>;
    };
  }
}

/**
 * What the comment routes and the pages share: COMMENTS and COMMENTS_HOLD_FIRST_LINK as rules,
 * the reader behind a request, and the queue that sends the mails comments owe (started at ready
 * for rows a restart left queued, stopped at close).
 */
export default fp(
  async function comments(app: FastifyInstance) {
    const { config } = app;
    const tokens = createCommentMailTokens(config.sessionSecret);
    const mail = createCommentMailQueue(
      {
        pool: app.db.pool,
        mailer: app.mailer,
        siteUrl: config.siteUrl,
        // The publication's name at each mail, from its settings (the desk may rename it).
        get siteName() {
          return app.siteContent.current().settings.title;
        },
        tokens,
      },
      app.jobs,
    );
    const rules: CommentRules = {
      who: config.comments.who,
      holdFirstLink: config.comments.holdFirstLink,
      staffEmails: [...config.staff.owners, ...config.staff.editors],
    };
    app.decorate('comments', {
      rules,
      mail,
      tokens,
      async readerOf(request: FastifyRequest): Promise<CommentReader> {
        const user = (await request.getSession())?.user ?? null;
        if (!user) {
          return { userId: null, emailVerified: false, reading: VISITOR, isStaff: false };
        }
        return {
          userId: user.id,
          emailVerified: user.emailVerified,
          reading: readerOfUser(user),
          isStaff: user.emailVerified && staffRoleOf(config.staff, user.email) !== null,
        };
      },
    });
    app.addHook('onReady', async () => {
      void mail.start().catch((error: unknown) => app.log.error({ err: error }, 'comment mails'));
    });
    app.addHook('onClose', async () => mail.stop());
  },
  { name: 'comments', dependencies: ['mailer', 'job-queue'] },
);

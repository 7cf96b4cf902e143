import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import {
  CommentIdParamsSchema,
  CommentMailChoiceSchema,
  CommenterBlockBodySchema,
  CommenterBlockSchema,
  CommenterParamsSchema,
  DeskCommentAnswerSchema,
  DeskCommentListSchema,
  DeskCommentQuerySchema,
} from '../../../../contract/comments.js';
import {
  blockCommenter,
  listDeskComments,
  moderateComment,
  readCommentMailChoice,
  setCommentMailChoice,
  unblockCommenter,
} from '../../comments/moderation.js';
import { deskStaff } from './desk-staff.js';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };

/**
 * The desk's Comments page's API (docs/comments.md#moderation): owners and editors list, hide,
 * show, pin comments and block commenters (staff only by a higher role), each action in the
 * audit log; writers get 403, as for
 * members and money. Unlike members and money, an editor may act here (moderating is an
 * editor's work), and an owner needs no recent sign-in for it.
 */
const deskCommentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { pool } = app.db;
  const { rules } = app.comments;
  app.get(
    '/comments',
    {
      schema: {
        querystring: DeskCommentQuerySchema,
        response: { 200: DeskCommentListSchema, ...errors },
      },
      config: { access: 'see-members' },
    },
    async (request) =>
      listDeskComments(pool, {
        ...(request.query.status && { filter: request.query.status }),
        cursor: request.query.cursor ?? null,
      }),
  );

  for (const action of ['hide', 'show', 'pin', 'unpin'] as const) {
    app.post(
      `/comments/:id/${action}`,
      {
        schema: {
          params: CommentIdParamsSchema,
          response: { 200: DeskCommentAnswerSchema, ...errors },
        },
        config: { access: 'see-members' },
      },
      async (request) => {
        const { comment, mailIds } = await moderateComment(
          pool,
          deskStaff(request),
          request.params.id,
          action,
          rules.staffEmails,
        );
        await app.comments.mail.enqueue(mailIds);
        return { comment };
      },
    );
  }

  app.post(
    '/commenters/:userId/block',
    {
      schema: {
        params: CommenterParamsSchema,
        body: CommenterBlockBodySchema,
        response: { 200: CommenterBlockSchema, ...errors },
      },
      config: { access: 'see-members' },
    },
    async (request) =>
      blockCommenter(
        pool,
        deskStaff(request),
        app.config.staff,
        request.params.userId,
        request.body?.hideEarlier ?? false,
      ),
  );

  app.post(
    '/commenters/:userId/unblock',
    {
      schema: { params: CommenterParamsSchema, response: { 200: CommenterBlockSchema, ...errors } },
      config: { access: 'see-members' },
    },
    async (request) => unblockCommenter(pool, deskStaff(request), request.params.userId),
  );

  app.get(
    '/comment-mail',
    {
      schema: { response: { 200: CommentMailChoiceSchema, ...errors } },
      config: { access: 'see-members' },
    },
    async (request) => ({
      onEveryComment: await readCommentMailChoice(pool, deskStaff(request).userId),
    }),
  );

  app.put(
    '/comment-mail',
    {
      schema: {
        body: CommentMailChoiceSchema,
        response: { 200: CommentMailChoiceSchema, ...errors },
      },
      config: { access: 'see-members' },
    },
    async (request) => ({
      onEveryComment: await setCommentMailChoice(
        pool,
        deskStaff(request).userId,
        request.body.onEveryComment,
      ),
    }),
  );
};

export default deskCommentRoutes;

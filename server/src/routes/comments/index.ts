import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import {
  CommentAnswerSchema,
  CommentEditBodySchema,
  CommentIdParamsSchema,
  CommentLikesSchema,
  CommentListQuerySchema,
  CommentListSchema,
  CommentReportBodySchema,
  NewCommentBodySchema,
  PostIdParamsSchema,
  ProfileBodySchema,
  ProfileSchema,
} from '../../../../contract/comments.js';
import { STOP_REPLY_MAILS_PATH, stopCommentMails } from '../../comments/comment-mail.js';
import {
  deleteComment,
  editComment,
  postComment,
  reportComment,
  setCommenterName,
  setLike,
} from '../../comments/comment-writing.js';
import { listReadableComments, readCommentViewer } from '../../comments/comments.js';
import { HttpError } from '../../http/errors.js';

const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
  429: ErrorResponseSchema,
};

/**
 * Comments under posts (docs/comments.md; the contract is contract/comments.ts): reading them,
 * writing, editing and deleting one's own, likes, reports, the commenter's name, and the stop link
 * of reply mails. Routes parse and shape; the rules are in server/src/comments/.
 */
const commentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { pool } = app.db;
  const { rules } = app.comments;

  app.get(
    '/api/posts/:postId/comments',
    {
      schema: {
        params: PostIdParamsSchema,
        querystring: CommentListQuerySchema,
        response: { 200: CommentListSchema, ...errors },
      },
      config: { access: 'anyone', changesState: false },
    },
    async (request, reply) => {
      const reader = await app.comments.readerOf(request);
      void reply.header('cache-control', 'private, no-cache');
      const [list, viewer] = await Promise.all([
        rules.who === 'off'
          ? { count: 0, comments: [], nextCursor: null }
          : listReadableComments(pool, reader, {
              postId: Number(request.params.postId),
              ...(request.query.sort && { sort: request.query.sort }),
              cursor: request.query.cursor ?? null,
            }),
        readCommentViewer(pool, rules, reader),
      ]);
      return { ...list, viewer };
    },
  );

  app.post(
    '/api/posts/:postId/comments',
    {
      schema: {
        params: PostIdParamsSchema,
        body: NewCommentBodySchema,
        response: { 201: CommentAnswerSchema, ...errors },
      },
      config: { access: 'anyone', changesState: true, limit: 'comments-write' },
    },
    async (request, reply) => {
      const reader = await app.comments.readerOf(request);
      const { comment, mailIds } = await postComment(pool, rules, reader, {
        postId: Number(request.params.postId),
        body: request.body.body,
        parentId: request.body.parentId,
      });
      await app.comments.mail.enqueue(mailIds);
      return reply.code(201).send({ comment });
    },
  );

  app.patch(
    '/api/comments/:id',
    {
      schema: {
        params: CommentIdParamsSchema,
        body: CommentEditBodySchema,
        response: { 200: CommentAnswerSchema, ...errors },
      },
      config: { access: 'anyone', changesState: true, limit: 'comments-edit' },
    },
    async (request) => {
      const reader = await app.comments.readerOf(request);
      const { id } = request.params;
      return { comment: await editComment(pool, rules, reader, id, request.body.body) };
    },
  );

  app.delete(
    '/api/comments/:id',
    { schema: { params: CommentIdParamsSchema }, config: { access: 'anyone', changesState: true } },
    async (request, reply) => {
      const reader = await app.comments.readerOf(request);
      await deleteComment(pool, reader, request.params.id);
      return reply.code(204).send();
    },
  );

  for (const method of ['post', 'delete'] as const) {
    app[method](
      '/api/comments/:id/likes',
      {
        schema: { params: CommentIdParamsSchema, response: { 200: CommentLikesSchema, ...errors } },
        config: { access: 'anyone', changesState: true, limit: 'comment-likes' },
      },
      async (request) => {
        const reader = await app.comments.readerOf(request);
        return setLike(pool, rules, reader, request.params.id, method === 'post');
      },
    );
  }

  app.post(
    '/api/comments/:id/reports',
    {
      schema: {
        params: CommentIdParamsSchema,
        body: CommentReportBodySchema,
        response: { 202: Type.Object({}), ...errors },
      },
      config: { access: 'anyone', changesState: true, limit: 'comment-reports' },
    },
    async (request, reply) => {
      const reader = await app.comments.readerOf(request);
      await reportComment(pool, rules, reader, request.params.id, request.body.reason);
      return reply.code(202).send({});
    },
  );

  app.patch(
    '/api/account/profile',
    {
      schema: { body: ProfileBodySchema, response: { 200: ProfileSchema, ...errors } },
      config: { access: 'anyone', changesState: true, limit: 'comment-profile' },
    },
    async (request) => {
      const reader = await app.comments.readerOf(request);
      return setCommenterName(pool, reader, request.body.name);
    },
  );

  await app.register(stopLinkRoutes);
};

/**
 * The stop link of a comment mail, in a scope of its own: the only comment routes that take a form.
 */
const stopLinkRoutes: FastifyPluginAsyncTypebox = async (scope) => {
  const { pool } = scope.db;
  // The stop link of a comment mail. Mail clients POST to it (RFC 8058 one-click: no session, a
  // form body that is ignored: the token in the address is what counts); a reader who opens it
  // gets a small page whose button POSTs, since a GET changes nothing (link scanners follow links).
  for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data']) {
    scope.addContentTypeParser(
      type,
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, { form: body }),
    );
  }
  const TokenQuerySchema = Type.Object({ token: Type.String({ minLength: 1, maxLength: 500 }) });

  scope.post(
    STOP_REPLY_MAILS_PATH,
    {
      schema: { querystring: TokenQuerySchema },
      config: { access: 'anyone', changesState: true, limit: 'comment-mail-stop' },
    },
    async (request, reply) => {
      const stop = scope.comments.tokens.verify(request.query.token);
      if (!stop) {
        throw new HttpError(
          400,
          'invalid_token',
          'This link is not one of ours: use the one in the mail.',
        );
      }
      await stopCommentMails(pool, stop);
      const message =
        stop.kind === 'reply'
          ? 'Done: no more mails about replies to your comments.'
          : 'Done: no more mails about every new comment.';
      if (request.headers['content-type']?.startsWith('application/json')) {
        return { stopped: true, message };
      }
      return reply
        .type('text/html; charset=utf-8')
        .send(stopPage(scope.siteContent.current().settings.title, message, null));
    },
  );

  scope.get(
    STOP_REPLY_MAILS_PATH,
    {
      schema: { querystring: TokenQuerySchema },
      config: { access: 'anyone', changesState: false },
    },
    async (request, reply) => {
      const stop = scope.comments.tokens.verify(request.query.token);
      const message = !stop
        ? 'This link is not one of ours: use the one in the mail.'
        : stop.kind === 'reply'
          ? 'Stop the mails we send when someone replies to your comments?'
          : 'Stop the mail we send on every new comment?';
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-robots-tag', 'noindex')
        .send(
          stopPage(
            scope.siteContent.current().settings.title,
            message,
            stop ? request.query.token : null,
          ),
        );
    },
  );
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** The stop link's page: the question and its one button, or what was done. */
function stopPage(siteName: string, message: string, token: string | null): string {
  const form = token
    ? `<form method="post" action="${STOP_REPLY_MAILS_PATH}?token=${encodeURIComponent(token)}">
<button type="submit">Stop these mails</button></form>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Comment mails · ${escapeHtml(siteName)}</title>
<style>body{font:1.05rem/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}
button{font:inherit;padding:.6rem 1.2rem;border-radius:.4rem;border:1px solid #333;background:#111;color:#fff}</style>
</head><body><h1>${escapeHtml(siteName)}</h1><p>${escapeHtml(message)}</p>${form}<p><a href="/">Back to ${escapeHtml(siteName)}</a></p></body></html>`;
}

export default commentRoutes;

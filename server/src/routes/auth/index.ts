import type { FastifyPluginAsyncTypebox, Static } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  changePassword,
  completePasswordReset,
  createPasswordReset,
  PASSWORD_RESET_TTL_MS,
  registerAccount,
  signIn,
  type SessionGrant,
} from '../../accounts/accounts.js';
import { normalizeEmail } from '../../../../contract/account-rules.js';
import {
  CredentialsBodySchema,
  ErrorResponseSchema,
  MessageResponseSchema,
  PasswordChangeBodySchema,
  PasswordResetBodySchema,
  PasswordResetConfirmBodySchema,
  UserResponseSchema,
} from '../../../../contract/api.js';
import { HttpError } from '../../http/errors.js';
import { findSessionUser, toUser } from '../../users/users.js';

const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
  409: ErrorResponseSchema,
  429: ErrorResponseSchema,
};

export const RESET_REQUESTED_MESSAGE =
  'If an account exists for that email, we have sent it a link to choose a new password. The link works once, for one hour.';

export interface AuthRouteOptions {
  siteUrl: string;
  siteName: string;
  /** Sign-in attempts per client IP per minute. */
  loginRateLimit: number;
  /** Grace days after a failed renewal: the sign-in merge rewrites the membership with them. */
  graceDays: number;
}

const authRoutes: FastifyPluginAsyncTypebox<AuthRouteOptions> = async (app, options) => {
  /** Starts the session the account continues with and answers its user. */
  async function continueAs(request: FastifyRequest, reply: FastifyReply, grant: SessionGrant) {
    await app.sessions.start(request, reply, grant.userId, grant.sessionVersion);
    return { user: toUser(grant.userId, await findSessionUser(app, grant.userId)) };
  }

  app.post(
    '/api/auth/register',
    { schema: { body: CredentialsBodySchema, response: { 201: UserResponseSchema, ...errors } } },
    async (request, reply) => {
      const session = await request.requireSession();
      const grant = await registerAccount(app, {
        userId: session.userId,
        ...request.body,
      });
      return reply.code(201).send(await continueAs(request, reply, grant));
    },
  );

  // Per email as well as per IP: guessing one account's password from many addresses is slow too.
  // (A second limiter on one route has to be checked by hand: the plugin runs one per request.)
  const checkEmailLimit = app.createRateLimit({
    max: 10,
    timeWindow: '15 minutes',
    // Runs as the login route's preHandler, after its schema validated the body.
    keyGenerator: (request) =>
      `login:${normalizeEmail((request.body as Static<typeof CredentialsBodySchema>).email)}`,
  });
  async function perEmail(request: FastifyRequest, reply: FastifyReply) {
    const limit = await checkEmailLimit(request);
    if (!limit.isAllowed && limit.isExceeded) {
      reply.header('retry-after', limit.ttlInSeconds);
      throw new HttpError(
        429,
        'rate_limited',
        'Too many sign-in attempts for this email: try again later.',
      );
    }
  }
  app.post(
    '/api/auth/login',
    {
      schema: { body: CredentialsBodySchema, response: { 200: UserResponseSchema, ...errors } },
      config: { rateLimit: { max: options.loginRateLimit, timeWindow: '1 minute' } },
      preHandler: perEmail,
    },
    async (request, reply) => {
      const grant = await signIn(
        { db: app.db, graceDays: options.graceDays },
        { ...request.body, leaving: await request.getSession() },
      );
      return continueAs(request, reply, grant);
    },
  );

  app.post(
    '/api/auth/logout',
    { schema: { response: { 200: UserResponseSchema, ...errors } } },
    async (request, reply) => {
      await request.requireSession();
      const userId = await app.sessions.startAnonymous(request, reply);
      return { user: toUser(userId, null) };
    },
  );

  app.post(
    '/api/auth/password-reset',
    {
      schema: {
        body: PasswordResetBodySchema,
        response: { 202: MessageResponseSchema, ...errors },
      },
      config: { rateLimit: { max: 5, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const reset = await createPasswordReset(app, request.body);
      if (reset) {
        const link = `${options.siteUrl}/reset-password?token=${reset.token}`;
        const minutes = PASSWORD_RESET_TTL_MS / 60_000;
        // Sent in the background: the answer takes as long whether or not the account exists.
        void app.mailer
          .send({
            to: reset.email,
            subject: `Reset your ${options.siteName} password`,
            text:
              `Someone (hopefully you) asked to reset the password of your ${options.siteName} account.\n\n` +
              `Open this link to choose a new one. It works once, for the next ${minutes} minutes:\n\n${link}\n\n` +
              `If it was not you, ignore this mail: your password stays as it is.\n`,
          })
          .catch((error: unknown) =>
            request.log.error({ err: error }, 'could not send a password-reset mail'),
          );
      }
      return reply.code(202).send({ message: RESET_REQUESTED_MESSAGE });
    },
  );

  app.post(
    '/api/auth/password-reset/confirm',
    {
      schema: {
        body: PasswordResetConfirmBodySchema,
        response: { 200: UserResponseSchema, ...errors },
      },
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
    },
    async (request, reply) =>
      continueAs(request, reply, await completePasswordReset(app, request.body)),
  );

  app.post(
    '/api/auth/password',
    {
      schema: {
        body: PasswordChangeBodySchema,
        response: { 200: UserResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await request.requireSession();
      const grant = await changePassword(app, {
        userId: session.userId,
        ...request.body,
      });
      return continueAs(request, reply, grant);
    },
  );
};

export default authRoutes;

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  changePassword,
  completePasswordReset,
  createPasswordReset,
  passwordResetMail,
  registerAccount,
  requireNoControlCharacters,
  signIn,
  type SessionGrant,
} from '../../accounts/accounts.js';
import {
  prepareStrengthEstimator,
  stopStrengthEstimator,
} from '../../accounts/strength-estimator.js';
import {
  createSignInThrottle,
  databaseCounters,
  redisCounters,
} from '../../accounts/sign-in-throttle.js';
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
import { endOtherUserSessions, endUserSession } from '../../sessions/user-sessions.js';
import { findSessionUser, toUser } from '../../users/users.js';

const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
  409: ErrorResponseSchema,
  429: ErrorResponseSchema,
  503: ErrorResponseSchema,
};

/** Routes that hash a password: limited per client IP, on top of the global hashing queue. */
export const accountRouteLimit = (max: number) => ({ max, timeWindow: '10 minutes' });

export const RESET_REQUESTED_MESSAGE =
  'If an account exists for that email, we have sent it a link to choose a new password. The link works once, for one hour.';

export interface AuthRouteOptions {
  siteUrl: string;
  siteName: string;
  /** Sign-in attempts per client IP per minute. */
  loginRateLimit: number;
  /** Registrations and password changes per client IP per 10 minutes. */
  accountRateLimit: number;
  /** Grace days after a failed renewal: the sign-in merge rewrites the membership with them. */
  graceDays: number;
}

const authRoutes: FastifyPluginAsyncTypebox<AuthRouteOptions> = async (app, options) => {
  app.addHook('onReady', async () => prepareStrengthEstimator());
  app.addHook('onClose', async () => stopStrengthEstimator());

  /** Starts (or keeps) the session the account continues with and answers its user. */
  async function continueAs(
    request: FastifyRequest,
    reply: FastifyReply,
    grant: SessionGrant & { sessionId?: string | null },
  ) {
    const sessionId = await app.sessions.signIn(request, reply, grant);
    return { user: toUser(grant.userId, await findSessionUser(app, grant.userId, sessionId)) };
  }

  app.post(
    '/api/auth/register',
    {
      schema: { body: CredentialsBodySchema, response: { 201: UserResponseSchema, ...errors } },
      config: { rateLimit: accountRouteLimit(options.accountRateLimit) },
    },
    async (request, reply) => {
      const session = await request.requireSession();
      const grant = await registerAccount(app, {
        userId: session.userId,
        ...request.body,
      });
      return reply.code(201).send(await continueAs(request, reply, grant));
    },
  );

  // Failed sign-ins slow guessing without letting anyone lock the owner out (sign-in-throttle.ts).
  const throttle = createSignInThrottle(
    app.sharedRedis ? redisCounters(app.sharedRedis) : databaseCounters(app),
  );
  /** The throttle's counters are down (Redis away): sign-ins go on, the log says so. */
  const failOpen = (request: FastifyRequest) => (error: unknown) => {
    if (error instanceof HttpError) throw error;
    request.log.warn({ err: error }, 'sign-in counters unavailable: not throttling this attempt');
  };

  app.post(
    '/api/auth/login',
    {
      schema: { body: CredentialsBodySchema, response: { 200: UserResponseSchema, ...errors } },
      config: { rateLimit: { max: options.loginRateLimit, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      requireNoControlCharacters(request.body);
      const email = normalizeEmail(request.body.email);
      await throttle.beforeAttempt(email, request.ip).catch(failOpen(request));
      let grant: SessionGrant;
      try {
        grant = await signIn(
          { db: app.db, graceDays: options.graceDays },
          { ...request.body, leaving: await request.getSession() },
        );
      } catch (error) {
        if (error instanceof HttpError && error.code === 'invalid_credentials') {
          await throttle.failed(email, request.ip).catch(failOpen(request));
        }
        throw error;
      }
      await throttle.succeeded(email, request.ip).catch(failOpen(request));
      return continueAs(request, reply, grant);
    },
  );

  app.post(
    '/api/auth/logout',
    { schema: { response: { 200: UserResponseSchema, ...errors } } },
    async (request, reply) => {
      const session = await request.requireSession();
      // Ends this browser's session for good: its old cookie, replayed, is no session.
      if (session.sessionId) await endUserSession(app, session.userId, session.sessionId);
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
        // Sent in the background: the answer takes as long whether or not the account exists.
        void app.mailer
          .send(passwordResetMail(reset, options))
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
    async (request, reply) => {
      const grant = await completePasswordReset(app, request.body);
      // Whoever knew the old password is signed out everywhere; this browser starts afresh.
      await endOtherUserSessions(app, grant.userId, null);
      return continueAs(request, reply, grant);
    },
  );

  app.post(
    '/api/auth/password',
    {
      schema: {
        body: PasswordChangeBodySchema,
        response: { 200: UserResponseSchema, ...errors },
      },
      config: { rateLimit: accountRouteLimit(options.accountRateLimit) },
    },
    async (request, reply) => {
      const session = await request.requireSession();
      const grant = await changePassword(app, {
        userId: session.userId,
        ...request.body,
      });
      // Every other browser is signed out; this one continues.
      await endOtherUserSessions(app, session.userId, session.sessionId);
      return continueAs(request, reply, { ...grant, sessionId: session.sessionId });
    },
  );
};

export default authRoutes;

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  changePassword,
  completePasswordReset,
  createPasswordReset,
  passwordResetMail,
  requireNoControlCharacters,
  requireValidEmail,
  signIn,
  type SessionGrant,
} from '../../accounts/accounts.js';
import {
  prepareStrengthEstimator,
  stopStrengthEstimator,
} from '../../accounts/strength-estimator.js';
import {
  confirmEmailCode,
  confirmEmailLink,
  confirmRegistration,
  previewMailedLink,
  registrationMail,
  requestEmailSignIn,
  requestRegistration,
  signInMail,
} from '../../accounts/email-sign-in.js';
import { createCodeLimit } from '../../accounts/code-limit.js';
import { createMailLimit } from '../../accounts/mail-limit.js';
import {
  createSignInThrottle,
  databaseCounters,
  redisCounters,
} from '../../accounts/sign-in-throttle.js';
import { normalizeEmail } from '../../../../contract/account-rules.js';
import {
  CredentialsBodySchema,
  EmailCodeBodySchema,
  EmailLinkBodySchema,
  EmailLinkConfirmBodySchema,
  EmailTokenBodySchema,
  ErrorResponseSchema,
  MailedLinkPreviewSchema,
  MessageResponseSchema,
  PasswordChangeBodySchema,
  PasswordResetBodySchema,
  PasswordResetConfirmBodySchema,
  RegisterBodySchema,
  RegisterConfirmBodySchema,
  UserResponseSchema,
} from '../../../../contract/api.js';
import { DomainError } from '../../domain-error.js';
import { endOtherUserSessions, endUserSession } from '../../sessions/user-sessions.js';
import { findSessionUser, toUser } from '../../users/users.js';
import { sessionOf } from '../../plugins/app/route-access.js';
import type { SignedInGrant } from '../../plugins/app/sessions.js';

const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
  409: ErrorResponseSchema,
  410: ErrorResponseSchema,
  429: ErrorResponseSchema,
  503: ErrorResponseSchema,
};

/** Who the browser is now: the answer of a sign-in, a sign-out and a password's change. */
const userAnswer = { 200: UserResponseSchema, ...errors };
/** The answer to a request for a mail, the same whether or not one was sent. */
const mailSentAnswer = { 202: MessageResponseSchema, ...errors };

export const RESET_REQUESTED_MESSAGE =
  'If an account exists for that email, we have sent it a link to choose a new password. The link works once, for one hour.';

/** The answer to a registration, whether or not the address has an account. */
export const REGISTRATION_MESSAGE =
  'We sent a link to that address: open it to choose your password and finish creating your account. It works once, for 24 hours.';
/** The answer to "Email me a sign-in link", for every address. */
export const SIGN_IN_LINK_MESSAGE =
  'We sent a sign-in link and a 6-digit code to that address. Both work once, for 15 minutes.';

export interface AuthRouteOptions {
  siteUrl: string;
  siteName: string;
  /** Grace days after a failed renewal: the sign-in merge rewrites the membership with them. */
  graceDays: number;
}

const authRoutes: FastifyPluginAsyncTypebox<AuthRouteOptions> = async (app, options) => {
  app.addHook('onReady', async () => prepareStrengthEstimator());
  app.addHook('onClose', async () => stopStrengthEstimator());

  /** Starts (or keeps) the session the account continues with and answers its user. */
  async function continueAs(request: FastifyRequest, reply: FastifyReply, grant: SignedInGrant) {
    const sessionId = await app.sessions.signIn(request, reply, grant);
    return { user: toUser(grant.userId, await findSessionUser(app, grant.userId, sessionId)) };
  }

  /**
   * Mail sent off the request path: the answer takes as long whatever is mailed. An address that
   * was mailed too often lately is not mailed again for a while (a silent limit, the same for
   * every address, so it tells nobody anything).
   */
  const mailLimit = createMailLimit(
    app.sharedRedis ? redisCounters(app.sharedRedis, 'cohort-mail:') : databaseCounters(app),
  );
  // Failed sign-ins and wrong codes: counted in Redis when it is configured, else in PostgreSQL.
  const signInCounters = app.sharedRedis ? redisCounters(app.sharedRedis) : databaseCounters(app);
  const codeLimit = createCodeLimit(signInCounters, app.log);
  function sendInBackground(
    request: FastifyRequest,
    mail: { to: string; subject: string; text: string },
  ) {
    void app.mailer
      .send(mail)
      .catch((error: unknown) =>
        request.log.error({ err: error }, 'could not send a sign-in mail'),
      );
  }

  app.post(
    '/api/auth/register',
    {
      schema: { body: RegisterBodySchema, response: mailSentAnswer },
      config: { access: 'session', changesState: true, limit: 'account' },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const mail = await requestRegistration(app, {
        askedBy: session.userId,
        visitorEmail: session.user?.email ?? null,
        email: request.body.email,
      });
      if (await mailLimit.allows(mail.email, request)) {
        sendInBackground(request, registrationMail(mail, options));
      }
      return reply.code(202).send({ message: REGISTRATION_MESSAGE });
    },
  );

  // What the page a mailed link opens shows first: the address, and whether to ask before this
  // browser's membership moves. Nothing is used up.
  for (const [url, purpose] of [
    ['/api/auth/register/preview', 'register'],
    ['/api/auth/email-link/preview', 'sign-in'],
  ] as const) {
    app.post(
      url,
      {
        schema: {
          body: EmailTokenBodySchema,
          response: { 200: MailedLinkPreviewSchema, ...errors },
        },
        config: { access: 'anyone', changesState: false, limit: 'account' },
      },
      async (request) =>
        previewMailedLink(app, {
          token: request.body.token,
          purpose,
          leaving: await request.getSession(),
        }),
    );
  }

  app.post(
    '/api/auth/register/confirm',
    {
      schema: { body: RegisterConfirmBodySchema, response: userAnswer },
      config: { access: 'anyone', changesState: true, limit: 'account' },
    },
    async (request, reply) => {
      requireNoControlCharacters({ password: request.body.password });
      const grant = await confirmRegistration(app, {
        token: request.body.token,
        password: request.body.password,
        moveMembership: request.body.moveMembership ?? false,
        leaving: await request.getSession(),
      });
      // A new account: a signup on the analytics (docs/analytics.md#what-is-counted).
      await app.analytics
        .creditSignup(request, grant.userId)
        .catch((error: unknown) => request.log.error({ err: error }, 'could not credit a signup'));
      return continueAs(request, reply, { ...grant, method: 'link' });
    },
  );

  app.post(
    '/api/auth/email-link',
    {
      schema: { body: EmailLinkBodySchema, response: mailSentAnswer },
      config: { access: 'anyone', changesState: true, limit: 'account' },
    },
    async (request, reply) => {
      const email = requireValidEmail(request.body.email);
      if (await mailLimit.allows(email, request)) {
        const mail = await requestEmailSignIn(app, {
          email,
          askedBy: (await request.getSession())?.userId ?? null,
          withCode: await codeLimit.allows(email),
        });
        sendInBackground(request, signInMail(mail, options));
      }
      return reply.code(202).send({ message: SIGN_IN_LINK_MESSAGE });
    },
  );

  app.post(
    '/api/auth/email-link/confirm',
    {
      schema: { body: EmailLinkConfirmBodySchema, response: userAnswer },
      config: { access: 'anyone', changesState: true, limit: 'account' },
    },
    async (request, reply) => {
      const grant = await confirmEmailLink(
        { db: app.db, graceDays: options.graceDays },
        {
          token: request.body.token,
          moveMembership: request.body.moveMembership ?? false,
          leaving: await request.getSession(),
        },
      );
      return continueAs(request, reply, { ...grant, method: 'link' });
    },
  );

  app.post(
    '/api/auth/email-code/confirm',
    {
      schema: { body: EmailCodeBodySchema, response: userAnswer },
      config: { access: 'anyone', changesState: true, limit: 'login' },
    },
    async (request, reply) => {
      requireNoControlCharacters({ email: request.body.email });
      const grant = await confirmEmailCode(
        { db: app.db, graceDays: options.graceDays, codeLimit },
        { ...request.body, leaving: await request.getSession() },
      );
      return continueAs(request, reply, { ...grant, method: 'code' });
    },
  );

  // Failed sign-ins slow guessing without letting anyone lock the owner out (sign-in-throttle.ts).
  const throttle = createSignInThrottle(signInCounters);
  /** The throttle's counters are down (Redis away): sign-ins go on, the log says so. */
  const failOpen = (request: FastifyRequest) => (error: unknown) => {
    if (error instanceof DomainError) throw error;
    request.log.warn({ err: error }, 'sign-in counters unavailable: not throttling this attempt');
  };

  app.post(
    '/api/auth/login',
    {
      schema: { body: CredentialsBodySchema, response: userAnswer },
      config: { access: 'anyone', changesState: true, limit: 'login' },
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
        if (error instanceof DomainError && error.code === 'invalid_credentials') {
          await throttle.failed(email, request.ip).catch(failOpen(request));
        }
        throw error;
      }
      await throttle.succeeded(email, request.ip).catch(failOpen(request));
      return continueAs(request, reply, { ...grant, method: 'password' });
    },
  );

  app.post(
    '/api/auth/logout',
    {
      schema: { response: userAnswer },
      config: { access: 'session', changesState: true },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      // Ends this browser's session for good: its old cookie, replayed, is no session.
      if (session.sessionId) await endUserSession(app, session.userId, session.sessionId);
      const userId = await app.sessions.startAnonymous(request, reply);
      return { user: toUser(userId, null) };
    },
  );

  app.post(
    '/api/auth/password-reset',
    {
      schema: { body: PasswordResetBodySchema, response: mailSentAnswer },
      config: { access: 'anyone', changesState: true, limit: 'password-reset' },
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
      schema: { body: PasswordResetConfirmBodySchema, response: userAnswer },
      config: { access: 'anyone', changesState: true, limit: 'password-reset-confirm' },
    },
    async (request, reply) => {
      const grant = await completePasswordReset(app, request.body);
      // Whoever knew the old password is signed out everywhere; this browser starts afresh.
      await endOtherUserSessions(app, grant.userId, null);
      // The mailed link proved who this is; the new password is for next time.
      return continueAs(request, reply, { ...grant, method: 'link' });
    },
  );

  app.post(
    '/api/auth/password',
    {
      schema: { body: PasswordChangeBodySchema, response: userAnswer },
      config: { access: 'session', changesState: true, limit: 'account' },
    },
    async (request, reply) => {
      const { userId, sessionId } = sessionOf(request);
      const grant = await changePassword(app, { userId, sessionId, ...request.body });
      // Every other browser is signed out; this one continues.
      await endOtherUserSessions(app, userId, sessionId);
      return continueAs(request, reply, { ...grant, method: 'password', sessionId });
    },
  );
};

export default authRoutes;

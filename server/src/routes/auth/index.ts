import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import {
  changePassword,
  completePasswordReset,
  createPasswordReset,
  PASSWORD_RESET_TTL_MS,
  registerAccount,
  signIn,
  type SessionGrant,
} from '../../accounts/accounts.js';
import { normalizeEmail } from '../../accounts/emails.js';
import { MAX_PASSWORD_LENGTH } from '../../accounts/passwords.js';
import { ErrorResponseSchema } from '../../http/error-schema.js';
import { HttpError } from '../../http/errors.js';
import { UserResponseSchema } from '../../users/user-schema.js';
import { findSessionUser, toUserView } from '../../users/users.js';

const Email = Type.String({ minLength: 1, maxLength: 320 });
// Longer than the policy allows, so an over-long password gets the policy's own message.
const Password = Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH * 2 });
const CredentialsSchema = Type.Object(
  { email: Email, password: Password },
  { additionalProperties: false },
);
type Credentials = Static<typeof CredentialsSchema>;

const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
  409: ErrorResponseSchema,
  429: ErrorResponseSchema,
};
const MessageSchema = Type.Object({ message: Type.String() });

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

export default async function authRoutes(app: FastifyInstance, options: AuthRouteOptions) {
  /** Starts the session the account continues with and answers its user. */
  async function continueAs(request: FastifyRequest, reply: FastifyReply, grant: SessionGrant) {
    await app.sessions.start(request, reply, grant.userId, grant.sessionVersion);
    return { user: toUserView(grant.userId, await findSessionUser(app, grant.userId)) };
  }

  app.post<{ Body: Credentials }>(
    '/api/auth/register',
    { schema: { body: CredentialsSchema, response: { 201: UserResponseSchema, ...errors } } },
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
    keyGenerator: (request) => `login:${normalizeEmail((request.body as Credentials).email)}`,
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
  app.post<{ Body: Credentials }>(
    '/api/auth/login',
    {
      schema: { body: CredentialsSchema, response: { 200: UserResponseSchema, ...errors } },
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
      return { user: toUserView(userId, null) };
    },
  );

  app.post<{ Body: { email: string } }>(
    '/api/auth/password-reset',
    {
      schema: {
        body: Type.Object({ email: Email }, { additionalProperties: false }),
        response: { 202: MessageSchema, ...errors },
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

  app.post<{ Body: { token: string; password: string } }>(
    '/api/auth/password-reset/confirm',
    {
      schema: {
        body: Type.Object(
          { token: Type.String({ minLength: 1, maxLength: 200 }), password: Password },
          { additionalProperties: false },
        ),
        response: { 200: UserResponseSchema, ...errors },
      },
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
    },
    async (request, reply) =>
      continueAs(request, reply, await completePasswordReset(app, request.body)),
  );

  app.post<{ Body: { currentPassword: string; newPassword: string } }>(
    '/api/auth/password',
    {
      schema: {
        body: Type.Object(
          { currentPassword: Password, newPassword: Password },
          { additionalProperties: false },
        ),
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
}

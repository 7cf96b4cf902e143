import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { UUID_PATTERN } from '../../../../contract/constants.js';
import { ErrorResponseSchema, UserResponseSchema } from '../../../../contract/api.js';
import {
  PasskeyOptionsResponseSchema,
  PasskeyRegisterBodySchema,
  PasskeyRenameBodySchema,
  PasskeySignInBodySchema,
  PasskeysResponseSchema,
} from '../../../../contract/passkeys.js';
import {
  finishPasskeyRegistration,
  finishPasskeySignIn,
  listPasskeys,
  PASSKEY_CHALLENGE_TTL_MS,
  relyingPartyOf,
  removePasskey,
  renamePasskey,
  startPasskeyRegistration,
  startPasskeySignIn,
} from '../../accounts/passkeys.js';
import { DESK_SIGN_IN_MAX_AGE_MS } from '../../staff/staff.js';
import { HttpError } from '../../http/errors.js';
import { accountOf } from '../../plugins/app/route-access.js';
import { sessionSignedInAt } from '../../sessions/user-sessions.js';
import { findSessionUser, toUser } from '../../users/users.js';

const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
  429: ErrorResponseSchema,
  503: ErrorResponseSchema,
};

/** Where the id of the browser's pending challenge waits (HttpOnly: no script reads it). */
export const PASSKEY_CHALLENGE_COOKIE = 'cohort_passkey_challenge';
const CHALLENGE_COOKIE_PATH = '/api/auth/passkey';

/** Adding a passkey needs a sign-in this recent (the desk's rule): an old stolen cookie cannot. */
export const PASSKEY_ADD_SIGN_IN_MAX_AGE_MS = DESK_SIGN_IN_MAX_AGE_MS;

export interface PasskeyRouteOptions {
  siteUrl: string;
  siteName: string;
  graceDays: number;
}

/**
 * Passkeys: adding one to a signed-in account, signing in with one, and the account's list.
 * The ceremonies' logic is in accounts/passkeys.ts; these routes carry the challenge cookie.
 */
const passkeyRoutes: FastifyPluginAsyncTypebox<PasskeyRouteOptions> = async (app, options) => {
  // The name a passkey prompt shows is the site's as its settings say now.
  const relyingParty = () => relyingPartyOf(options.siteUrl, options.siteName);

  function setChallengeCookie(request: FastifyRequest, reply: FastifyReply, challengeId: string) {
    reply.setCookie(PASSKEY_CHALLENGE_COOKIE, challengeId, {
      path: CHALLENGE_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'strict',
      secure: request.protocol === 'https',
      maxAge: PASSKEY_CHALLENGE_TTL_MS / 1000,
    });
  }
  /** The challenge's id, taken: the cookie goes whatever the answer turns out to be. */
  function takeChallengeId(request: FastifyRequest, reply: FastifyReply): string | undefined {
    reply.clearCookie(PASSKEY_CHALLENGE_COOKIE, { path: CHALLENGE_COOKIE_PATH });
    return request.cookies[PASSKEY_CHALLENGE_COOKIE];
  }

  app.post(
    '/api/auth/passkey/register/options',
    {
      schema: { response: { 200: PasskeyOptionsResponseSchema, ...errors } },
      config: { access: 'signed-in', changesState: true, limit: 'account' },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const signedInAt = await sessionSignedInAt(app, account.sessionId);
      if (!signedInAt || Date.now() - signedInAt.getTime() > PASSKEY_ADD_SIGN_IN_MAX_AGE_MS) {
        throw new HttpError(
          403,
          'sign_in_again',
          'Adding a passkey needs a sign-in within the last 12 hours: sign out, sign in again, and retry.',
        );
      }
      const { challengeId, options: creation } = await startPasskeyRegistration(app, {
        rp: relyingParty(),
        ...account,
      });
      setChallengeCookie(request, reply, challengeId);
      return { options: creation };
    },
  );

  app.post(
    '/api/auth/passkey/register/verify',
    {
      schema: {
        body: PasskeyRegisterBodySchema,
        response: { 201: PasskeysResponseSchema, ...errors },
      },
      config: { access: 'signed-in', changesState: true, limit: 'account' },
    },
    async (request, reply) => {
      const challengeId = takeChallengeId(request, reply);
      const account = accountOf(request);
      const passkeys = await finishPasskeyRegistration(app, {
        rp: relyingParty(),
        challengeId,
        userId: account.userId,
        sessionId: account.sessionId,
        response: request.body.response,
        name: request.body.name,
        userAgent: request.headers['user-agent'],
      });
      return reply.code(201).send({ passkeys });
    },
  );

  app.post(
    '/api/auth/passkey/sign-in/options',
    {
      schema: { response: { 200: PasskeyOptionsResponseSchema, ...errors } },
      config: { access: 'anyone', changesState: true, limit: 'session' },
    },
    async (request, reply) => {
      const { challengeId, options: requestOptions } = await startPasskeySignIn(app, {
        rp: relyingParty(),
      });
      setChallengeCookie(request, reply, challengeId);
      return { options: requestOptions };
    },
  );

  app.post(
    '/api/auth/passkey/sign-in/verify',
    {
      schema: { body: PasskeySignInBodySchema, response: { 200: UserResponseSchema, ...errors } },
      config: { access: 'anyone', changesState: true, limit: 'login' },
    },
    async (request, reply) => {
      const grant = await finishPasskeySignIn(
        { db: app.db, graceDays: options.graceDays },
        {
          rp: relyingParty(),
          challengeId: takeChallengeId(request, reply),
          response: request.body.response,
          leaving: await request.getSession(),
        },
      );
      const sessionId = await app.sessions.signIn(request, reply, { ...grant, method: 'passkey' });
      return { user: toUser(grant.userId, await findSessionUser(app, grant.userId, sessionId)) };
    },
  );

  app.get(
    '/api/account/passkeys',
    {
      schema: { response: { 200: PasskeysResponseSchema, ...errors } },
      config: { access: 'signed-in', changesState: false },
    },
    async (request) => {
      const account = accountOf(request);
      return { passkeys: await listPasskeys(app, account.userId) };
    },
  );

  const PasskeyParams = Type.Object({ id: Type.String({ pattern: UUID_PATTERN.source }) });

  app.patch(
    '/api/account/passkeys/:id',
    {
      schema: {
        params: PasskeyParams,
        body: PasskeyRenameBodySchema,
        response: { 200: PasskeysResponseSchema, ...errors },
      },
      config: { access: 'signed-in', changesState: true },
    },
    async (request) => {
      const account = accountOf(request);
      return {
        passkeys: await renamePasskey(app, {
          userId: account.userId,
          id: request.params.id,
          name: request.body.name,
        }),
      };
    },
  );

  app.delete(
    '/api/account/passkeys/:id',
    {
      schema: { params: PasskeyParams, response: { 200: PasskeysResponseSchema, ...errors } },
      config: { access: 'signed-in', changesState: true },
    },
    async (request) => {
      const account = accountOf(request);
      return {
        passkeys: await removePasskey(app, { userId: account.userId, id: request.params.id }),
      };
    },
  );
};

export default passkeyRoutes;

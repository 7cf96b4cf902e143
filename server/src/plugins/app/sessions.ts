import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../../http/errors.js';
import {
  createSessionTokens,
  needsRefresh,
  SESSION_TTL_SECONDS,
} from '../../sessions/session-token.js';
import {
  createUserSession,
  LAST_SEEN_RESOLUTION_MS,
  touchUserSession,
} from '../../sessions/user-sessions.js';
import type { Session } from '../../sessions/session.js';
import { findSessionUser } from '../../users/users.js';
import type { SignInMethod } from '../../../../contract/sign-in-methods.js';

export const SESSION_COOKIE = 'cohort_session';

/** Who continues after a sign-in, a registration or a password change. */
export interface SignedInGrant {
  userId: string;
  sessionVersion: number;
  /** How the browser proved who it is: stored on the new session, shown on /account. */
  method: SignInMethod;
  /** Keep this session (a password change in this browser); otherwise a new one is made. */
  sessionId?: string | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: {
      /** A registered user's session: a `sessions` row (new unless kept) and its cookie. */
      signIn(request: FastifyRequest, reply: FastifyReply, grant: SignedInGrant): Promise<string>;
      /** A fresh anonymous session: a new user id, no database row. */
      startAnonymous(request: FastifyRequest, reply: FastifyReply): Promise<string>;
      end(reply: FastifyReply): void;
      /**
       * Whether the request carries a registered user's token (its signature and expiry only, no
       * database): how a page is drawn before the browser has asked who the visitor is.
       */
      carriesSignedInToken(request: FastifyRequest): Promise<boolean>;
    };
  }
  interface FastifyRequest {
    /** The request's valid session, or null. Verified once per request. */
    getSession(): Promise<Session | null>;
    /** The valid session, or a 401 `unauthenticated`. */
    requireSession(): Promise<Session>;
  }
}

/**
 * Sessions as signed JWT cookies. A token is a session only when it verifies, has not expired,
 * and matches its user: a registered user whose row is gone, whose session version moved on
 * (password reset), or whose session was ended (signed out here or from another browser) has
 * none. A token whose user has no row yet is an anonymous reader: stateless, nothing stored.
 */
export default fp(
  async function sessions(
    app: FastifyInstance,
    options: { secret: string; previousSecret?: string },
  ) {
    const tokens = createSessionTokens(options.secret, options.previousSecret);
    const cache = new WeakMap<FastifyRequest, Promise<Session | null>>();

    async function setCookie(
      request: FastifyRequest,
      reply: FastifyReply,
      userId: string,
      version: number,
      sessionId: string | null = null,
    ) {
      reply.setCookie(SESSION_COOKIE, await tokens.sign(userId, version, sessionId ?? undefined), {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
        maxAge: SESSION_TTL_SECONDS,
      });
    }

    async function readSession(request: FastifyRequest): Promise<Session | null> {
      const token = request.cookies[SESSION_COOKIE];
      if (!token) return null;
      const claims = await tokens.verify(token);
      if (!claims) return null;
      const user = await findSessionUser(app, claims.userId, claims.sessionId ?? null);
      if (!user) {
        // No row: an anonymous reader, unless the token was a registered user's (deleted since).
        if (claims.sessionVersion > 0 || claims.sessionId) return null;
        return {
          userId: claims.userId,
          user,
          sessionId: null,
          claims,
          reissue: claims.signedWithPrevious,
        };
      }
      if (user.sessionVersion !== claims.sessionVersion) return null;
      let sessionId: string | null = null;
      let reissue = claims.signedWithPrevious;
      if (user.email) {
        if (claims.sessionId) {
          if (!user.sessionSeenAt) return null; // signed out, here or elsewhere
          sessionId = claims.sessionId;
          if (Date.now() - user.sessionSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS) {
            touchUserSession(app, sessionId).catch((error: unknown) =>
              request.log.warn({ err: error }, 'could not record when a session was last seen'),
            );
          }
        } else {
          // A token from before sessions were stored: it becomes one, re-issued with its id.
          sessionId = await createUserSession(app, user.id, request.headers['user-agent'], {
            signedIn: false,
          });
          reissue = true;
        }
      }
      return { userId: claims.userId, user, sessionId, claims, reissue };
    }

    app.decorate('sessions', {
      async signIn(request, reply, grant) {
        const sessionId =
          grant.sessionId ??
          (await createUserSession(app, grant.userId, request.headers['user-agent'], {
            signedIn: true,
            method: grant.method,
          }));
        await setCookie(request, reply, grant.userId, grant.sessionVersion, sessionId);
        return sessionId;
      },
      async startAnonymous(request, reply) {
        const userId = randomUUID();
        await setCookie(request, reply, userId, 0);
        return userId;
      },
      end(reply) {
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
      },
      async carriesSignedInToken(request) {
        const token = request.cookies[SESSION_COOKIE];
        return token ? Boolean((await tokens.verify(token))?.sessionId) : false;
      },
    });

    app.decorateRequest('getSession', function getSession(this: FastifyRequest) {
      let session = cache.get(this);
      if (!session) {
        session = readSession(this);
        cache.set(this, session);
      }
      return session;
    });

    app.decorateRequest('requireSession', async function requireSession(this: FastifyRequest) {
      const session = await this.getSession();
      if (!session)
        throw new HttpError(
          401,
          'unauthenticated',
          'You need a session: reload the page to start one.',
        );
      return session;
    });

    // A session past half its life, signed with the previous key, or given its id gets a fresh
    // token on whatever response it is used in: rotating SESSION_SECRET loses nobody who visits
    // while SESSION_SECRET_PREVIOUS is still set.
    app.addHook('onSend', async (request, reply) => {
      // A session that could not be read (the database is away) was answered by the error
      // handler already: there is nothing to refresh, and rethrowing would bypass that answer.
      const session = cache.has(request) ? await cache.get(request)?.catch(() => null) : null;
      if (
        session &&
        (session.reissue || needsRefresh(session.claims)) &&
        !reply.hasHeader('set-cookie')
      ) {
        await setCookie(
          request,
          reply,
          session.userId,
          session.claims.sessionVersion,
          session.sessionId,
        );
      }
    });
  },
  { name: 'sessions', dependencies: ['database', 'cookie'] },
);

import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../../http/errors.js';
import {
  createSessionTokens,
  needsRefresh,
  SESSION_TTL_SECONDS,
  type SessionClaims,
} from '../../sessions/session-token.js';
import { findSessionUser, type SessionUserRow } from '../../users/users.js';

export const SESSION_COOKIE = 'cohort_session';

export interface Session {
  userId: string;
  /** The user's row, or null for an anonymous reader who has none yet. */
  user: SessionUserRow | null;
  claims: SessionClaims;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: {
      /** Issues a session for `userId` and sets its cookie on the reply. */
      start(
        request: FastifyRequest,
        reply: FastifyReply,
        userId: string,
        sessionVersion: number,
      ): Promise<void>;
      /** A fresh anonymous session: a new user id, no database row. */
      startAnonymous(request: FastifyRequest, reply: FastifyReply): Promise<string>;
      end(reply: FastifyReply): void;
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
 * Anonymous sessions as signed JWT cookies. A token is a session only when it verifies, has not
 * expired, and matches its user: a registered user whose row is gone, or whose session version
 * moved on (password change), has none. A token whose user has no row yet is an anonymous reader.
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
    ) {
      reply.setCookie(SESSION_COOKIE, await tokens.sign(userId, version), {
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
      const user = await findSessionUser(app, claims.userId);
      if (user ? user.sessionVersion !== claims.sessionVersion : claims.sessionVersion > 0) {
        return null;
      }
      return { userId: claims.userId, user, claims };
    }

    app.decorate('sessions', {
      start: setCookie,
      async startAnonymous(request, reply) {
        const userId = randomUUID();
        await setCookie(request, reply, userId, 0);
        return userId;
      },
      end(reply) {
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
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

    // A session past half its life gets a fresh token on whatever response it is used in.
    app.addHook('onSend', async (request, reply) => {
      // A session that could not be read (the database is away) was answered by the error
      // handler already: there is nothing to refresh, and rethrowing would bypass that answer.
      const session = cache.has(request) ? await cache.get(request)?.catch(() => null) : null;
      if (session && needsRefresh(session.claims) && !reply.hasHeader('set-cookie')) {
        await setCookie(request, reply, session.userId, session.claims.sessionVersion);
      }
    });
  },
  { name: 'sessions', dependencies: ['database', 'cookie'] },
);

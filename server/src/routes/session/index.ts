import type { FastifyInstance } from 'fastify';
import { ErrorResponseSchema } from '../../http/error-schema.js';
import { UserResponseSchema } from '../../users/user-schema.js';
import { toUserView } from '../../users/users.js';

export interface SessionRouteOptions {
  /** POST /api/session per client IP per minute. */
  sessionRateLimit: number;
}

export default async function sessionRoutes(app: FastifyInstance, options: SessionRouteOptions) {
  app.post(
    '/api/session',
    {
      schema: { response: { 200: UserResponseSchema, 429: ErrorResponseSchema } },
      config: { rateLimit: { max: options.sessionRateLimit, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const session = await request.getSession();
      if (session) return { user: toUserView(session.userId, session.user) };
      const userId = await app.sessions.startAnonymous(request, reply);
      return { user: toUserView(userId, null) };
    },
  );

  app.get(
    '/api/me',
    { schema: { response: { 200: UserResponseSchema, 401: ErrorResponseSchema } } },
    async (request) => {
      const session = await request.requireSession();
      return { user: toUserView(session.userId, session.user) };
    },
  );
}

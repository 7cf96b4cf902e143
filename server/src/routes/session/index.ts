import type { FastifyInstance } from 'fastify';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import { UserResponseSchema } from '../../../../contract/api.js';
import { sessionOf } from '../../plugins/app/route-access.js';
import { toUser } from '../../users/users.js';

export default async function sessionRoutes(app: FastifyInstance) {
  app.post(
    '/api/session',
    {
      schema: { response: { 200: UserResponseSchema, 429: ErrorResponseSchema } },
      config: { access: 'anyone', changesState: false, limit: 'session' },
    },
    async (request, reply) => {
      const session = await request.getSession();
      if (session) return { user: toUser(session.userId, session.user) };
      const userId = await app.sessions.startAnonymous(request, reply);
      return { user: toUser(userId, null) };
    },
  );

  app.get(
    '/api/me',
    {
      schema: { response: { 200: UserResponseSchema, 401: ErrorResponseSchema } },
      config: { access: 'session', changesState: false },
    },
    async (request) => {
      const session = sessionOf(request);
      return { user: toUser(session.userId, session.user) };
    },
  );
}

import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { SESSION_COOKIE } from '../../server/src/plugins/app/sessions.js';

/** A browser as the API sees it: a session cookie carried on every request. */
export interface Visitor {
  userId: string;
  cookie: string;
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  me(): Promise<{
    id: string;
    email: string | null;
    isSubscribed: boolean;
    membership: null | { plan: string; status: string; expiresAt: string };
  }>;
}

/** A new anonymous browser: the session POST /api/session starts. */
export async function newVisitor(app: FastifyInstance): Promise<Visitor> {
  const response = await app.inject({ method: 'POST', url: '/api/session' });
  const token = response.cookies.find((c) => c.name === SESSION_COOKIE)?.value;
  if (!token) throw new Error(`No session cookie: ${response.statusCode} ${response.body}`);
  return visitorWith(app, response.json().user.id, `${SESSION_COOKIE}=${token}`);
}

/** A browser holding `cookie`: a seeded member's, or the one an answer just set. */
export function visitorWith(app: FastifyInstance, userId: string, cookie: string): Visitor {
  const visitor: Visitor = {
    userId,
    cookie,
    request: (options) =>
      app.inject({ ...options, headers: { ...options.headers, cookie } } as InjectOptions),
    async me() {
      const me = await visitor.request({ method: 'GET', url: '/api/me' });
      if (me.statusCode !== 200) throw new Error(`/api/me: ${me.statusCode} ${me.body}`);
      return me.json().user;
    },
  };
  return visitor;
}

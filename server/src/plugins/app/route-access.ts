import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../../http/errors.js';
import { isMembershipActive } from '../../memberships/memberships.js';
import { DESK_ACCESS, requireDeskAccess, type DeskAccess } from '../../routes/desk/desk-access.js';
import type { Session } from '../../sessions/session.js';
import type { SessionUserRow } from '../../users/users.js';

/** What a refusal answers, where a route words it its own way (`config: { refusal }`). */
export interface Refusal {
  status?: 401 | 403;
  code?: string;
  message: string;
}

/**
 * Who may call a route, by name: every route of the app says it (`config: { access }`), and one
 * hook (below) holds each request to it before anything else of the request is read. These are
 * the public site's; the desk's are DESK_ACCESS's (routes/desk/desk-access.ts), which answer
 * anyone but staff the desk's 404, then the role's 403.
 */
export const PUBLIC_ACCESS = {
  anyone:
    'Anyone, with or without a session: what the route does is its own rule (a token, a key).',
  session: 'Any browser session, a reader without an account too (401 `unauthenticated`).',
  'signed-in':
    'A registered account (401 `unauthenticated`; without an account 403 `registration_required`).',
  'proven-address': 'A registered account whose address is proven (then 403 `address_unproven`).',
  member: 'A session whose membership is active, a paying member (403 `members_only`).',
  'metrics-token': 'The METRICS_TOKEN bearer token (404 when metrics are off, 401 without it).',
  'stripe-signature':
    'Stripe’s signature of the raw body: routes/webhooks/stripe.ts checks it, the one reader of the body as bytes (no hook before the body can).',
  'content-api-key':
    'An integration’s content key (`?key=`), which Ghost’s Content API checks (routes/ghost-api/content.ts).',
  'admin-api-token':
    'An Admin API token with the right the route names (`config: { ghostAccess }`), which Ghost’s Admin API’s gate checks in Ghost’s shape (routes/ghost-admin).',
} as const;

export type PublicAccess = keyof typeof PUBLIC_ACCESS;
export type Access = PublicAccess | DeskAccess;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (plugins/app/route-access.ts): every route of the app says it. */
    access?: Access;
    /**
     * Whether the route changes what the server keeps (a row, a mail sent, a payment begun): a GET
     * says false, a write true; the exceptions are listed, with why, in route-access.test.ts.
     */
    changesState?: boolean;
    /** The refusal's words on this route, where they are its own (its status and code too). */
    refusal?: Refusal;
    /** Payments must be on (STRIPE_SECRET_KEY…): else 503 `payments_not_configured`, first. */
    needsPayments?: boolean;
  }
  interface FastifyRequest {
    /** The session the access hook let in (routes declaring a session or an account); else null. */
    caller: Session | null;
  }
}

const isDeskAccess = (name: unknown): name is DeskAccess =>
  typeof name === 'string' && Object.hasOwn(DESK_ACCESS, name);
const isAccess = (name: unknown): name is Access =>
  isDeskAccess(name) || (typeof name === 'string' && Object.hasOwn(PUBLIC_ACCESS, name));

/** A registered account behind a request: its session and its user's row. */
export interface Account {
  userId: string;
  email: string;
  sessionId: string;
  user: SessionUserRow;
}

function accountOfSession(session: Session): Account | null {
  const { user, sessionId } = session;
  if (!user?.email || !sessionId) return null;
  return { userId: session.userId, email: user.email, sessionId, user };
}

const MEMBERS_ONLY = 'This is for members: join to have it.';

/**
 * The members' refusal, for a handler whose content decides who may have it (a members-only
 * audio file, whose post says so, not its route): worded as the `member` rule words it.
 */
export const membersOnlyRefusal = () => new HttpError(403, 'members_only', MEMBERS_ONLY);

function refuse(refusal: Refusal | undefined, status: 401 | 403, code: string, message: string) {
  return new HttpError(
    refusal?.status ?? status,
    refusal?.code ?? code,
    refusal?.message ?? message,
  );
}

/**
 * Holds the request to `access`, or throws the refusal: the hook's rule, and the rule a handler
 * asks when what it serves decides (a members-only newsletter issue). Answers the session let in.
 */
export async function requireAccess(
  request: FastifyRequest,
  access: PublicAccess,
  refusal?: Refusal,
): Promise<Session | null> {
  switch (access) {
    case 'metrics-token': {
      const token = request.server.config.metricsToken;
      if (!token) throw new HttpError(404, 'not_found', 'Metrics are off.');
      const expected = Buffer.from(`Bearer ${token}`);
      const given = Buffer.from(request.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new HttpError(
          401,
          'unauthenticated',
          'Metrics need the METRICS_TOKEN bearer token.',
          {
            'www-authenticate': 'Bearer',
          },
        );
      }
      return null;
    }
    case 'session':
    case 'signed-in':
    case 'proven-address':
    case 'member': {
      const session = await request.requireSession();
      if (access === 'member') {
        if (!isMembershipActive(session.user?.membership ?? null)) {
          throw refuse(refusal, 403, 'members_only', MEMBERS_ONLY);
        }
      } else if (access !== 'session') {
        const account = accountOfSession(session);
        if (!account) {
          throw refuse(refusal, 403, 'registration_required', 'Create an account first.');
        }
        if (access === 'proven-address' && !account.user.emailVerified) {
          throw refuse(
            refusal,
            403,
            'address_unproven',
            'Verify your address first: sign in with a link we mail to it ("Email me a sign-in link").',
          );
        }
      }
      return session;
    }
    default:
      return null;
  }
}

/** The session of a request whose route declares a session, an account or a member. */
export function sessionOf(request: FastifyRequest): Session {
  if (!request.caller) {
    throw new Error(
      `sessionOf(request) on ${request.method} ${request.routeOptions.url ?? request.url}, which declares no session`,
    );
  }
  return request.caller;
}

/** The account of a request whose route declares `signed-in` or `proven-address`. */
export function accountOf(request: FastifyRequest): Account {
  const account = accountOfSession(sessionOf(request));
  if (!account) {
    throw new Error(
      `accountOf(request) on ${request.method} ${request.routeOptions.url ?? request.url}, which declares no account`,
    );
  }
  return account;
}

/** A route as the app added it, its declarations read once every hook has had its say. */
export interface DeclaredRoute {
  method: string;
  url: string;
  config: RouteOptions['config'];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app with what it declares, once the app is ready (tests read it). */
    declaredRoutes(): DeclaredRoute[];
  }
}

function undeclared(route: RouteOptions): string | null {
  const config = route.config ?? {};
  const problems = [
    !isAccess(config.access) &&
      `config.access (${[...Object.keys(PUBLIC_ACCESS), ...Object.keys(DESK_ACCESS)].join(' | ')})`,
    typeof config.changesState !== 'boolean' && 'config.changesState (true | false)',
  ].filter(Boolean);
  return problems.length === 0
    ? null
    : `${[route.method].flat().join(',')} ${route.url} declares no ${problems.join(' and no ')}`;
}

/**
 * An `onRoute` hook for a scope whose routes a plugin adds without a say in their options (the
 * built client's files): it declares for each what the route does not declare itself.
 */
export function declareForAll(rules: { access: Access; changesState: boolean }) {
  return (route: RouteOptions) => {
    route.config = { ...rules, ...route.config };
  };
}

/**
 * Every route says who may call it and whether it changes state: this keeps the list of routes as
 * the app adds them (registered before any route), and a route that declares neither stops the app
 * from starting (checked once every scope's hooks have filled in what their area declares).
 */
export const declaredRoutes = fp(
  async function declaredRoutes(app: FastifyInstance) {
    const routes: RouteOptions[] = [];
    app.addHook('onRoute', (route) => {
      routes.push(route);
    });
    app.addHook('onReady', async () => {
      const problems = routes.map(undeclared).filter((problem) => problem !== null);
      if (problems.length > 0) {
        throw new Error(
          `Every route says who may call it and whether it changes state (plugins/app/route-access.ts):\n${problems.join('\n')}`,
        );
      }
    });
    app.decorate('declaredRoutes', () =>
      routes.flatMap((route) =>
        [route.method].flat().map((method) => ({ method, url: route.url, config: route.config })),
      ),
    );
  },
  { name: 'declared-routes' },
);

/**
 * The one access hook: each request is held to its route's `access` before its body is read (the
 * session's 401, an account's or a member's 403, the desk's 404 and its roles' 403), after what
 * every request goes through (the request log, the cross-site guard, the session). The caller is
 * put on the request for the handler (`sessionOf`, `accountOf`, `deskStaff`): no handler checks
 * again.
 */
export default fp(
  async function routeAccess(app: FastifyInstance) {
    app.decorateRequest('caller', null);
    app.decorateRequest('staff', null);
    app.addHook('onRequest', async function holdToAccess(request) {
      // An address no route has: the not-found handler's answer, whoever asks.
      if (request.is404) return;
      const { access, refusal, needsPayments } = request.routeOptions.config;
      // Payments off: what the site lacks comes first, whoever asks.
      if (needsPayments) request.server.requirePayments();
      // Every route declares one (checked at start-up): none is a mistake, refused all the same.
      if (!isAccess(access)) throw new Error(`${request.method} ${request.url}: no config.access`);
      if (isDeskAccess(access)) {
        const staff = await request.requireStaff();
        requireDeskAccess(staff, access);
        request.staff = staff;
        return;
      }
      request.caller = await requireAccess(request, access, refusal);
    });
  },
  { name: 'route-access', dependencies: ['sessions', 'declared-routes'] },
);

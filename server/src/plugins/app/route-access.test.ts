import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { HTTPMethods } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildMember, type Member } from '#test/factories';
import { createTestApp } from '#test/test-app';
import { useSite, type Caller } from '#test/with-site';
import { DESK_ACCESS } from '../../routes/desk/desk-access.js';
import { PUBLIC_ACCESS, type DeclaredRoute, type PublicAccess } from './route-access.js';

// Every route of the app says who may call it and whether it changes state (`config: { access,
// changesState }`), and one hook holds each request to it. These tests read every route the real
// app has, once every scope has had its say, and call each guarded one as every caller its access
// refuses. A GET that changes state, a write that does not, and a write open to anyone are each a
// choice made on purpose: they are listed here, with why, so a new one fails until it is.

const GHOST_CONTENT_PREFIXES = ['', '/v2', '/v3', '/v4', '/canary'];

/** GETs that change state and writes that do not, each with why. */
const STATE_EXCEPTIONS: Record<string, string> = {
  'GET /api/checkout/:id':
    'the return from Stripe’s Checkout asks Stripe whether it was paid and records the payment (the webhook brings the same)',
  'GET /api/newsletter/o/:file': 'a newsletter’s open pixel counts the open',
  'GET /api/newsletter/c/:token': 'a newsletter’s tracked link counts the click, then redirects',
  'POST /api/session': 'starts an anonymous session: a signed cookie, nothing kept',
  'POST /api/auth/register/preview': 'shows what a mailed link is for, using nothing up',
  'POST /api/auth/email-link/preview': 'shows what a mailed link is for, using nothing up',
  'POST /api/gifts/preview': 'shows a gift before its claim',
  'POST /api/billing-portal': 'asks Stripe for the billing portal’s address; nothing is kept',
  ...Object.fromEntries(
    GHOST_CONTENT_PREFIXES.map((prefix) => [
      `OPTIONS /ghost/api${prefix}/content/*`,
      'a browser’s CORS preflight',
    ]),
  ),
};

const SIGNING_IN = 'signing in or proving an address: a password, a mailed link or code, a passkey';
const MAILED_TOKEN = 'the signed token of a mailed link is the key';
const COMMENT_RULE =
  'the comment rule decides, per post and reader, in its own words (comments/comments.ts: COMMENTS, a proven address, membership, blocks)';

/** The routes that change state for anyone at all, each with why. */
const OPEN_WRITES: Record<string, string> = {
  'POST /api/events': 'the analytics beacon: a page view counted, no more (its limit: events)',
  'POST /api/newsletter/subscribe':
    'a sign-up by address: double opt-in mails a link, nothing else',
  'POST /api/newsletter/confirm': MAILED_TOKEN,
  'POST /api/newsletter/unsubscribe': `${MAILED_TOKEN} (RFC 8058: mail clients post without a session)`,
  'POST /api/newsletter/resubscribe': MAILED_TOKEN,
  'GET /api/newsletter/o/:file': MAILED_TOKEN,
  'GET /api/newsletter/c/:token': MAILED_TOKEN,
  'POST /api/comments/reply-mails/stop': `${MAILED_TOKEN} (RFC 8058)`,
  'POST /api/account/email/confirm': MAILED_TOKEN,
  'POST /api/auth/register/confirm': SIGNING_IN,
  'POST /api/auth/email-link': SIGNING_IN,
  'POST /api/auth/email-link/confirm': SIGNING_IN,
  'POST /api/auth/email-code/confirm': SIGNING_IN,
  'POST /api/auth/login': SIGNING_IN,
  'POST /api/auth/password-reset': SIGNING_IN,
  'POST /api/auth/password-reset/confirm': SIGNING_IN,
  'POST /api/auth/passkey/sign-in/options': SIGNING_IN,
  'POST /api/auth/passkey/sign-in/verify': SIGNING_IN,
  'POST /api/posts/:postId/comments': COMMENT_RULE,
  'PATCH /api/comments/:id': COMMENT_RULE,
  'DELETE /api/comments/:id': COMMENT_RULE,
  'POST /api/comments/:id/likes': COMMENT_RULE,
  'DELETE /api/comments/:id/likes': COMMENT_RULE,
  'POST /api/comments/:id/reports': COMMENT_RULE,
  'PATCH /api/account/profile': COMMENT_RULE,
};

const named = ({ method, url }: DeclaredRoute) => `${method} ${url}`;
const reads = (method: string) => method === 'GET' || method === 'HEAD';
/** The address a route's path stands for: each parameter filled in. */
const addressOf = (url: string) => url.replace(/:[A-Za-z]+/g, '1');

describe('the rules each route declares', () => {
  const site = useSite({ payments: true, built: true });
  let routes: DeclaredRoute[];
  beforeAll(() => {
    // HEAD is GET's twin, with GET's declaration.
    routes = site.app.declaredRoutes().filter(({ method }) => method !== 'HEAD');
  });

  it('say who may call every route, and whether it changes state', () => {
    // The listing is read right: every area is there, the built client's files among them.
    const urls = routes.map(({ url }) => url);
    for (const url of [
      '/api/me',
      '/api/desk/me',
      '/webhooks/stripe',
      '/ghost/api/content/posts/',
      '/ghost/api/admin/posts/',
      '/metrics',
      '/favicon.svg',
    ]) {
      expect(urls).toContain(url);
    }
    const accesses = [...Object.keys(PUBLIC_ACCESS), ...Object.keys(DESK_ACCESS)];
    const undeclared = routes
      .filter(
        ({ config }) =>
          !accesses.includes(`${config?.access}`) || typeof config?.changesState !== 'boolean',
      )
      .map(named);
    expect(undeclared).toEqual([]);
  });

  it('change state on writes and not on reads, but for the exceptions listed with why', () => {
    const exceptions = routes
      .filter(({ method, config }) => config?.changesState === reads(method))
      .map(named);
    expect(exceptions.sort()).toEqual(Object.keys(STATE_EXCEPTIONS).sort());
    for (const reason of Object.values(STATE_EXCEPTIONS)) expect(reason).not.toBe('');
  });

  it('let anyone change state only where listed with why', () => {
    const open = routes
      .filter(({ config }) => config?.access === 'anyone' && config.changesState)
      .map(named);
    expect(open.sort()).toEqual(Object.keys(OPEN_WRITES).sort());
  });
});

describe('the access hook', () => {
  const site = useSite({ payments: true });
  let visitor: Caller;
  let unproven: Member;

  beforeAll(async () => {
    const started = await site.call(null, 'POST', '/api/session');
    const cookie = [started.headers['set-cookie']].flat()[0]?.split(';')[0];
    if (!cookie) throw new Error('POST /api/session set no cookie');
    visitor = { cookie };
    unproven = await buildMember(site);
    await site.database.pool.query(`UPDATE users SET "emailVerifiedAt" = NULL WHERE id = $1`, [
      unproven.userId,
    ]);
  });

  /** The refusal `access` gives each caller, as [status, code, message?]; null: let through. */
  function refusalsOf(route: DeclaredRoute) {
    const access = route.config?.access as PublicAccess;
    const own = route.config?.refusal;
    const account = [own?.status ?? 403, own?.code ?? 'registration_required', own?.message];
    const member = [own?.status ?? 403, own?.code ?? 'members_only', own?.message];
    const unauthenticated = [401, 'unauthenticated', undefined];
    switch (access) {
      case 'session':
        return { 'no session': unauthenticated };
      case 'signed-in':
        return { 'no session': unauthenticated, 'a visitor': account };
      case 'proven-address':
        return {
          'no session': unauthenticated,
          'a visitor': account,
          'an unproven account': [403, 'address_unproven', undefined],
        };
      case 'member':
        return {
          'no session': unauthenticated,
          'a visitor': member,
          'an unproven account': member,
        };
      default:
        return {};
    }
  }

  it('refuses each caller what the route does not allow, before it reads the body', async () => {
    const callers = { 'no session': null, 'a visitor': visitor, 'an unproven account': unproven };
    let refused = 0;
    const guarded = site.app
      .declaredRoutes()
      .filter(({ method, url }) => method !== 'HEAD' && !url.startsWith('/api/desk/'));
    for (const route of guarded) {
      for (const [who, [status, code, message]] of Object.entries(refusalsOf(route))) {
        const { method, url } = route;
        const body = method === 'GET' || method === 'DELETE' ? undefined : '{"not json';
        const caller = callers[who as keyof typeof callers];
        const response = await site.call(caller, method as HTTPMethods, addressOf(url), body);
        expect({ route: named(route), who, status: response.statusCode }).toEqual({
          route: named(route),
          who,
          status,
        });
        expect(response.json().error.code, `${named(route)} for ${who}`).toBe(code);
        if (message) expect(response.json().error.message).toBe(message);
        refused += 1;
      }
    }
    // The account's and the money's routes, the newsletter's subscription, the perks.
    expect(refused).toBeGreaterThan(40);
  });

  it('hands the handler its caller: the account’s own sessions, a visitor’s own payments', async () => {
    const member = await buildMember(site);
    const sessions = await site.call(member, 'GET', '/api/account/sessions');
    expect(sessions.statusCode).toBe(200);
    expect(sessions.json().sessions).toEqual([
      expect.objectContaining({ id: member.sessionId, current: true }),
    ]);
    const visitorPayments = await site.call(visitor, 'GET', '/api/account/payments');
    expect(visitorPayments.json()).toEqual({ payments: [] });
  });

  it('is the only check: no route file asks for a session or an account by hand', async () => {
    const routesDir = join(import.meta.dirname, '../../routes');
    // A refusal written by hand: a session asked for, or an account's or a member's 401 or 403.
    const checks =
      /\brequireSession\(|HttpError\(\s*40[13],\s*'(registration_required|sign_in_required|members_only|address_unproven|unauthenticated)'/g;
    const found: string[] = [];
    for (const entry of await readdir(routesDir, { recursive: true })) {
      if (!entry.endsWith('.ts') || entry.endsWith('.test.ts')) continue;
      const file = join(routesDir, entry);
      const text = await readFile(file, 'utf8');
      for (const match of text.matchAll(checks)) {
        const line = text.slice(0, match.index).split('\n').length;
        found.push(`${relative(routesDir, file)}:${line}: ${match[0]}`);
      }
    }
    expect(found).toEqual([]);
  });
});

describe('a route that does not declare its rules', () => {
  it('stops the app from starting, naming it', async () => {
    await expect(
      createTestApp({
        configure: (app) => {
          app.post('/test/undeclared', async () => ({}));
          app.get('/test/half-declared', { config: { access: 'anyone' } }, async () => ({}));
        },
      }),
    ).rejects.toThrow(
      /POST \/test\/undeclared declares no config\.access .* and no config\.changesState[\s\S]*GET \/test\/half-declared declares no config\.changesState/,
    );
  });
});

import { randomUUID } from 'node:crypto';
import { decodeProtectedHeader, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SESSION_SECRET } from '#test/test-app';
import { withSite, type Site } from '#test/with-site';
import { SESSION_COOKIE } from '../../plugins/app/sessions.js';
import { createSessionTokens, SESSION_TTL_SECONDS } from '../../sessions/session-token.js';

const OTHER_SECRET = 'another-secret-that-is-also-long-enough-9876543210';
const tokens = createSessionTokens(TEST_SESSION_SECRET);
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function currentKeyId(): Promise<string> {
  return decodeProtectedHeader(await tokens.sign(randomUUID(), 0)).kid ?? '';
}

/** A token signed with the real key but with claims of the test's choosing. */
async function craftToken(claims: { sub: string; sv?: number; iat: number; exp: number }) {
  return new SignJWT({ sv: claims.sv ?? 0 })
    .setProtectedHeader({ alg: 'HS256', kid: await currentKeyId() })
    .setSubject(claims.sub)
    .setIssuedAt(claims.iat)
    .setExpirationTime(claims.exp)
    .sign(new TextEncoder().encode(TEST_SESSION_SECRET));
}

const now = () => Math.floor(Date.now() / 1000);

describe('anonymous sessions', () => {
  let t: Site;
  beforeAll(async () => {
    t = await withSite();
  });
  afterAll(() => t?.close());

  const startSession = (headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/session', headers });
  const me = (cookie?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: cookie ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {},
    });
  const sessionCookie = (response: Awaited<ReturnType<typeof startSession>>) =>
    response.cookies.find((cookie) => cookie.name === SESSION_COOKIE);
  const countUsers = () => t.database.prisma.user.count();

  it('starts an anonymous session in an HttpOnly, SameSite=Lax cookie without writing a user row', async () => {
    const usersBefore = await countUsers();
    const response = await startSession();

    expect(response.statusCode).toBe(200);
    const { user } = response.json();
    expect(user).toEqual({
      id: expect.any(String),
      email: null,
      isSubscribed: false,
      membership: null,
    });
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    const cookie = sessionCookie(response);
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      maxAge: SESSION_TTL_SECONDS,
    });
    expect(cookie?.secure).toBeUndefined();
    expect(await countUsers()).toBe(usersBefore);
  });

  it('signs the token with HS256, a key id, the user id as sub, iat and a one-year exp', async () => {
    const token = sessionCookie(await startSession())?.value ?? '';
    const header = decodeProtectedHeader(token);
    expect(header).toMatchObject({ alg: 'HS256', kid: await currentKeyId() });
    const claims = await tokens.verify(token);
    expect(claims?.expiresAt).toBe((claims?.issuedAt ?? 0) + SESSION_TTL_SECONDS);
  });

  it('keeps a valid session: the same user, and no new cookie', async () => {
    const first = await startSession();
    const token = sessionCookie(first)?.value ?? '';
    const again = await startSession({ cookie: `${SESSION_COOKIE}=${token}` });

    expect(again.statusCode).toBe(200);
    expect(again.json().user.id).toBe(first.json().user.id);
    expect(sessionCookie(again)).toBeUndefined();
  });

  it('answers /api/me with the session user, and 401 without a session', async () => {
    const started = await startSession();
    const token = sessionCookie(started)?.value ?? '';

    const mine = await me(token);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual(started.json());

    const none = await me();
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({
      error: {
        code: 'unauthenticated',
        message: 'You need a session: reload the page to start one.',
      },
    });
  });

  it('reads an anonymous user who has a row (after a payment) as that user', async () => {
    const started = await startSession();
    const { id } = started.json().user;
    await t.database.prisma.user.create({ data: { id } });
    const response = await me(sessionCookie(started)?.value);
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toEqual({
      id,
      email: null,
      isSubscribed: false,
      membership: null,
    });
  });

  it('marks the cookie Secure when the request came over https through the trusted proxy', async () => {
    const viaProxy = await t.app.inject({
      method: 'POST',
      url: '/api/session',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(sessionCookie(viaProxy)?.secure).toBe(true);

    const spoofed = await t.app.inject({
      method: 'POST',
      url: '/api/session',
      remoteAddress: '203.0.113.7',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(sessionCookie(spoofed)?.secure).toBeUndefined();
  });

  describe('treats every bad token as no session', () => {
    const cases: [string, () => Promise<string>][] = [
      ['garbage', async () => 'not-a-jwt'],
      ['an empty value', async () => ''],
      [
        'a token signed with another key',
        () => createSessionTokens(OTHER_SECRET).sign(randomUUID(), 0),
      ],
      [
        'an unsigned token (alg: none)',
        async () =>
          `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ sub: randomUUID(), sv: 0, iat: now(), exp: now() + 3600 })}.`,
      ],
      [
        'a token signed with HS512 under our key id',
        async () =>
          new SignJWT({ sv: 0 })
            .setProtectedHeader({ alg: 'HS512', kid: await currentKeyId() })
            .setSubject(randomUUID())
            .setIssuedAt()
            .setExpirationTime('1h')
            .sign(new TextEncoder().encode(TEST_SESSION_SECRET)),
      ],
      [
        'an expired token',
        () => craftToken({ sub: randomUUID(), iat: now() - 7200, exp: now() - 60 }),
      ],
      [
        'a token whose payload was changed after signing',
        async () => {
          const [header, , signature] = (await tokens.sign(randomUUID(), 0)).split('.');
          const forged = base64url({ sub: randomUUID(), sv: 0, iat: now(), exp: now() + 3600 });
          return `${header}.${forged}.${signature}`;
        },
      ],
      [
        'a token whose subject is not a user id',
        () => craftToken({ sub: "1' OR '1'='1", iat: now(), exp: now() + 3600 }),
      ],
      ['a registered user whose row is gone (account deleted)', () => tokens.sign(randomUUID(), 1)],
      [
        'a token far too long to be ours',
        async () => `${await tokens.sign(randomUUID(), 0)}${'a'.repeat(5000)}`,
      ],
    ];

    it.each(cases)(
      '%s: /api/me is 401, /api/session starts a fresh session',
      async (_name, make) => {
        const token = await make();
        const usersBefore = await countUsers();

        const response = await me(token);
        expect(response.statusCode).toBe(401);
        expect(response.json().error.code).toBe('unauthenticated');

        const fresh = await startSession({ cookie: `${SESSION_COOKIE}=${token}` });
        expect(fresh.statusCode).toBe(200);
        const cookie = sessionCookie(fresh);
        expect(cookie?.value).toBeTruthy();
        expect(cookie?.value).not.toBe(token);
        expect(await tokens.verify(cookie?.value ?? '')).toMatchObject({
          userId: fresh.json().user.id,
        });
        expect(await countUsers()).toBe(usersBefore);
      },
    );

    it('a token from before the user ended their sessions (password change)', async () => {
      const id = randomUUID();
      await t.database.prisma.user.create({
        data: { id, email: `${id}@example.com`, sessionVersion: 2 },
      });
      expect((await me(await tokens.sign(id, 1))).statusCode).toBe(401);
      const current = await me(await tokens.sign(id, 2));
      expect(current.statusCode).toBe(200);
      expect(current.json().user.email).toBe(`${id}@example.com`);
    });
  });

  it('re-issues a session past half its life, for the same user', async () => {
    const id = randomUUID();
    const issuedAt = now() - 200 * 24 * 3600;
    const old = await craftToken({ sub: id, iat: issuedAt, exp: issuedAt + SESSION_TTL_SECONDS });

    const response = await me(old);
    expect(response.statusCode).toBe(200);
    expect(response.json().user.id).toBe(id);
    const renewed = await tokens.verify(sessionCookie(response)?.value ?? '');
    expect(renewed?.userId).toBe(id);
    expect(renewed?.issuedAt).toBeGreaterThan(issuedAt);

    const young = await craftToken({
      sub: id,
      iat: now() - 3600,
      exp: now() + SESSION_TTL_SECONDS,
    });
    expect(sessionCookie(await me(young))).toBeUndefined();
  });
});

describe('session key rotation', () => {
  let t: Site;
  beforeAll(async () => {
    t = await withSite({
      env: { SESSION_SECRET: OTHER_SECRET, SESSION_SECRET_PREVIOUS: TEST_SESSION_SECRET },
    });
  });
  afterAll(() => t?.close());

  it('still accepts tokens signed with the previous secret, and signs new ones with the current', async () => {
    const id = randomUUID();
    const oldToken = await tokens.sign(id, 0);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: `${SESSION_COOKIE}=${oldToken}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.id).toBe(id);

    const fresh = await t.app.inject({ method: 'POST', url: '/api/session' });
    const token = fresh.cookies.find((c) => c.name === SESSION_COOKIE)?.value ?? '';
    expect(await createSessionTokens(OTHER_SECRET).verify(token)).not.toBeNull();
    expect(await tokens.verify(token)).toBeNull();
  });
});

describe('cross-site protection', () => {
  let t: Site;
  beforeAll(async () => {
    t = await withSite({ env: { SITE_URL: 'https://cohort.example' } });
  });
  afterAll(() => t?.close());

  const post = (headers: Record<string, string>, payload?: string) =>
    t.app.inject({ method: 'POST', url: '/api/session', headers, payload });

  it('refuses a state-changing request whose Origin is another site', async () => {
    const response = await post({ origin: 'https://evil.example' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      error: { code: 'cross_site_request', message: 'Requests from other sites are not allowed.' },
    });
    expect(response.cookies).toEqual([]);
    expect((await post({ origin: 'null' })).statusCode).toBe(403);
  });

  it('does not take the site’s name from X-Forwarded-Host, which any client can send', async () => {
    const forged = await post({
      origin: 'https://evil.example',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    });
    expect(forged.statusCode).toBe(403);
  });

  it('refuses a request the browser marks Sec-Fetch-Site: cross-site', async () => {
    expect((await post({ 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
  });

  it('accepts requests from the site itself', async () => {
    expect((await post({ origin: 'https://cohort.example' })).statusCode).toBe(200);
    expect((await post({ 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    expect((await post({})).statusCode).toBe(200);
  });

  it('accepts only JSON bodies, so a form on another site cannot post', async () => {
    const form = await post({ 'content-type': 'application/x-www-form-urlencoded' }, 'a=1');
    expect(form.statusCode).toBe(415);
    expect(form.json().error.code).toBe('unsupported_media_type');
    const text = await post({ 'content-type': 'text/plain' }, '{}');
    expect(text.statusCode).toBe(415);
    const json = await post({ 'content-type': 'application/json' }, '{}');
    expect(json.statusCode).toBe(200);
  });

  it('answers malformed JSON with a 400, not a 500', async () => {
    const response = await post({ 'content-type': 'application/json' }, '{"items": [');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_body');
  });

  it('lets reads through from anywhere', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('rate limit on starting sessions', () => {
  let t: Site;
  beforeAll(async () => {
    t = await withSite({ env: { SESSION_RATE_LIMIT: '3' } });
  });
  afterAll(() => t?.close());

  it('answers 429 with Retry-After once a client IP passes the limit, and counts IPs apart', async () => {
    const from = (ip: string) =>
      t.app.inject({ method: 'POST', url: '/api/session', remoteAddress: ip });
    for (let i = 0; i < 3; i += 1) expect((await from('198.51.100.1')).statusCode).toBe(200);

    const limited = await from('198.51.100.1');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error).toEqual({
      code: 'rate_limited',
      message: expect.stringMatching(/^Too many requests: try again in /),
    });
    expect(limited.cookies).toEqual([]);

    expect((await from('198.51.100.2')).statusCode).toBe(200);
  });
});

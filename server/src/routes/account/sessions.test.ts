import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember, uniqueEmail } from '#test/factories';
import { TEST_SESSION_SECRET } from '#test/test-app';
import { withSite, type Site } from '#test/with-site';
import { newVisitor } from '#test/visitor';
import { requestEmailChange } from '../../accounts/accounts.js';
import { SESSION_COOKIE } from '../../plugins/app/sessions.js';
import { createSessionTokens } from '../../sessions/session-token.js';

// A registered user's sessions are stored: signing out ends exactly that browser's session (its
// old cookie, replayed, is no session), another browser can be signed out from /account, and a
// password or email change signs out every other browser. Anonymous readers stay stateless.

const PASSWORD = 'correct horse battery';
// What a laptop's Chrome and an iPhone's Safari send.
const LAPTOP =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('sessions a user can end', () => {
  let t: Site;

  beforeAll(async () => {
    t = await withSite({ env: { LOGIN_RATE_LIMIT: '1000' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const cookieOf = (response: { cookies: { name: string; value: string }[] }) => {
    const value = response.cookies.find((c) => c.name === SESSION_COOKIE)?.value;
    if (!value) throw new Error('no session cookie in the answer');
    return `${SESSION_COOKIE}=${value}`;
  };
  const request = (
    cookie: string,
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
    userAgent = LAPTOP,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { cookie, 'user-agent': userAgent },
      ...(payload && { payload }),
    });
  const me = async (cookie: string) => (await request(cookie, 'GET', '/api/me')).statusCode;

  /** A registered account, and a second browser signed in to it. */
  async function account() {
    // Signed in on the laptop first.
    const email = uniqueEmail('sessions');
    const laptop = await buildMember(t, { email, password: PASSWORD, userAgent: LAPTOP });
    const fresh = await newVisitor(t.app);
    const signedIn = await request(
      fresh.cookie,
      'POST',
      '/api/auth/login',
      { email, password: PASSWORD },
      PHONE,
    );
    expect(signedIn.statusCode).toBe(200);
    return { email, userId: laptop.userId, laptop: laptop.cookie, phone: cookieOf(signedIn) };
  }

  it('signing out ends the session: the old cookie, replayed, answers 401', async () => {
    const { laptop, phone } = await account();
    const out = await request(laptop, 'POST', '/api/auth/logout');
    expect(out.statusCode).toBe(200);
    expect(await me(laptop)).toBe(401);
    expect(await me(phone)).toBe(200); // the other browser stays signed in
  });

  it('lists the signed-in browsers by name, this one marked, and signs another one out', async () => {
    const { laptop, phone } = await account();
    const listed = await request(laptop, 'GET', '/api/account/sessions');
    expect(listed.statusCode).toBe(200);
    const sessions = listed.json().sessions as {
      id: string;
      userAgent: string;
      browser: string | null;
      current: boolean;
    }[];
    expect(sessions.map((s) => [s.browser, s.userAgent, s.current]).sort()).toEqual([
      ['Chrome 131 on macOS', LAPTOP, true],
      ['Safari 17 on iPhone', PHONE, false],
    ]);
    const other = sessions.find((s) => !s.current);

    const ended = await request(laptop, 'POST', `/api/account/sessions/${other?.id}/end`);
    expect(ended.statusCode).toBe(200);
    expect(ended.json().sessions).toHaveLength(1);
    expect(await me(phone)).toBe(401);
    expect(await me(laptop)).toBe(200);

    // Another account's session, or this browser's own, cannot be ended here.
    const stranger = await account();
    const strangers = (await request(stranger.laptop, 'GET', '/api/account/sessions')).json()
      .sessions as { id: string }[];
    const foreign = await request(laptop, 'POST', `/api/account/sessions/${strangers[0]?.id}/end`);
    expect(foreign.statusCode).toBe(404);
    expect(await me(stranger.laptop)).toBe(200);
    const own = sessions.find((s) => s.current);
    expect((await request(laptop, 'POST', `/api/account/sessions/${own?.id}/end`)).statusCode).toBe(
      409,
    );
  });

  it('"sign out everywhere else" keeps only this browser', async () => {
    const { laptop, phone } = await account();
    const response = await request(laptop, 'POST', '/api/account/sessions/end-others');
    expect(response.statusCode).toBe(200);
    expect(response.json().sessions).toEqual([expect.objectContaining({ current: true })]);
    expect(await me(phone)).toBe(401);
    expect(await me(laptop)).toBe(200);
  });

  it('a password change signs out every other browser; this one continues', async () => {
    const { laptop, phone } = await account();
    const changed = await request(laptop, 'POST', '/api/auth/password', {
      currentPassword: PASSWORD,
      newPassword: 'another horse battery staple',
    });
    expect(changed.statusCode).toBe(200);
    expect(await me(phone)).toBe(401);
    const continued = cookieOf(changed);
    expect(await me(continued)).toBe(200);
    const sessions = (await request(continued, 'GET', '/api/account/sessions')).json().sessions;
    expect(sessions).toHaveLength(1);
  });

  it('a confirmed email change signs out every other browser', async () => {
    const { laptop, phone, userId } = await account();
    const asked = await request(laptop, 'POST', '/api/account/email', {
      email: uniqueEmail('sessions'),
      password: PASSWORD,
    });
    expect(asked.statusCode).toBe(202);
    expect(await me(phone)).toBe(200); // nothing changes before the confirmation
    // The link's token, as the mail to the new address carries it (only its hash is stored, so
    // this test makes the request through the same function and reads the token it returns).
    const change = await requestEmailChange(
      { db: t.database },
      {
        userId,
        sessionId: null,
        password: PASSWORD,
        email: uniqueEmail('sessions'),
      },
    );
    const confirmed = await request(laptop, 'POST', '/api/account/email/confirm', {
      token: change.token ?? '',
    });
    expect(confirmed.statusCode).toBe(200);
    expect(await me(phone)).toBe(401);
    expect(await me(laptop)).toBe(200);
  });

  it('stores nothing for anonymous readers', async () => {
    const before = await t.database.prisma.session.count();
    const visitor = await newVisitor(t.app);
    expect(await me(visitor.cookie)).toBe(200);
    expect(await t.database.prisma.session.count()).toBe(before);
    expect(await t.database.prisma.user.count({ where: { id: visitor.userId } })).toBe(0);
  });

  it('a signed-in token from before sessions were stored becomes a session on its next use', async () => {
    const { userId } = await account();
    const { sessionVersion } = await t.database.prisma.user.findUniqueOrThrow({
      where: { id: userId },
      select: { sessionVersion: true },
    });
    const legacy = `${SESSION_COOKIE}=${await createSessionTokens(TEST_SESSION_SECRET).sign(userId, sessionVersion)}`;
    const before = await t.database.prisma.session.count({ where: { userId } });
    const response = await request(legacy, 'GET', '/api/me');
    expect(response.statusCode).toBe(200);
    expect(await t.database.prisma.session.count({ where: { userId } })).toBe(before + 1);
    // The re-issued cookie names the new session, which signing out then ends.
    const upgraded = cookieOf(response);
    expect((await request(upgraded, 'POST', '/api/auth/logout')).statusCode).toBe(200);
    expect(await me(upgraded)).toBe(401);
  });
});

describe('rotating SESSION_SECRET', () => {
  const OLD_SECRET = 'o'.repeat(40);
  let t: Site;

  beforeAll(async () => {
    t = await withSite({ env: { SESSION_SECRET_PREVIOUS: OLD_SECRET } });
  });
  afterAll(() => t?.close());

  it('re-signs a token of the previous key with the current one on that response', async () => {
    const visitor = await newVisitor(t.app);
    const oldToken = await createSessionTokens(OLD_SECRET).sign(visitor.userId, 0);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: `${SESSION_COOKIE}=${oldToken}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.id).toBe(visitor.userId);
    const reissued = response.cookies.find((c) => c.name === SESSION_COOKIE)?.value ?? '';
    expect(reissued).not.toBe('');
    // The new token verifies with the current key alone: removing the previous key loses no one.
    const claims = await createSessionTokens(TEST_SESSION_SECRET).verify(reissued);
    expect(claims).toMatchObject({ userId: visitor.userId, signedWithPrevious: false });
  });
});

import type { LightMyRequestResponse } from 'fastify';
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember } from '#test/factories';
import { SoftAuthenticator } from '#test/soft-authenticator';
import { withSite, type Site } from '#test/with-site';
import { EARLY_ACCESS_OFFER } from '../../../../contract/constants.js';
import { SESSION_COOKIE } from '../../plugins/app/sessions.js';
import { PASSKEY_CHALLENGE_COOKIE } from './passkeys.js';

// Passkeys against the real SimpleWebAuthn verification, answered by a software authenticator:
// a passkey added to an account signs in elsewhere, a challenge answers once and for five minutes,
// and a bad body or a failed verification changes nothing.

const SITE_URL = 'https://cohort.example';
let counter = 0;
const uniqueEmail = () => `passkey${Date.now()}${(counter += 1)}@example.com`;

describe('passkeys', () => {
  let t: Site;

  beforeAll(async () => {
    t = await withSite({
      payments: true,
      env: {
        SITE_URL,
        LOGIN_RATE_LIMIT: '1000',
        ALLOW_INSECURE_SITE_URL: 'true',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A browser: keeps the cookies the server sets (and forgets those it clears). */
  function newBrowser(userAgent = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36') {
    const cookies = new Map<string, string>();
    const browser = {
      cookies,
      async request(
        method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
        url: string,
        payload?: unknown,
        extraHeaders: Record<string, string> = {},
      ): Promise<LightMyRequestResponse> {
        const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
        const raw = typeof payload === 'string';
        const response = await t.app.inject({
          method,
          url,
          headers: {
            'user-agent': userAgent,
            ...(cookie && { cookie }),
            ...(raw && { 'content-type': 'application/json' }),
            ...extraHeaders,
          },
          ...(payload !== undefined && { payload: payload as string | object }),
        });
        for (const set of response.cookies) {
          const cleared =
            set.value === '' || (set.expires !== undefined && set.expires.getTime() < Date.now());
          if (cleared) cookies.delete(set.name);
          else cookies.set(set.name, set.value);
        }
        return response;
      },
    };
    return browser;
  }
  type Browser = ReturnType<typeof newBrowser>;

  /** A browser signed in to an account of its own just now. */
  async function registeredBrowser(email = uniqueEmail()) {
    const member = await buildMember(t, { email });
    const browser = newBrowser();
    browser.cookies.set(SESSION_COOKIE, member.cookie.slice(`${SESSION_COOKIE}=`.length));
    return { browser, email: member.email, userId: member.userId };
  }

  async function addPasskey(browser: Browser, authenticator: SoftAuthenticator, name?: string) {
    const options = await browser.request('POST', '/api/auth/passkey/register/options');
    expect(options.statusCode, options.body).toBe(200);
    return browser.request('POST', '/api/auth/passkey/register/verify', {
      response: authenticator.register(options.json().options),
      ...(name !== undefined && { name }),
    });
  }

  async function signInOptions(browser: Browser) {
    const options = await browser.request('POST', '/api/auth/passkey/sign-in/options');
    expect(options.statusCode).toBe(200);
    return options.json().options as { challenge: string };
  }

  /** A registered account with one passkey, and a fresh browser to sign in from. */
  async function accountWithPasskey() {
    const account = await registeredBrowser();
    const authenticator = new SoftAuthenticator(SITE_URL);
    const added = await addPasskey(account.browser, authenticator);
    expect(added.statusCode, added.body).toBe(201);
    return { ...account, authenticator };
  }

  const passkeyRow = (credentialId: string) =>
    t.database.prisma.passkey.findUnique({
      where: { credentialId },
      select: { counter: true, lastUsedAt: true },
    });

  it('adds a passkey to a signed-in account, named after the browser, and lists it', async () => {
    const { browser, authenticator } = await accountWithPasskey();
    const listed = await browser.request('GET', '/api/account/passkeys');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().passkeys).toEqual([
      {
        id: expect.any(String),
        name: 'Chrome on Linux',
        createdAt: expect.any(String),
        lastUsedAt: null,
        synced: false,
      },
    ]);
    // Passed over in the next ceremony's options, so the same authenticator is not added twice.
    const again = await browser.request('POST', '/api/auth/passkey/register/options');
    expect(again.json().options.excludeCredentials).toEqual([
      { id: authenticator.id, type: 'public-key', transports: ['internal'] },
    ]);
  });

  it('signs in with the passkey in another browser, and moves that visitor’s membership along', async () => {
    const { userId, authenticator } = await accountWithPasskey();
    const phone = newBrowser('Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1');
    const visitor = (await phone.request('POST', '/api/session')).json().user.id as string;
    const event = t.stripe.event(
      'payment_intent.succeeded',
      t.stripe.paidPaymentIntent({ userId: visitor, offer: EARLY_ACCESS_OFFER }),
    );
    const { payload, headers } = t.stripe.signedDelivery(event);
    await t.app.inject({ method: 'POST', url: '/webhooks/stripe', payload, headers });

    const options = await signInOptions(phone);
    const signedIn = await phone.request('POST', '/api/auth/passkey/sign-in/verify', {
      response: authenticator.signIn(options),
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().user).toMatchObject({ id: userId, isSubscribed: true });
    expect((await phone.request('GET', '/api/me')).json().user.id).toBe(userId);
    expect(phone.cookies.has(PASSKEY_CHALLENGE_COOKIE)).toBe(false);
    const row = await passkeyRow(authenticator.id);
    expect(row?.counter).toBe(1n);
    expect(row?.lastUsedAt).toBeInstanceOf(Date);
  });

  it('refuses a sign-in answer sent a second time: its challenge was used', async () => {
    const { authenticator } = await accountWithPasskey();
    const phone = newBrowser();
    const options = await signInOptions(phone);
    const challengeCookie = phone.cookies.get(PASSKEY_CHALLENGE_COOKIE) ?? '';
    const body = { response: authenticator.signIn(options) };
    const first = await phone.request('POST', '/api/auth/passkey/sign-in/verify', body);
    expect(first.statusCode).toBe(200);

    // The same body with the same cookie, as an attacker who copied both would send them.
    phone.cookies.set(PASSKEY_CHALLENGE_COOKIE, challengeCookie);
    const replay = await phone.request('POST', '/api/auth/passkey/sign-in/verify', body);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.code).toBe('passkey_challenge_invalid');
  });

  it('refuses a challenge older than five minutes, and forgets it', async () => {
    const { authenticator } = await accountWithPasskey();
    const phone = newBrowser();
    const options = await signInOptions(phone);
    const challengeId = phone.cookies.get(PASSKEY_CHALLENGE_COOKIE) ?? '';
    await t.database.pool.query(
      `UPDATE passkey_challenges SET "expiresAt" = now() - interval '1 second' WHERE id = $1`,
      [challengeId],
    );
    const late = await phone.request('POST', '/api/auth/passkey/sign-in/verify', {
      response: authenticator.signIn(options),
    });
    expect(late.statusCode).toBe(400);
    expect(late.json().error.code).toBe('passkey_challenge_invalid');
    expect(await t.database.prisma.passkeyChallenge.count({ where: { id: challengeId } })).toBe(0);
    expect((await phone.request('GET', '/api/me')).statusCode).toBe(401); // no session came of it
  });

  it('a failed verification uses up its challenge and changes nothing', async () => {
    const { authenticator } = await accountWithPasskey();
    const phone = newBrowser();
    const options = await signInOptions(phone);
    const challengeCookie = phone.cookies.get(PASSKEY_CHALLENGE_COOKIE) ?? '';
    const forged = authenticator.signIn(options, {
      key: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey,
    });
    const refused = await phone.request('POST', '/api/auth/passkey/sign-in/verify', {
      response: forged,
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('passkey_not_verified');
    expect(await passkeyRow(authenticator.id)).toEqual({ counter: 0n, lastUsedAt: null });

    phone.cookies.set(PASSKEY_CHALLENGE_COOKIE, challengeCookie);
    const honest = await phone.request('POST', '/api/auth/passkey/sign-in/verify', {
      response: authenticator.signIn(options),
    });
    expect(honest.json().error.code).toBe('passkey_challenge_invalid');
  });

  it('refuses a counter that went back (a cloned authenticator)', async () => {
    const { authenticator } = await accountWithPasskey();
    const phone = newBrowser();
    const ahead = await phone.request('POST', '/api/auth/passkey/sign-in/verify', {
      response: authenticator.signIn(await signInOptions(phone), { counter: 5 }),
    });
    expect(ahead.statusCode).toBe(200);
    const behind = await phone.request('POST', '/api/auth/passkey/sign-in/verify', {
      response: authenticator.signIn(await signInOptions(phone), { counter: 3 }),
    });
    expect(behind.statusCode).toBe(401);
    expect(behind.json().error.code).toBe('passkey_not_verified');
    expect((await passkeyRow(authenticator.id))?.counter).toBe(5n);
  });

  it('refuses a passkey made for another site', async () => {
    const { browser } = await registeredBrowser();
    const options = await browser.request('POST', '/api/auth/passkey/register/options');
    const elsewhere = new SoftAuthenticator('https://evil.example');
    const refused = await browser.request('POST', '/api/auth/passkey/register/verify', {
      response: elsewhere.register(options.json().options),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('passkey_not_verified');
    expect((await browser.request('GET', '/api/account/passkeys')).json().passkeys).toEqual([]);
  });

  it('binds a registration challenge to the session that asked for it', async () => {
    const first = await registeredBrowser();
    const second = await registeredBrowser();
    const options = await first.browser.request('POST', '/api/auth/passkey/register/options');
    second.browser.cookies.set(
      PASSKEY_CHALLENGE_COOKIE,
      first.browser.cookies.get(PASSKEY_CHALLENGE_COOKIE) ?? '',
    );
    const refused = await second.browser.request('POST', '/api/auth/passkey/register/verify', {
      response: new SoftAuthenticator(SITE_URL).register(options.json().options),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('passkey_challenge_invalid');
  });

  it('adding a passkey needs an account, signed in within the last 12 hours', async () => {
    const visitor = newBrowser();
    await visitor.request('POST', '/api/session');
    const anonymous = await visitor.request('POST', '/api/auth/passkey/register/options');
    expect(anonymous.statusCode).toBe(403);
    expect(anonymous.json().error.code).toBe('registration_required');

    const { browser, userId } = await registeredBrowser();
    await t.database.pool.query(
      `UPDATE sessions SET "signedInAt" = now() - interval '13 hours' WHERE "userId" = $1`,
      [userId],
    );
    const stale = await browser.request('POST', '/api/auth/passkey/register/options');
    expect(stale.statusCode).toBe(403);
    expect(stale.json().error.code).toBe('sign_in_again');
  });

  it('renames a passkey, and a removed one signs in no more while sessions stay', async () => {
    const { browser, authenticator } = await accountWithPasskey();
    const [passkey] = (await browser.request('GET', '/api/account/passkeys')).json().passkeys as {
      id: string;
    }[];
    if (!passkey) throw new Error('no passkey listed');
    const renamed = await browser.request('PATCH', `/api/account/passkeys/${passkey.id}`, {
      name: '  Work laptop ',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().passkeys[0].name).toBe('Work laptop');

    const phone = newBrowser();
    const signedIn = await phone.request('POST', '/api/auth/passkey/sign-in/verify', {
      response: authenticator.signIn(await signInOptions(phone)),
    });
    expect(signedIn.statusCode).toBe(200);

    const removed = await browser.request('DELETE', `/api/account/passkeys/${passkey.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().passkeys).toEqual([]);
    // Removing a passkey ends nothing: the browser it signed in stays signed in.
    expect((await phone.request('GET', '/api/me')).statusCode).toBe(200);
    expect((await browser.request('GET', '/api/me')).statusCode).toBe(200);

    const laptop = newBrowser();
    const refused = await laptop.request('POST', '/api/auth/passkey/sign-in/verify', {
      response: authenticator.signIn(await signInOptions(laptop)),
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('passkey_not_recognized');
    const again = await browser.request('DELETE', `/api/account/passkeys/${passkey.id}`);
    expect(again.statusCode).toBe(404);
  });

  it('names a passkey as its owner typed it', async () => {
    const { browser } = await registeredBrowser();
    const added = await addPasskey(browser, new SoftAuthenticator(SITE_URL), 'Phone');
    expect(added.statusCode).toBe(201);
    expect(added.json().passkeys[0].name).toBe('Phone');
  });

  it('another account cannot rename or remove a passkey', async () => {
    const { browser } = await accountWithPasskey();
    const [passkey] = (await browser.request('GET', '/api/account/passkeys')).json().passkeys as {
      id: string;
    }[];
    const stranger = await registeredBrowser();
    const url = `/api/account/passkeys/${passkey?.id ?? ''}`;
    expect((await stranger.browser.request('PATCH', url, { name: 'Mine' })).statusCode).toBe(404);
    expect((await stranger.browser.request('DELETE', url)).statusCode).toBe(404);
    expect((await browser.request('GET', '/api/account/passkeys')).json().passkeys).toHaveLength(1);
  });

  describe('bad input is a 400 with a message, never a 500', () => {
    const cases: [string, string, unknown][] = [
      ['no body', '/api/auth/passkey/sign-in/verify', undefined],
      ['an empty object', '/api/auth/passkey/sign-in/verify', {}],
      ['a string for the response', '/api/auth/passkey/sign-in/verify', { response: 'x' }],
      [
        'ids that are not base64url',
        '/api/auth/passkey/sign-in/verify',
        {
          response: {
            id: 'not base64!',
            rawId: 'not base64!',
            type: 'public-key',
            response: { clientDataJSON: 'a', authenticatorData: 'a', signature: 'a' },
            clientExtensionResults: {},
          },
        },
      ],
      ['JSON that does not parse', '/api/auth/passkey/sign-in/verify', '{"response": '],
      ['no response', '/api/auth/passkey/register/verify', { name: 'x' }],
      [
        'a name too long',
        '/api/auth/passkey/register/verify',
        {
          name: 'x'.repeat(61),
          response: new SoftAuthenticator(SITE_URL).register({
            challenge: 'AAAA',
            rp: {},
            user: { id: 'AAAA' },
          }),
        },
      ],
    ];
    for (const [what, url, payload] of cases) {
      it(`${what}: ${url}`, async () => {
        const { browser } = await registeredBrowser();
        const response = await browser.request('POST', url, payload);
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().error.message).toEqual(expect.any(String));
      });
    }

    it('well-formed garbage, or an answer without a challenge, is refused as such', async () => {
      const { authenticator } = await accountWithPasskey();
      const phone = newBrowser();
      const noChallenge = await phone.request('POST', '/api/auth/passkey/sign-in/verify', {
        response: authenticator.signIn({ challenge: 'AAAA' }),
      });
      expect(noChallenge.statusCode).toBe(400);
      expect(noChallenge.json().error.code).toBe('passkey_challenge_invalid');

      const options = await signInOptions(phone);
      const answer = authenticator.signIn(options);
      const garbage = await phone.request('POST', '/api/auth/passkey/sign-in/verify', {
        response: { ...answer, response: { ...answer.response, clientDataJSON: 'AAAA' } },
      });
      expect(garbage.statusCode).toBe(401);
      expect(garbage.json().error.code).toBe('passkey_not_verified');
    });

    it('a rename to nothing, or of something that is not an id', async () => {
      const { browser } = await accountWithPasskey();
      const [passkey] = (await browser.request('GET', '/api/account/passkeys')).json().passkeys as {
        id: string;
      }[];
      const blank = await browser.request('PATCH', `/api/account/passkeys/${passkey?.id ?? ''}`, {
        name: '   ',
      });
      expect(blank.statusCode).toBe(400);
      expect(blank.json().error.code).toBe('invalid_name');
      const notAnId = await browser.request('DELETE', '/api/account/passkeys/not-an-id');
      expect(notAnId.statusCode).toBe(400);
    });
  });
});

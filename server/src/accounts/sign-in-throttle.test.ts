import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember, uniqueEmail } from '#test/factories';
import { withSite, type Site } from '#test/with-site';
import { createTestRedis, type TestRedis } from '#test/test-redis';
import { SIGN_IN_LIMITS } from './sign-in-throttle.js';

// Failed sign-ins slow guessing without letting anyone lock the owner out, with the counters in
// PostgreSQL (no Redis) and in Redis (shared by several app servers).

const PASSWORD = 'correct horse battery';
const WRONG = 'not the right password';

const stores = [
  { name: 'in PostgreSQL', redis: false },
  { name: 'in Redis', redis: true },
];

describe.each(stores)('sign-in counters $name', ({ redis }) => {
  let t: Site;
  let other: Site;
  let testRedis: TestRedis | undefined;

  beforeAll(async () => {
    testRedis = redis ? await createTestRedis() : undefined;
    const env = {
      LOGIN_RATE_LIMIT: '100000',
      ...(testRedis && { REDIS_URL: testRedis.url }),
    };
    t = await withSite({ env });
    // A second app server on its own database shares only what Redis holds.
    other = await withSite({ env });
  });
  afterAll(async () => {
    await t?.close();
    await other?.close();
    await testRedis?.drop();
  });

  const signIn = (app: Site, email: string, password: string, ip: string) =>
    app.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      remoteAddress: ip,
    });
  /**
   * `count` wrong guesses, five at a time as a guessing script sends them: each is refused as a
   * wrong password (401), and every one is counted, however they overlap.
   */
  async function guessAtOnce(count: number, guess: (index: number) => ReturnType<typeof signIn>) {
    for (let start = 0; start < count; start += 5) {
      const batch = Array.from({ length: Math.min(5, count - start) }, (_, k) => guess(start + k));
      expect((await Promise.all(batch)).map((answer) => answer.statusCode)).toEqual(
        batch.map(() => 401),
      );
    }
  }

  async function owner(ip: string) {
    const { email } = await buildMember(t, { email: uniqueEmail('throttle'), password: PASSWORD });
    // The owner has signed in from home before.
    expect((await signIn(t, email, PASSWORD, ip)).statusCode).toBe(200);
    return email;
  }

  it('wrong passwords from many addresses leave the owner’s sign-in from home working, at once', async () => {
    const email = await owner('192.0.2.1');
    // Eight past the threshold: any other address would wait eight steps (2 s) before its check.
    const over = 8;
    await guessAtOnce(SIGN_IN_LIMITS.slowAfter + over - 1, (i) =>
      signIn(t, email, WRONG, `198.51.100.${i + 1}`),
    );
    const started = performance.now();
    expect((await signIn(t, email, PASSWORD, '192.0.2.1')).statusCode).toBe(200);
    // Its own time (a password check, on a busy machine up to half a second), not that wait.
    expect(performance.now() - started).toBeLessThan(SIGN_IN_LIMITS.delayStepMs * over);
  });

  it('slows further tries for that email by a growing delay, never refusing them', async () => {
    const email = await owner('192.0.2.2');
    for (let i = 0; i < SIGN_IN_LIMITS.slowAfter + 2; i += 1) {
      expect((await signIn(t, email, WRONG, `198.51.101.${i + 1}`)).statusCode).toBe(401);
    }
    // Three past the threshold: a new address waits three steps, then the right password works.
    const started = performance.now();
    expect((await signIn(t, email, PASSWORD, '203.0.113.77')).statusCode).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(SIGN_IN_LIMITS.delayStepMs * 3);
    // The address the owner signed in from before does not wait those three steps.
    const home = performance.now();
    expect((await signIn(t, email, PASSWORD, '192.0.2.2')).statusCode).toBe(200);
    expect(performance.now() - home).toBeLessThan(SIGN_IN_LIMITS.delayStepMs * 3);
  });

  it('refuses an address that keeps guessing one account, and only that address', async () => {
    const email = await owner('192.0.2.3');
    await guessAtOnce(SIGN_IN_LIMITS.perEmailAndAddress, () =>
      signIn(t, email, WRONG, '198.51.102.1'),
    );
    const refused = await signIn(t, email, PASSWORD, '198.51.102.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(SIGN_IN_LIMITS.windowMs / 1000));
    expect((await signIn(t, email, PASSWORD, '192.0.2.3')).statusCode).toBe(200);
  });

  it('refuses an address that guesses many accounts', async () => {
    await guessAtOnce(SIGN_IN_LIMITS.perAddress, (i) =>
      signIn(t, `nobody${i}@example.com`, WRONG, '198.51.103.1'),
    );
    expect((await signIn(t, 'nobody-else@example.com', WRONG, '198.51.103.1')).statusCode).toBe(
      429,
    );
    expect((await signIn(t, 'nobody-else@example.com', WRONG, '198.51.103.2')).statusCode).toBe(
      401,
    );
  });

  it(
    redis
      ? 'counts across app servers sharing Redis'
      : 'keeps each app server’s counts in its own database',
    async () => {
      const email = uniqueEmail('throttle');
      await guessAtOnce(SIGN_IN_LIMITS.perEmailAndAddress, () =>
        signIn(t, email, WRONG, '198.51.104.1'),
      );
      expect((await signIn(other, email, WRONG, '198.51.104.1')).statusCode).toBe(
        redis ? 429 : 401,
      );
    },
  );
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNHEALTHY_AFTER_FAILED_CHECKS } from '../../server/src/routes/health/index.js';
import { buildMember } from '#test/factories';
import { withSite, type Site } from '#test/with-site';
import { TcpProxy } from '#test/tcp-proxy';
import { createTestRedis, type TestRedis } from '#test/test-redis';

/**
 * A database or a Redis that stops answering without closing anything (packets dropped, a hung
 * server): the connections stay open and silent. Requests must fail fast, never hang, and the
 * app must come back by itself when the network does.
 */

const FAIL_FAST_MS = 5_000;

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

describe('a database that stops answering', () => {
  let proxy: TcpProxy;
  let t: Site;

  beforeAll(async () => {
    t = await withSite({
      maxConnections: 4,
      connectThrough: async (url) => {
        const proxied = await TcpProxy.forUrl(url);
        proxy = proxied.proxy;
        return proxied.url;
      },
    });
  });
  afterAll(async () => {
    proxy?.resume();
    await t?.close();
    await proxy?.cut();
  });

  it('answers 503 within 5 s while it is stalled, /healthz follows, and all recovers', async () => {
    const { cookie } = await buildMember(t, { email: `stall${Date.now()}@example.com` });
    const me = () => t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect((await me()).statusCode).toBe(200);

    proxy.stall();
    // More requests than pooled connections: the ones waiting for a connection fail fast too.
    const during = await Promise.all(Array.from({ length: 8 }, () => timed(me)));
    for (const { result, ms } of during) {
      expect(result.statusCode, result.body).toBe(503);
      expect(result.json().error.code).toBe('service_unavailable');
      expect(result.headers['retry-after']).toBeDefined();
      expect(ms).toBeLessThan(FAIL_FAST_MS);
    }
    const ready = await timed(() => t.app.inject({ method: 'GET', url: '/readyz' }));
    expect(ready.result.statusCode).toBe(503);
    expect(ready.ms).toBeLessThan(FAIL_FAST_MS);

    // The process check turns unhealthy after a few checks in a row, so it would be restarted.
    const healthz: number[] = [];
    for (let i = 0; i < UNHEALTHY_AFTER_FAILED_CHECKS && healthz.at(-1) !== 503; i += 1) {
      healthz.push((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode);
    }
    expect(healthz.at(-1)).toBe(503);

    proxy.resume();
    await expect.poll(async () => (await me()).statusCode, { timeout: 10_000 }).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await me()).json().user.email).toMatch(/^stall/);
  });
});

describe('a Redis that stops answering', () => {
  let proxy: TcpProxy;
  let redis: TestRedis;
  let t: Site;

  beforeAll(async () => {
    redis = await createTestRedis();
    const proxied = await TcpProxy.forUrl(redis.url);
    proxy = proxied.proxy;
    t = await withSite({
      captureLogs: true,
      env: { REDIS_URL: proxied.url, LOG_LEVEL: 'info' },
    });
  });
  afterAll(async () => {
    proxy?.resume();
    await t?.close();
    await proxy?.cut();
    await redis?.drop();
  });

  it('lets sessions and sign-ins through within a second or two, and warns the operator', async () => {
    const email = `redis${Date.now()}@example.com`;
    await buildMember(t, { email, password: 'correct horse battery' });

    proxy.stall();
    const session = await timed(() => t.app.inject({ method: 'POST', url: '/api/session' }));
    expect(session.result.statusCode).toBe(200);
    expect(session.ms).toBeLessThan(2_000);
    const login = await timed(() =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: 'correct horse battery' },
      }),
    );
    expect(login.result.statusCode, login.result.body).toBe(200);
    expect(login.ms).toBeLessThan(3_000);

    const warnings = () =>
      t
        .logs()
        .filter((line) => line.level === 40)
        .map((line) => line.msg);
    expect(warnings()).toContain('sign-in counters unavailable: not throttling this attempt');
    await expect
      .poll(warnings, { timeout: 8_000 })
      .toContainEqual(expect.stringMatching(/^Redis is not answering within 500 ms/));

    proxy.resume();
    await expect
      .poll(() => t.logs().map((line) => line.msg), { timeout: 8_000 })
      .toContain('Redis answers again: rate limits and sign-in counters are back');
  });
});

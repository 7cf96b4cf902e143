import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSite, type Site } from '#test/with-site';
import { createTestRedis, type TestRedis } from '#test/test-redis';

const startSession = (t: Site, ip: string) =>
  t.app.inject({ method: 'POST', url: '/api/session', remoteAddress: ip });

describe('rate limits shared through Redis', () => {
  let redis: TestRedis;
  let first: Site;
  let second: Site;
  beforeAll(async () => {
    redis = await createTestRedis();
    const env = { REDIS_URL: redis.url, SESSION_RATE_LIMIT: '4' };
    [first, second] = await Promise.all([withSite({ env }), withSite({ env })]);
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
    await redis?.drop();
  });

  it('counts one limit for a client IP across two app servers', async () => {
    const ip = '203.0.113.10';
    const remaining: string[] = [];
    for (const t of [first, second, first, second]) {
      const response = await startSession(t, ip);
      expect(response.statusCode).toBe(200);
      remaining.push(String(response.headers['x-ratelimit-remaining']));
    }
    expect(remaining).toEqual(['3', '2', '1', '0']);

    for (const t of [first, second]) {
      const limited = await startSession(t, ip);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('rate_limited');
    }
    expect((await startSession(second, '203.0.113.11')).statusCode).toBe(200);
  });
});

describe('rate limits when Redis is unreachable', () => {
  let t: Site;
  beforeAll(async () => {
    // Port 1 refuses connections: the app starts anyway, after a bounded wait.
    t = await withSite({
      env: { REDIS_URL: 'redis://127.0.0.1:1', SESSION_RATE_LIMIT: '1' },
    });
  });
  afterAll(() => t?.close());

  it('lets requests through instead of failing them', async () => {
    for (let i = 0; i < 3; i += 1) {
      expect((await startSession(t, '203.0.113.20')).statusCode).toBe(200);
    }
  });
});

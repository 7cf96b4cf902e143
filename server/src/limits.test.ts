import diagnostics from 'node:diagnostics_channel';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Fastify, {
  type FastifyContextConfig,
  type FastifyInstance,
  type RouteOptions,
} from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSite, type Site } from '#test/with-site';
import { parseConfig } from './config.js';
import { LIMITS } from './limits.js';
import rateLimiting from './plugins/external/rate-limit.js';

const serverSource = new URL('.', import.meta.url).pathname;

/** A route's limit as its file declared it, and its options once every onRoute hook has run. */
interface SeenRoute {
  name: string;
  declared: Pick<FastifyContextConfig, 'limit' | 'rateLimit'>;
  route: RouteOptions;
}

describe('the limits table', () => {
  it('reads the *_RATE_LIMIT variables into their rows, keeping every window and other row', () => {
    expect(parseConfig({}).limits).toEqual(LIMITS);
    const { limits } = parseConfig({
      SESSION_RATE_LIMIT: '7',
      LOGIN_RATE_LIMIT: '3',
      ACCOUNT_RATE_LIMIT: '4',
      NEWSLETTER_RATE_LIMIT: '5',
      EVENTS_RATE_LIMIT: '6',
    });
    expect(limits).toEqual({
      ...LIMITS,
      session: { max: 7, timeWindow: '1 minute' },
      login: { max: 3, timeWindow: '1 minute' },
      account: { max: 4, timeWindow: '10 minutes' },
      newsletter: { max: 5, timeWindow: '10 minutes' },
      events: { max: 6, timeWindow: '1 minute' },
    });
  });

  it('is the only place a rate limit is written: no route file has settings of its own', async () => {
    const files = (await readdir(serverSource, { recursive: true })).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
    );
    const ownSettings = /\brateLimit\s*:|\btimeWindow\b|\.rateLimit\(|\bcreateRateLimit\b/;
    const writers: string[] = [];
    for (const file of files) {
      if (ownSettings.test(await readFile(join(serverSource, file), 'utf8'))) writers.push(file);
    }
    expect(files.length).toBeGreaterThan(100);
    // The table, and the hook that turns a route's name into @fastify/rate-limit's settings.
    expect(writers.sort()).toEqual(['limits.ts', join('plugins', 'external', 'rate-limit.ts')]);
  });
});

describe("every route's rate limit", () => {
  let t: Site;
  const seen: SeenRoute[] = [];
  beforeAll(async () => {
    // Fastify announces each new instance here before any plugin runs, so this hook sees every
    // route as its file declared it, before the limits hook does.
    const collect = ({ fastify }: { fastify: FastifyInstance }) =>
      fastify.addHook('onRoute', (route) => {
        const { limit, rateLimit } = route.config ?? {};
        seen.push({
          name: `${String(route.method)} ${route.url}`,
          declared: { limit, rateLimit },
          route,
        });
      });
    const channel = diagnostics.channel('fastify.initialization');
    channel.subscribe(collect as (message: unknown) => void);
    try {
      t = await withSite({ env: { SESSION_RATE_LIMIT: '7' } });
    } finally {
      channel.unsubscribe(collect as (message: unknown) => void);
    }
  });
  afterAll(() => t?.close());

  it("is the row its route names, and every row of the table is some route's", () => {
    expect(seen.filter(({ declared }) => declared.rateLimit !== undefined)).toEqual([]);
    const used = new Set<string>();
    for (const { name, declared, route } of seen) {
      if (declared.limit === undefined) {
        expect(route.config?.rateLimit, name).toBeUndefined();
        continue;
      }
      used.add(declared.limit);
      expect(Object.keys(LIMITS), name).toContain(declared.limit);
      expect(route.config?.rateLimit, name).toEqual(t.config.limits[declared.limit]);
    }
    expect(Object.keys(LIMITS).filter((name) => !used.has(name))).toEqual([]);
    const limitOf = (name: string) => seen.find((route) => route.name === name)?.declared.limit;
    expect(limitOf('POST /api/session')).toBe('session');
    expect(t.config.limits.session).toEqual({ max: 7, timeWindow: '1 minute' });
    expect(limitOf('POST /api/auth/login')).toBe('login');
    expect(limitOf('HEAD /api/newsletter/issues/:slug')).toBe('newsletter-issues');
  });
});

describe('the limits hook', () => {
  const appWith = (config: object) => {
    const app = Fastify();
    void app.register(rateLimiting, { limits: LIMITS });
    void app.register(async (scope) => {
      scope.get('/thing', { config }, async () => ({ ok: true }));
    });
    return app;
  };

  it('stops the app from starting on a name the table does not have', async () => {
    const app = appWith({ limit: 'logn' });
    await expect(app.ready()).rejects.toThrow('GET /thing: no rate limit "logn" in LIMITS');
    await app.close();
  });

  it('stops the app from starting on a route that writes its own numbers', async () => {
    const app = appWith({ rateLimit: { max: 5, timeWindow: '1 minute' } });
    await expect(app.ready()).rejects.toThrow('GET /thing: a route names its rate limit');
    await app.close();
  });

  it("limits a GET and its HEAD by the named row's numbers", async () => {
    const app = appWith({ limit: 'password-reset' });
    for (const method of ['GET', 'HEAD'] as const) {
      const statuses = [];
      for (let i = 0; i < 6; i += 1) {
        statuses.push((await app.inject({ method, url: '/thing' })).statusCode);
      }
      expect(statuses, method).toEqual([200, 200, 200, 200, 200, 429]);
    }
    await app.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSite, type Site } from '#test/with-site';
import { TcpProxy } from '#test/tcp-proxy';
import { createMigratedTestDatabase, type TestDatabase } from '#test/test-database';
import { buildApp } from '../../app.js';
import { createDatabase } from '../../db/database.js';
import { UNHEALTHY_AFTER_FAILED_CHECKS } from './index.js';
import { testConfig } from '#test/test-app';

describe('health endpoints', () => {
  let testApp: Site;
  beforeAll(async () => {
    testApp = await withSite();
  });
  afterAll(() => testApp?.close());

  it('answers /healthz with 200 while the process is up', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz with 200 when the database answers', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    // No Stripe keys here: payments are reported off, and the site is ready all the same.
    expect(response.json()).toEqual({ status: 'ready', payments: { state: 'off' } });
  });
});

describe('/readyz around a database outage', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    database = await createMigratedTestDatabase();
    const proxied = await TcpProxy.forUrl(database.url);
    proxy = proxied.proxy;
    app = await buildApp(testConfig(), {
      database: createDatabase(proxied.url, { maxConnections: 1, embedded: database.embedded }),
      clientDir: '/nonexistent-client-dir',
    });
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.cut();
    await database?.drop();
  });

  it('goes 200 → 503 while the database is away → 200 again without a restart, and /healthz follows after three failed checks', async () => {
    const ready = () => app.inject({ method: 'GET', url: '/readyz' });
    expect((await ready()).statusCode).toBe(200);

    await proxy.cut();
    const started = Date.now();
    const during = await ready();
    expect(during.statusCode).toBe(503);
    expect(during.json()).toEqual({
      error: { code: 'database_unavailable', message: 'The database is not answering.' },
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    // Alive through a blip; unhealthy (so restarted) after a few failed checks in a row.
    const healthz = () => app.inject({ method: 'GET', url: '/healthz' });
    expect((await healthz()).statusCode).toBe(200);
    const third = await healthz();
    expect(third.statusCode).toBe(503);
    expect(third.json()).toEqual({
      error: {
        code: 'database_unavailable',
        message: `The database has not answered ${UNHEALTHY_AFTER_FAILED_CHECKS} checks in a row.`,
      },
    });

    await proxy.restore();
    await expect.poll(async () => (await ready()).statusCode, { timeout: 10_000 }).toBe(200);
    expect((await healthz()).statusCode).toBe(200);
  });
});

import { once } from 'node:events';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNginx, startNginxStack, type NginxStack } from '#test/nginx';
import { createMigratedTestDatabase, type TestDatabase } from '#test/test-database';

/**
 * A rolling restart behind the shipped nginx.conf, as an upgrade does it: one replica at a time is
 * stopped (SIGTERM) and replaced, the next only once nginx sends the new one traffic. Readers'
 * requests keep flowing throughout, and not one GET fails. Then, with no app up at all, nginx
 * answers 503 in the app's JSON shape with Retry-After.
 */

const nginxBinary = findNginx();

describe.skipIf(!nginxBinary)('a rolling restart of two app servers behind nginx', () => {
  let database: TestDatabase;
  let stack: NginxStack | undefined;

  beforeAll(async () => {
    database = await createMigratedTestDatabase();
    stack = await startNginxStack({ env: { DATABASE_URL: database.url }, accessLog: true });
  });
  afterAll(async () => {
    await stack?.stop();
    await database?.drop();
  });

  /** How many requests nginx has sent to the app on `port` so far. */
  async function requestsTo(port: number): Promise<number> {
    const log = (await stack?.accessLog()) ?? '';
    return log.split('\n').filter((line) => line.split(' ')[2]?.endsWith(`:${port}`)).length;
  }

  it('loses no GET while each replica in turn is stopped and replaced', async () => {
    if (!stack) throw new Error('no stack');
    const statuses = new Map<number, number>();
    let errors = 0;
    const load = autocannon(
      {
        url: stack.url,
        connections: 8,
        duration: 120,
        requests: [
          { method: 'GET', path: '/' },
          { method: 'GET', path: '/api/config' },
          { method: 'GET', path: '/health' },
        ],
      },
      () => {},
    );
    const finished = once(load, 'done');
    load.on('response', (_client: unknown, status: number) =>
      statuses.set(status, (statuses.get(status) ?? 0) + 1),
    );
    load.on('reqError', () => (errors += 1));

    const steps: { exitCode: number | null; stoppedInMs: number }[] = [];
    try {
      for (const index of [0, 1]) {
        const port = stack.apps[index]?.port ?? 0;
        steps.push(await stack.replaceApp(index));
        // The next replica goes only once nginx sends this one traffic again.
        const before = await requestsTo(port);
        await expect.poll(() => requestsTo(port), { timeout: 30_000 }).toBeGreaterThan(before);
      }
    } finally {
      load.stop();
      await finished;
    }

    for (const step of steps) {
      expect(step.exitCode).toBe(0);
      expect(step.stoppedInMs).toBeLessThan(2_000);
    }
    expect(errors).toBe(0);
    expect([...statuses.keys()]).toEqual([200]);
    expect(statuses.get(200)).toBeGreaterThan(100);
    // Two replicas started and stopped in turn: on a machine busy with the rest of the suite, that
    // takes more than a test's usual 30 s; every step above waits for its event, not a time.
  }, 180_000);

  it('answers 503 JSON with Retry-After when no app server is up', async () => {
    if (!stack) throw new Error('no stack');
    await Promise.all(stack.apps.map((app) => app.stop()));
    for (const path of ['/', '/api/me']) {
      const response = await fetch(`${stack.url}${path}`);
      expect(response.status, path).toBe(503);
      expect(response.headers.get('retry-after'), path).toBe('5');
      expect(response.headers.get('content-type'), path).toBe('application/json');
      expect((await response.json()).error.code, path).toBe('unavailable');
    }
    // A file nginx serves itself needs no app.
    expect((await fetch(`${stack.url}/favicon.ico`)).status).toBe(200);
  });
});

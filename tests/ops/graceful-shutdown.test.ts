import { once } from 'node:events';
import http from 'node:http';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '#test/site';
import { createMigratedTestDatabase, type TestDatabase } from '#test/test-database';

/**
 * SIGTERM to the built server (`node dist/server/src/server.js`, as the image runs it): it stops
 * accepting, closes idle keep-alive connections at once, answers what is in flight and exits, within
 * 2 s under load; and it exits even when its log has nowhere to go.
 */

const EXIT_WITHIN_MS = 2_000;

describe('an app server told to stop', () => {
  let database: TestDatabase;
  const servers: ServerProcess[] = [];
  const start = async (
    env: Record<string, string> = {},
    options: { readOutput?: boolean } = {},
  ) => {
    const server = await startServerProcess({ DATABASE_URL: database.url, ...env }, options);
    servers.push(server);
    return server;
  };
  /** SIGTERM; the time until the process exits, and its exit code. */
  const terminate = async (server: ServerProcess) => {
    const exited = once(server.child, 'exit');
    const sentAt = Date.now();
    server.child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    return { code, ms: Date.now() - sentAt };
  };

  beforeAll(async () => {
    database = await createMigratedTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });

  it('exits within 2 s of SIGTERM under load, answering every request it accepted', async () => {
    const server = await start();
    // A client that keeps its connection open and idle, as nginx's upstream keep-alive does.
    const agent = new http.Agent({ keepAlive: true });
    const idle = await new Promise<number>((resolve, reject) =>
      http
        .get(`${server.url}/api/config`, { agent }, (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        })
        .on('error', reject),
    );
    expect(idle).toBe(200);

    const statuses = new Map<number, number>();
    const load = autocannon(
      {
        url: server.url,
        connections: 16,
        duration: 5,
        requests: [
          { method: 'GET', path: '/' },
          { method: 'GET', path: '/api/config' },
        ],
      },
      () => {},
    );
    const finished = once(load, 'done');
    load.on('response', (_client: unknown, status: number) =>
      statuses.set(status, (statuses.get(status) ?? 0) + 1),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const { code, ms } = await terminate(server);
    load.stop();
    await finished;
    agent.destroy();

    expect(code).toBe(0);
    expect(ms).toBeLessThan(EXIT_WITHIN_MS);
    // Everything it answered, it answered in full: no 5xx while closing.
    expect([...statuses.keys()]).toEqual([200]);
    expect(statuses.get(200)).toBeGreaterThan(50);
  });

  it('exits on SIGTERM when nobody reads its log any more, or its log pipe is closed', async () => {
    for (const how of ['unread', 'closed'] as const) {
      // Every request writes a log line at info: enough of them fill the pipe (64 KB on Linux).
      const server = await start({ LOG_LEVEL: 'info' }, { readOutput: false });
      if (how === 'closed') server.child.stdout?.destroy();
      const load = await autocannon({ url: `${server.url}/api/config`, amount: 1_500 });
      // Still serving: a full or closed log does not stop the server.
      expect(load.non2xx, how).toBe(0);
      expect(load['2xx'], how).toBe(1_500);

      const { code, ms } = await terminate(server);
      expect(code, how).toBe(0);
      expect(ms, how).toBeLessThan(EXIT_WITHIN_MS);
    }
  });
});

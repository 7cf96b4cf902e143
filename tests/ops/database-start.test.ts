import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '#test/run-command';
import { startServerProcess, type ServerProcess } from '#test/site';
import { TcpProxy } from '#test/tcp-proxy';
import { createTestDatabase, type TestDatabase } from '#test/test-database';
import {
  DatabaseUnreachableError,
  waitForDatabase,
} from '../../server/src/db/wait-for-database.js';
import { main as migrate } from '../../server/src/cli/migrate.js';

/**
 * How the built server meets its database at start: it waits for one that is not up yet (one line
 * per try, no stack trace), and with MIGRATE_ON_START=false it leaves migrations to
 * `npm run migrate` and refuses a schema that is behind.
 */

// PostgreSQL proper (TEST_DATABASE_URL): the embedded PGlite takes any role.
const title = process.env.TEST_DATABASE_URL
  ? 'the server and its database at start'
  : 'the server and its database at start (SKIPPED: needs TEST_DATABASE_URL)';

describe.skipIf(!process.env.TEST_DATABASE_URL)(title, () => {
  let database: TestDatabase;
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    database = await createTestDatabase(); // empty: no migration applied
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });

  it('with MIGRATE_ON_START=false refuses an unmigrated database in one line; after `npm run migrate` it starts', async () => {
    const refused = await startServerProcess({
      DATABASE_URL: database.url,
      MIGRATE_ON_START: 'false',
      LOG_LEVEL: 'info',
    }).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
    const message = String((refused as Error).message);
    expect(message).toContain('The server exited with code 1');
    expect(message).toMatch(
      /The database lacks \d+ migrations \(20261122000000_init, .*\) and MIGRATE_ON_START=false: run `npm run migrate`/,
    );
    expect(message).not.toMatch(/^\s+at /m);

    const migrated = await runCommand(migrate, [], { DATABASE_URL: database.url });
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain('Applied migration 20261122000000_init');
    expect(migrated.stdout).toMatch(/: applied \d+ migrations\n$/);
    const again = await runCommand(migrate, [], { DATABASE_URL: database.url });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/: no pending migration\n$/);

    const server = await startServerProcess({
      DATABASE_URL: database.url,
      MIGRATE_ON_START: 'false',
      LOG_LEVEL: 'info',
    });
    servers.push(server);
    expect(server.output()).not.toContain('Applied migration');
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });

  it('waits for a database that is not up yet, one line per try, then serves', async () => {
    const { proxy, url } = await TcpProxy.forUrl(database.url);
    await proxy.cut();
    // The database comes up once the server has said it tried and will try again: however slowly
    // a busy machine starts the server, it has met a database that is not up yet.
    let restored = false;
    const server = await startServerProcess(
      { DATABASE_URL: url, LOG_LEVEL: 'info' },
      {
        onOutput: (output) => {
          if (restored || !output.includes('trying again in')) return;
          restored = true;
          void proxy.restore();
        },
      },
    );
    servers.push(server);
    const output = server.output();
    expect(output).toMatch(
      /The database at 127\.0\.0\.1:\d+\/cohort_test_\w+ is not reachable \(connect ECONNREFUSED [^)]*\): trying again in 0\.5 s/,
    );
    expect(output).not.toMatch(/^\s+at /m);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    await server.stop();
    servers.splice(servers.indexOf(server), 1);
    await proxy.cut();
  });

  it('gives up on an unreachable database with one line, and at once on a wrong password', async () => {
    const { proxy, url } = await TcpProxy.forUrl(database.url);
    await proxy.cut();
    const lines: string[] = [];
    const unreachable = await waitForDatabase(url, {
      log: (line) => lines.push(line),
      deadlineMs: 1_200,
      firstDelayMs: 200,
    }).catch((error: unknown) => error);
    expect(unreachable).toBeInstanceOf(DatabaseUnreachableError);
    expect(String((unreachable as Error).message)).toMatch(
      /^The database at 127\.0\.0\.1:\d+\/\w+ did not answer for 1 s: connect ECONNREFUSED/,
    );
    expect(String((unreachable as Error).message)).not.toContain('\n');
    // Backing off: 0.2 s, 0.4 s, then the deadline.
    expect(lines.map((line) => /in ([\d.]+) s$/.exec(line)?.[1])).toEqual(['0.2', '0.4']);

    // A role that does not exist will not appear by waiting.
    const wrongUser = new URL(database.url);
    wrongUser.username = 'no_such_role_cohort';
    const started = Date.now();
    const refused = await waitForDatabase(wrongUser.toString(), { log: () => {} }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(DatabaseUnreachableError);
    expect(String((refused as Error).message)).toMatch(/refused: .*no_such_role_cohort/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

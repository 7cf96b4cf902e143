import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { applyMigrations } from '../../server/src/db/migrate.js';
import { migrationsDir } from '../../server/src/paths.js';
import { freePort } from './site.js';
import { createMigratedTestDatabase, type TestDatabase } from './test-database.js';

const run = promisify(execFile);

/**
 * A PostgreSQL server of the test's own, made with the machine's `initdb` and run with `pg_ctl`,
 * so a test can stop it (as a crash or a power cut would) and start it again without touching the
 * shared server every other test uses.
 */
export interface PostgresCluster {
  /** postgresql://postgres@127.0.0.1:<port>/postgres (trust authentication, loopback only). */
  url: string;
  port: number;
  /** Stops the server: `immediate` kills it without a checkpoint, like a crash. */
  stop(mode?: 'immediate' | 'fast'): Promise<void>;
  /** Starts it again (after `immediate`, PostgreSQL replays its WAL first) and waits until ready. */
  start(): Promise<void>;
  /** Stops it if it runs and deletes its files. */
  destroy(): Promise<void>;
}

/**
 * The folder holding `initdb` and `pg_ctl`: PG_BIN when set, else Debian's newest
 * /usr/lib/postgresql/<version>/bin, else undefined (the caller skips with a message).
 */
export function findPostgresBinaries(): string | undefined {
  const candidates = [process.env.PG_BIN];
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => join(debian, version, 'bin')));
  }
  return candidates.find(
    (dir): dir is string =>
      !!dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')),
  );
}

/** initdb and pg_ctl refuse to run as root: as root they run as the `postgres` user. */
function asServerUser(binary: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0
    ? ['runuser', ['-u', 'postgres', '--', binary, ...args]]
    : [binary, args];
}

export async function startPostgresCluster(bin: string): Promise<PostgresCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'cohort-pg-'));
  const dataDir = join(dir, 'data');
  const socketDir = join(dir, 'socket');
  const logFile = join(dir, 'postgres.log');
  await mkdir(socketDir);
  if (process.getuid?.() === 0) await run('chown', ['-R', 'postgres:', dir]);

  const pg = async (binary: string, args: string[]) => {
    const [command, commandArgs] = asServerUser(join(bin, binary), args);
    try {
      await run(command, commandArgs, { timeout: 60_000 });
    } catch (error) {
      const log = existsSync(logFile) ? await readFile(logFile, 'utf8') : '';
      throw new Error(`${binary} ${args.join(' ')} failed: ${String(error)}\n${log}`, {
        cause: error,
      });
    }
  };

  const port = await freePort();
  let running = false;
  const cluster: PostgresCluster = {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      const options = [
        `-p ${port}`,
        `-k ${socketDir}`,
        '-c listen_addresses=127.0.0.1',
        // Test data: a stopped server keeps everything the OS has (the kernel does not crash here).
        '-c fsync=off',
        '-c full_page_writes=off',
      ].join(' ');
      await pg('pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '30', '-o', options, 'start']);
      running = true;
    },
    async stop(mode = 'immediate') {
      await pg('pg_ctl', ['-D', dataDir, '-m', mode, '-w', 'stop']);
      running = false;
    },
    async destroy() {
      if (running) await cluster.stop().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };

  try {
    await pg('initdb', [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '--encoding=UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    await cluster.start();
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
  return cluster;
}

/** A migrated database on a real PostgreSQL server, and what it is (for reports). */
export interface PostgresDatabase {
  url: string;
  description: string;
  drop(): Promise<void>;
}

/** True when `openPostgresDatabase` can give a real PostgreSQL server here. */
export function canOpenPostgresDatabase(): boolean {
  return !!process.env.TEST_DATABASE_URL || !!findPostgresBinaries();
}

/**
 * TEST_DATABASE_URL's server (a fresh database on it) when set, else a throwaway PostgreSQL
 * cluster made with the machine's initdb. Never the embedded PGlite: it runs every connection on
 * one backend session, so neither a load of two app servers nor a client killed in the middle of
 * a transaction behaves there as on PostgreSQL.
 */
export async function openPostgresDatabase(): Promise<PostgresDatabase> {
  const silent = { info: () => {}, warn: () => {} };
  if (process.env.TEST_DATABASE_URL) {
    const database = await createMigratedTestDatabase();
    return {
      url: database.url,
      description: await describeTestDatabase(database),
      drop: () => database.drop(),
    };
  }
  const bin = findPostgresBinaries();
  if (!bin) {
    throw new Error(
      'This needs PostgreSQL: set TEST_DATABASE_URL (e.g. postgresql://postgres@127.0.0.1:5432/postgres) ' +
        'or install PostgreSQL server binaries (initdb, pg_ctl; PG_BIN points at their folder).',
    );
  }
  const cluster = await startPostgresCluster(bin);
  try {
    await applyMigrations(cluster.url, migrationsDir, silent);
    return {
      url: cluster.url,
      description: `PostgreSQL ${await serverVersion(cluster.url)} (a throwaway cluster of its own)`,
      drop: () => cluster.destroy(),
    };
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
}

/** What a test database is, for a benchmark's report. */
export async function describeTestDatabase(database: TestDatabase): Promise<string> {
  if (database.embedded) return 'embedded PGlite (set TEST_DATABASE_URL for PostgreSQL)';
  return `PostgreSQL ${await serverVersion(database.url)} (TEST_DATABASE_URL, a fresh database)`;
}

async function serverVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return rows[0]?.server_version.split(' ')[0] ?? 'unknown';
  } finally {
    await client.end();
  }
}

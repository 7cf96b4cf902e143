import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startEmbeddedDatabase } from '../../server/src/db/embedded-database.js';
import { applyMigrations } from '../../server/src/db/migrate.js';
import { migrationsDir } from '../../server/src/paths.js';

export interface TestDatabase {
  url: string;
  /** True for an embedded PGlite, which serves one backend (keep one pooled connection). */
  embedded: boolean;
  drop(): Promise<void>;
}

const silentLog = { info: () => {}, warn: () => {} };

/**
 * A clean, empty database of this test file's own: a fresh database on the run's PostgreSQL
 * server (see database-server.ts), or an in-memory PGlite when there is none.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const embedded = await startEmbeddedDatabase();
    return { url: embedded.url, embedded: true, drop: () => embedded.stop() };
  }

  const name = `cohort_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(serverUrl, (admin) => admin.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    embedded: false,
    drop: async () => {
      await withAdmin(serverUrl, (admin) =>
        admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      );
    },
  };
}

/** A test database with every migration applied. */
export async function createMigratedTestDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase();
  await applyMigrations(database.url, migrationsDir, silentLog);
  return database;
}

async function withAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { parseDatabaseUrl } from './database-url.js';

/** Prisma Migrate's advisory lock key: holding it also keeps `prisma migrate deploy` out. */
const PRISMA_MIGRATE_LOCK_KEY = 72707369;

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

interface AppliedMigration {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
}

interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

/** Prisma's checksum of a migration: the SHA-256 of the file, in lower-case hex. */
export function checksumOf(sql: string): string {
  return createHash('sha256').update(sql).digest('hex');
}

export async function readMigrationFiles(dir: string): Promise<MigrationFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: checksumOf(sql) };
    }),
  );
}

/**
 * Applies pending migrations the way `prisma migrate deploy` does and records them in Prisma's
 * `_prisma_migrations` table. Two servers starting at once serialise on Prisma's advisory lock;
 * the second finds nothing left to do. Refuses to run when an applied migration's file was edited
 * or an earlier migration failed half-way. All of it is one transaction holding the lock as a
 * transaction lock, so it works through PgBouncer in transaction mode too (a session lock would be
 * taken on one server connection and released, or not, on another).
 */
export async function applyMigrations(
  databaseUrl: string,
  dir: string,
  log: Logger,
): Promise<string[]> {
  const files = await readMigrationFiles(dir);
  return withMigrationLock(databaseUrl, async (client) => {
    await client.query(CREATE_MIGRATIONS_TABLE);
    const pending = checkHistory(files, await readAppliedMigrations(client), log);
    for (const migration of pending) {
      await applyOne(client, migration);
      log.info(`Applied migration ${migration.name}`);
    }
    return pending.map((migration) => migration.name);
  });
}

/**
 * The migrations this database still lacks, without applying any (MIGRATE_ON_START=false): all of
 * them for an empty database. Throws, as `applyMigrations` does, on an edited or half-applied one.
 */
export async function pendingMigrations(
  databaseUrl: string,
  dir: string,
  log: Logger,
): Promise<string[]> {
  const files = await readMigrationFiles(dir);
  return withMigrationLock(databaseUrl, async (client) => {
    const { rows } = await client.query<{ exists: boolean }>(
      `SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS exists`,
    );
    const applied = rows[0]?.exists ? await readAppliedMigrations(client) : [];
    return checkHistory(files, applied, log).map((migration) => migration.name);
  });
}

/** Runs `work` in one transaction that holds Prisma Migrate's lock; commits what it did. */
async function withMigrationLock<T>(
  databaseUrl: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({
    connectionString: parseDatabaseUrl(databaseUrl).connectionString,
    connectionTimeoutMillis: 10_000,
  });
  await client.connect();
  try {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [PRISMA_MIGRATE_LOCK_KEY]);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  } finally {
    await client.end();
  }
}

async function readAppliedMigrations(client: pg.Client): Promise<AppliedMigration[]> {
  const result = await client.query<AppliedMigration>(
    `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations"
     WHERE rolled_back_at IS NULL ORDER BY started_at`,
  );
  return result.rows;
}

function checkHistory(
  files: MigrationFile[],
  applied: AppliedMigration[],
  log: Logger,
): MigrationFile[] {
  const byName = new Map(files.map((file) => [file.name, file]));
  for (const row of applied) {
    if (row.finished_at === null) {
      throw new MigrationError(
        `Migration ${row.migration_name} started but did not finish. Repair the database, then ` +
          `mark it with \`prisma migrate resolve\` before starting again.`,
      );
    }
    const file = byName.get(row.migration_name);
    if (!file) {
      log.warn(
        `Migration ${row.migration_name} is applied but has no file here (a newer release?)`,
      );
    } else if (file.checksum !== row.checksum) {
      throw new MigrationError(
        `Migration ${row.migration_name} was edited after it was applied (checksum differs). ` +
          `Restore the original file and put the change in a new migration.`,
      );
    }
  }
  const appliedNames = new Set(applied.map((row) => row.migration_name));
  return files.filter((file) => !appliedNames.has(file.name));
}

async function applyOne(client: pg.Client, migration: MigrationFile): Promise<void> {
  const id = randomUUID();
  await client.query('SAVEPOINT cohort_migration');
  try {
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
       VALUES ($1, $2, $3, now(), 0)`,
      [id, migration.checksum, migration.name],
    );
    await client.query(migration.sql);
    await client.query(
      `UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`,
      [id],
    );
    await client.query('RELEASE SAVEPOINT cohort_migration');
  } catch (error) {
    await client.query('ROLLBACK TO SAVEPOINT cohort_migration');
    // Nothing of the migration stayed: record the attempt as rolled back (committed with the
    // migrations before it), which lets the next start try again once the file is fixed.
    await client.query(
      `INSERT INTO "_prisma_migrations"
         (id, checksum, migration_name, started_at, rolled_back_at, logs, applied_steps_count)
       VALUES ($1, $2, $3, now(), now(), $4, 0)`,
      [id, migration.checksum, migration.name, String(error)],
    );
    await client.query('COMMIT');
    await client.query('BEGIN');
    throw new MigrationError(`Migration ${migration.name} failed: ${String(error)}`);
  }
}

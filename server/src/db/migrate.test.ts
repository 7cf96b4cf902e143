import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '#test/test-database';
import { migrationsDir } from '../paths.js';
import { applyMigrations, checksumOf, MigrationError, readMigrationFiles } from './migrate.js';

const quiet = { info: () => {}, warn: () => {} };

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('the migration applier', () => {
  let database: TestDatabase;
  let dir: string;

  beforeEach(async () => {
    database = await createTestDatabase();
    dir = await mkdtemp(join(tmpdir(), 'cohort-migrations-'));
    await cp(migrationsDir, dir, { recursive: true });
  });
  afterEach(async () => {
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it("applies every migration and records it in Prisma's table with Prisma's checksum", async () => {
    const files = await readMigrationFiles(dir);
    const applied = await applyMigrations(database.url, dir, quiet);

    expect(applied).toEqual(files.map((file) => file.name));
    const rows = await query<{
      migration_name: string;
      checksum: string;
      finished: boolean;
      applied_steps_count: number;
    }>(
      database.url,
      `SELECT migration_name, checksum, finished_at IS NOT NULL AS finished, applied_steps_count
       FROM _prisma_migrations ORDER BY migration_name`,
    );
    expect(rows).toEqual(
      files.map((file) => ({
        migration_name: file.name,
        checksum: checksumOf(file.sql),
        finished: true,
        applied_steps_count: 1,
      })),
    );
    expect(rows[0]?.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it('does nothing the second time', async () => {
    await applyMigrations(database.url, dir, quiet);
    expect(await applyMigrations(database.url, dir, quiet)).toEqual([]);
    const [count] = await query<{ n: number }>(
      database.url,
      'SELECT count(*)::int AS n FROM _prisma_migrations',
    );
    expect(count?.n).toBe((await readMigrationFiles(dir)).length);
  });

  it('applies each migration once when two servers start at the same time', async (context) => {
    // PGlite has one backend: there is no second session to race.
    if (database.embedded) context.skip('the embedded test database serves one backend');
    const [first, second] = await Promise.all([
      applyMigrations(database.url, dir, quiet),
      applyMigrations(database.url, dir, quiet),
    ]);
    const files = await readMigrationFiles(dir);
    expect([...first, ...second].sort()).toEqual(files.map((file) => file.name).sort());
    const rows = await query(database.url, 'SELECT 1 FROM _prisma_migrations');
    expect(rows).toHaveLength(files.length);
  });

  it('applies only the new migration when one is added', async () => {
    await applyMigrations(database.url, dir, quiet);
    await mkdir(join(dir, '29990101000000_add_note'));
    await writeFile(
      join(dir, '29990101000000_add_note', 'migration.sql'),
      'CREATE TABLE "note" ("id" INTEGER);\n',
    );
    expect(await applyMigrations(database.url, dir, quiet)).toEqual(['29990101000000_add_note']);
    expect(await query(database.url, 'SELECT * FROM note')).toEqual([]);
  });

  it('refuses to start when an applied migration file was edited', async () => {
    await applyMigrations(database.url, dir, quiet);
    const [first] = await readMigrationFiles(dir);
    if (!first) throw new Error('no migrations');
    await writeFile(join(dir, first.name, 'migration.sql'), `${first.sql}\n-- edited\n`);
    await expect(applyMigrations(database.url, dir, quiet)).rejects.toThrow(
      new MigrationError(
        `Migration ${first.name} was edited after it was applied (checksum differs). ` +
          'Restore the original file and put the change in a new migration.',
      ),
    );
  });

  it('rolls a failing migration back completely and tries it again on the next start', async () => {
    await applyMigrations(database.url, dir, quiet);
    const broken = join(dir, '29990101000000_broken');
    await mkdir(broken);
    await writeFile(
      join(broken, 'migration.sql'),
      'CREATE TABLE "half" ("id" INTEGER);\nSELECT no_such_function();\n',
    );

    await expect(applyMigrations(database.url, dir, quiet)).rejects.toThrow(
      /29990101000000_broken failed/,
    );
    const tables = await query(database.url, `SELECT 1 FROM pg_tables WHERE tablename = 'half'`);
    expect(tables).toEqual([]);

    await writeFile(join(broken, 'migration.sql'), 'CREATE TABLE "half" ("id" INTEGER);\n');
    expect(await applyMigrations(database.url, dir, quiet)).toEqual(['29990101000000_broken']);
  });
});

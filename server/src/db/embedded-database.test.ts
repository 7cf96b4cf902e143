import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsDir } from '../paths.js';
import { createDatabase } from './database.js';
import { startEmbeddedDatabase } from './embedded-database.js';
import { applyMigrations } from './migrate.js';

const quiet = { info: () => {}, warn: () => {} };

describe('the embedded database', () => {
  let dataDir: string | undefined;
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps data written before a restart', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cohort-pglite-'));
    const id = randomUUID();

    const first = await startEmbeddedDatabase({ dataDir });
    await applyMigrations(first.url, migrationsDir, quiet);
    const writer = createDatabase(first.url, { maxConnections: 1, embedded: true });
    await writer.prisma.user.create({ data: { id, email: 'kept@example.com' } });
    await writer.close();
    await first.stop();

    const second = await startEmbeddedDatabase({ dataDir });
    expect(await applyMigrations(second.url, migrationsDir, quiet)).toEqual([]);
    const reader = createDatabase(second.url, { maxConnections: 1, embedded: true });
    try {
      const user = await reader.prisma.user.findUnique({ where: { id }, select: { email: true } });
      expect(user).toEqual({ email: 'kept@example.com' });
    } finally {
      await reader.close();
      await second.stop();
    }
    // Two starts of PGlite (WebAssembly PostgreSQL): about 17 s on a quiet two-core machine.
  }, 60_000);
});

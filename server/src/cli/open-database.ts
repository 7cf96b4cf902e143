import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { pino } from 'pino';
import type { AppConfig } from '../config.js';
import { createDatabase, type Database } from '../db/database.js';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../db/embedded-database.js';
import { applyMigrations } from '../db/migrate.js';
import { migrationsDir } from '../paths.js';
import { EMBEDDED_PID_FILE } from './embedded-lock.js';

/**
 * The site's database for an operator's command: DATABASE_URL, or the embedded one in DATA_DIR,
 * which only one process can open (the command refuses while the server runs on it). Pending
 * migrations are applied first, as the server would.
 */
export async function openDatabase(
  config: AppConfig,
  log: pino.Logger,
  fail: (message: string) => never,
): Promise<{ database: Database; embedded?: EmbeddedDatabase }> {
  if (config.databaseUrl) {
    await applyMigrations(config.databaseUrl, migrationsDir, log);
    return { database: createDatabase(config.databaseUrl) };
  }
  const dataDir = resolve(config.dataDir);
  const pidFile = join(dataDir, EMBEDDED_PID_FILE);
  const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : NaN;
  if (Number.isInteger(pid) && isRunning(pid)) {
    fail(
      `The server (pid ${pid}) is running on the embedded database in ${dataDir}, which one process can open at a time: stop it, run this again, then start it.`,
    );
  }
  const embedded = await startEmbeddedDatabase({ dataDir: join(dataDir, 'pglite') });
  await applyMigrations(embedded.url, migrationsDir, log);
  return {
    database: createDatabase(embedded.url, { maxConnections: 1, embedded: true }),
    embedded,
  };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

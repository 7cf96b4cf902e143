import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { AppConfig } from '../config.js';
import { createDatabase, type Database } from '../db/database.js';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../db/embedded-database.js';
import { applyMigrations } from '../db/migrate.js';
import { migrationsDir } from '../paths.js';
import { commandLog, fail, type CommandIo } from './command-line.js';
import { EMBEDDED_PID_FILE } from './embedded-lock.js';

/**
 * The site's database for an operator's command: DATABASE_URL, or the embedded one in DATA_DIR.
 * Only one process can open that one: while `npm start` runs on it, the command connects through
 * the server's loopback port (PGlite's socket server keeps each connection's transactions whole);
 * otherwise it opens it itself. Pending migrations are applied first, as the server would.
 * `pglite`: the database is PGlite, whose connections share one backend (no advisory locks).
 */
export async function openDatabase(
  config: AppConfig,
  log: Logger,
): Promise<{ database: Database; embedded?: EmbeddedDatabase; pglite: boolean }> {
  if (config.databaseUrl) {
    await applyMigrations(config.databaseUrl, migrationsDir, log);
    return { database: createDatabase(config.databaseUrl), pglite: false };
  }
  const dataDir = resolve(config.dataDir);
  const pidFile = join(dataDir, EMBEDDED_PID_FILE);
  const [pidLine = '', servedAt] = existsSync(pidFile)
    ? readFileSync(pidFile, 'utf8').split('\n')
    : [];
  const pid = Number(pidLine.trim());
  if (Number.isInteger(pid) && pid > 0 && isRunning(pid)) {
    if (!servedAt) {
      fail(
        `The server (pid ${pid}) is running on the embedded database in ${dataDir} and does not say where it serves it (a server from before this version): stop it, run this again, then start it.`,
      );
    }
    log.info(`The server (pid ${pid}) serves the embedded database: connecting through it.`);
    await applyMigrations(servedAt, migrationsDir, log);
    return {
      database: createDatabase(servedAt, { maxConnections: 1, embedded: true }),
      pglite: true,
    };
  }
  const embedded = await startEmbeddedDatabase({ dataDir: join(dataDir, 'pglite') });
  await applyMigrations(embedded.url, migrationsDir, log);
  return {
    database: createDatabase(embedded.url, { maxConnections: 1, embedded: true }),
    embedded,
    pglite: true,
  };
}

/**
 * Where the site's database can be read without opening it: DATABASE_URL, or the embedded one
 * while `npm start` serves it; null when it is the embedded one and no server runs (a read-only
 * command, such as `stripe:check`, does not start one).
 */
export function reachableDatabaseUrl(config: AppConfig): { url: string; embedded: boolean } | null {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false };
  const pidFile = join(resolve(config.dataDir), EMBEDDED_PID_FILE);
  const [pidLine = '', servedAt] = existsSync(pidFile)
    ? readFileSync(pidFile, 'utf8').split('\n')
    : [];
  const pid = Number(pidLine.trim());
  return Number.isInteger(pid) && pid > 0 && isRunning(pid) && servedAt
    ? { url: servedAt, embedded: true }
    : null;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The site's database, opened for `work` and closed after it, whatever happens. */
export async function withDatabase<T>(
  config: AppConfig,
  io: CommandIo,
  work: (opened: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>,
): Promise<T> {
  const opened = await openDatabase(config, commandLog(config, io));
  try {
    return await work(opened);
  } finally {
    await opened.database.close();
    await opened.embedded?.stop();
  }
}

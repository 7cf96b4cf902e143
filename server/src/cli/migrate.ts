import { parseConfig, ConfigError } from '../config.js';
import { applyMigrations } from '../db/migrate.js';
import {
  DatabaseUnreachableError,
  describeDatabase,
  waitForDatabase,
} from '../db/wait-for-database.js';
import { migrationsDir } from '../paths.js';
import { messageOf, printerOf, type CommandMain } from './command-line.js';

/**
 * `npm run migrate` (the image: `docker compose run --rm app migrate`, a Kubernetes Job): applies
 * the pending migrations to DATABASE_URL and exits, apart from any server (MIGRATE_ON_START=false).
 * One line per migration applied; one line, not a stack trace, when it cannot.
 */
export const main: CommandMain = async (_argv, env, io) => {
  const { out, err } = printerOf(io);
  let databaseUrl: string | undefined;
  try {
    databaseUrl = parseConfig(env).databaseUrl;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    err(error.message);
    return 1;
  }
  if (!databaseUrl) {
    err(
      'DATABASE_URL: is required (the embedded database of `npm start` migrates itself at start)',
    );
    return 1;
  }
  const log = { info: out, warn: err };
  try {
    await waitForDatabase(databaseUrl, { log: log.warn });
    const applied = await applyMigrations(databaseUrl, migrationsDir, log);
    out(
      applied.length === 0
        ? `${describeDatabase(databaseUrl)}: no pending migration`
        : `${describeDatabase(databaseUrl)}: applied ${applied.length} migration${applied.length === 1 ? '' : 's'}`,
    );
    return 0;
  } catch (error) {
    err(
      error instanceof DatabaseUnreachableError
        ? error.message
        : `Migration failed: ${messageOf(error)}`,
    );
    return 1;
  }
};

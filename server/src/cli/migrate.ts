import { parseConfig, ConfigError } from '../config.js';
import { applyMigrations } from '../db/migrate.js';
import {
  DatabaseUnreachableError,
  describeDatabase,
  waitForDatabase,
} from '../db/wait-for-database.js';
import { migrationsDir } from '../paths.js';

/**
 * `npm run migrate` (the image: `docker compose run --rm app migrate`, a Kubernetes Job): applies
 * the pending migrations to DATABASE_URL and exits, apart from any server (MIGRATE_ON_START=false).
 * One line per migration applied; one line, not a stack trace, when it cannot.
 */
async function main(): Promise<number> {
  let databaseUrl: string | undefined;
  try {
    databaseUrl = parseConfig(process.env).databaseUrl;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return 1;
  }
  if (!databaseUrl) {
    console.error(
      'DATABASE_URL: is required (the embedded database of `npm start` migrates itself at start)',
    );
    return 1;
  }
  const log = {
    info: (line: string) => console.log(line),
    warn: (line: string) => console.warn(line),
  };
  try {
    await waitForDatabase(databaseUrl, { log: log.warn });
    const applied = await applyMigrations(databaseUrl, migrationsDir, log);
    console.log(
      applied.length === 0
        ? `${describeDatabase(databaseUrl)}: no pending migration`
        : `${describeDatabase(databaseUrl)}: applied ${applied.length} migration${applied.length === 1 ? '' : 's'}`,
    );
    return 0;
  } catch (error) {
    console.error(
      error instanceof DatabaseUnreachableError
        ? error.message
        : `Migration failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
}

process.exitCode = await main();

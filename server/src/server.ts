import { rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { buildApp } from './app.js';
import { ConfigError, parseConfig, type AppConfig } from './config.js';
import { createDatabase } from './db/database.js';
import {
  isPgliteServer,
  startEmbeddedDatabase,
  type EmbeddedDatabase,
} from './db/embedded-database.js';
import { applyMigrations, MigrationError, pendingMigrations } from './db/migrate.js';
import { DatabaseUnreachableError, waitForDatabase } from './db/wait-for-database.js';
import { PerkCatalogError } from './perks/catalog.js';
import { EMBEDDED_PID_FILE } from './cli/embedded-lock.js';
import { checkStripeAtStart } from './plugins/app/payments.js';
import { migrationsDir } from './paths.js';
import { readOrCreateDevSecret } from './sessions/dev-secret.js';
import { stdoutLogDestination } from './http/log-destination.js';
import { exitGracefully } from './shutdown.js';

/** The longest a shutdown may take before the process exits anyway (in-flight requests, the pool). */
const FORCE_EXIT_AFTER_MS = 10_000;

/** Entry point: configuration, database, migrations, then listen until told to stop. */
async function main(): Promise<void> {
  const config = readConfigOrExit();
  const dataDir = resolve(config.dataDir);

  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedDatabase({ dataDir: join(dataDir, 'pglite') });
    databaseUrl = embedded.url;
    // Tells the operator's commands (`npm run newsletter:send`, …) that this process serves the
    // embedded database, and where: they connect through it instead of opening it themselves.
    await writeFile(join(dataDir, EMBEDDED_PID_FILE), `${process.pid}\n${embedded.url}\n`);
  }
  if (!embedded) await waitForDatabaseOrExit(databaseUrl);
  const sessionSecret = config.sessionSecret ?? (await readOrCreateDevSecret(dataDir));
  const onPglite = embedded !== undefined || (await isPgliteServer(databaseUrl));
  const database = createDatabase(databaseUrl, {
    maxConnections: onPglite ? 1 : config.databasePoolSize,
    embedded: onPglite,
  });
  const logStream = stdoutLogDestination();
  const app = await buildApp({ ...config, sessionSecret }, { database, logStream }).catch(
    async (error: unknown) => {
      // Content an operator edited that the server cannot honour: say what, not a stack trace.
      if (!(error instanceof PerkCatalogError)) throw error;
      console.error(error.message);
      await database.close();
      await embedded?.stop();
      process.exit(1);
    },
  );

  try {
    if (config.migrateOnStart || embedded) {
      await applyMigrations(databaseUrl, migrationsDir, app.log);
    } else {
      const pending = await pendingMigrations(databaseUrl, migrationsDir, app.log);
      if (pending.length > 0) {
        throw new MigrationError(
          `The database lacks ${pending.length} migration${pending.length === 1 ? '' : 's'} (${pending.join(', ')}) and MIGRATE_ON_START=false: run \`npm run migrate\` (the image: \`migrate\`) first`,
        );
      }
    }
  } catch (error) {
    // What went wrong in one line (a migration's own failure, an edited file): not a stack trace.
    if (error instanceof MigrationError) app.log.fatal(error.message);
    else app.log.fatal({ err: error }, 'could not apply database migrations');
    await app.close();
    await embedded?.stop();
    process.exit(1);
  }

  exitGracefully({
    forceAfterMs: FORCE_EXIT_AFTER_MS,
    log: (level, message, err) =>
      err ? app.log[level]({ err }, message) : app.log[level](message),
    async close() {
      await app.close();
      await embedded?.stop();
      if (embedded) await rm(join(dataDir, EMBEDDED_PID_FILE), { force: true });
    },
  });

  await app.listen({ host: config.host, port: config.port });
  // SITE_URL is the public address (behind nginx, say); the socket is where this process listens.
  app.log.info(
    `${config.siteName} is serving ${config.siteUrl} (listening on ${describeAddress(app.server.address())}; ${embedded ? 'embedded database in ' + dataDir : 'PostgreSQL'})`,
  );
  void checkStripeAtStart(app, config);
}

/** `127.0.0.1:3000`, `[::1]:3000`: the host and port the server's socket is bound to. */
function describeAddress(address: AddressInfo | string | null): string {
  if (address === null || typeof address === 'string') return String(address);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${host}:${address.port}`;
}

/**
 * Waits for the database while it is down or starting (a container started before PostgreSQL, a
 * failover), one line per try; exits with one line when it will not answer.
 */
async function waitForDatabaseOrExit(databaseUrl: string): Promise<void> {
  try {
    await waitForDatabase(databaseUrl, { log: (line) => console.error(line) });
  } catch (error) {
    if (!(error instanceof DatabaseUnreachableError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

function readConfigOrExit(): AppConfig {
  try {
    return parseConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

await main();

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/src/app.js';
import { parseConfig, type AppConfig } from '../../server/src/config.js';
import { createDatabase, type Database } from '../../server/src/db/database.js';
import type { HttpTimeouts } from '../../server/src/http/framework-errors.js';
import type { PerkCatalog } from '../../server/src/perks/catalog.js';
import { createMigratedTestDatabase, type TestDatabase } from './test-database.js';

export const TEST_SESSION_SECRET = 'test-session-secret-that-is-long-enough-0123456789';

export interface TestApp {
  app: FastifyInstance;
  config: AppConfig;
  database: Database;
  testDatabase: TestDatabase;
  /** The log lines so far, with `captureLogs`. */
  logs(): LogLine[];
  close(): Promise<void>;
}

/** One line of the app's JSON log (pino: level 50 is error, 40 warn). */
export type LogLine = { level: number; msg: string } & Record<string, unknown>;

/** The configuration a test app runs with: quiet, with a fixed secret, plus the test's own env. */
export function testConfig(env: Record<string, string> = {}): AppConfig {
  return parseConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SESSION_SECRET: TEST_SESSION_SECRET,
    // Tests register many accounts from one address; the limit has a test of its own.
    ACCOUNT_RATE_LIMIT: '1000',
    NEWSLETTER_RATE_LIMIT: '1000',
    // Never the repository's data/: images are named by their bytes, so one folder serves all.
    UPLOADS_DIR: join(tmpdir(), `cohort-test-uploads-${process.pid}`),
    ...env,
  });
}

/**
 * The real app on a migrated database of its own: what `withSite` (with-site.ts, the door tests
 * use) builds on, and what the benchmarks (tests/bench, outside Vitest) start.
 */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    clientDir?: string;
    /** The app built for Node (dist/ssr) that draws the pages (else none: pages answer 404). */
    ssrDir?: string;
    /**
     * A content folder imported into the new site, as content/ is at a real start (else the site
     * has no posts: its lists are empty).
     */
    seedContentDir?: string;
    /** Connects through something in between (a proxy that can cut the connection). */
    connectThrough?: (databaseUrl: string) => Promise<string>;
    /** Pooled connections (default 5; production's default is 10). */
    maxConnections?: number;
    /** Keeps the app's log lines (warn and above unless LOG_LEVEL says) for `logs()`. */
    captureLogs?: boolean;
    /** Shorter header and request timeouts than production's. */
    httpTimeouts?: HttpTimeouts;
    /** Partner perks of the test's own (else the shipped content/perks). */
    perkCatalog?: PerkCatalog;
    /**
     * Where outbound requests (cards' pages and providers) go: the hosts a test's server stands in
     * for. Any other host name is not reached: a test never touches the network.
     */
    outboundHosts?: Record<string, string>;
    /** Adds test-only routes or hooks before the app is ready. */
    configure?: (app: FastifyInstance, database: Database) => void | Promise<void>;
    /**
     * Another test app's database, for a second app server on it (or the same site after a
     * restart): this app leaves it in place when it closes.
     */
    sharedDatabase?: TestDatabase;
  } = {},
): Promise<TestApp> {
  // Read first: a test of a setting refused makes no database.
  const config = testConfig({
    ...(options.captureLogs && { LOG_LEVEL: 'warn' }),
    ...options.env,
  });
  const testDatabase = options.sharedDatabase ?? (await createMigratedTestDatabase());
  const logLines: string[] = [];
  let database: Database | undefined;
  let app: FastifyInstance;
  try {
    const url = options.connectThrough
      ? await options.connectThrough(testDatabase.url)
      : testDatabase.url;
    database = createDatabase(url, {
      maxConnections: testDatabase.embedded ? 1 : (options.maxConnections ?? 5),
      embedded: testDatabase.embedded,
      refuseSecondConnections: true,
    });
    app = await buildApp(config, {
      database,
      clientDir: options.clientDir ?? '/nonexistent-client-dir',
      ssrDir: options.ssrDir ?? '/nonexistent-ssr-dir',
      seedContentDir: options.seedContentDir ?? null,
      ...(options.httpTimeouts && { httpTimeouts: options.httpTimeouts }),
      ...(options.perkCatalog && { perkCatalog: options.perkCatalog }),
      outboundRouting: { hosts: options.outboundHosts ?? {} },
      ...(options.captureLogs && { logStream: { write: (line: string) => logLines.push(line) } }),
    });
    await options.configure?.(app, database);
    await app.ready();
  } catch (error) {
    // An app that does not start (a test of what it refuses) leaves no database behind.
    await database?.close().catch(() => {});
    if (!options.sharedDatabase) await testDatabase.drop();
    throw error;
  }
  return {
    app,
    config,
    database,
    testDatabase,
    logs: () => logLines.map((line) => JSON.parse(line) as LogLine),
    async close() {
      await app.close();
      if (!options.sharedDatabase) await testDatabase.drop();
    },
  };
}

import { isDockerAvailable } from './docker.js';

export interface DatabaseServer {
  /** Where the tests found PostgreSQL, for the log. */
  kind: 'TEST_DATABASE_URL' | 'testcontainers' | 'embedded';
  /** A server URL whose user may create databases; undefined for the embedded kind. */
  url: string | undefined;
  stop(): Promise<void>;
}

/**
 * Finds the PostgreSQL server the whole test run uses, once, before any test starts:
 * TEST_DATABASE_URL when set; else a testcontainers PostgreSQL when Docker answers; else none,
 * and every test database is then an embedded PGlite of its own.
 */
export async function startDatabaseServer(): Promise<DatabaseServer> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) return { kind: 'TEST_DATABASE_URL', url: given, stop: async () => {} };

  if (await isDockerAvailable()) {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const container = await new PostgreSqlContainer('postgres:17-alpine').start();
    return {
      kind: 'testcontainers',
      url: container.getConnectionUri(),
      stop: async () => {
        await container.stop();
      },
    };
  }
  return { kind: 'embedded', url: undefined, stop: async () => {} };
}

/** The server's URL without its password, for the log. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]+@/, '//$1:***@');
}

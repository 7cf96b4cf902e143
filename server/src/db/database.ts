import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { parseDatabaseUrl } from './database-url.js';
import { refuseSecondConnections } from './transaction.js';

export interface Database {
  prisma: PrismaClient;
  /** The pool Prisma runs on, for the raw SQL of the hot path and the money path. */
  pool: pg.Pool;
  /**
   * A connection of its own, outside the pool, for LISTEN (server/src/plugins/app/listen-for-changes.ts);
   * null on the embedded database, whose one backend the pool already holds.
   */
  connectListener(): pg.Client | null;
  /**
   * Whether a session's advisory lock holds for as long as its connection does: not on the
   * embedded database (one process at a time anyway), nor through PgBouncer's transaction pooling.
   */
  sessionLocks: boolean;
  /**
   * Whether a connection keeps the statements prepared on it (withTransaction's `prepared`): not on
   * the embedded database, whose connections share one backend, nor through PgBouncer's transaction
   * pooling, which may run the next transaction on another server connection.
   */
  preparedStatements: boolean;
  close(): Promise<void>;
}

/**
 * The longest one statement may take. PostgreSQL cancels it at this point (statement_timeout); the
 * client gives up half a second later (query_timeout) in case the server never heard the query (a
 * network that drops packets), so a stalled database answers 503 within 5 s instead of holding the
 * request. A query stuck on a connection that way makes the pool throw that connection away.
 */
export const STATEMENT_TIMEOUT_MS = 3_500;
/** The longest a request waits for a connection, new or from a full pool. */
export const CONNECTION_WAIT_MS = 3_000;
/**
 * The same on the embedded database: its one connection lives in this process and is never away,
 * so a wait there is a queue behind a long write (the first start's import on a slow machine),
 * not an outage to fail fast on.
 */
export const EMBEDDED_CONNECTION_WAIT_MS = 60_000;

export interface DatabaseOptions {
  /** The embedded database has one backend: keep one connection so transactions never interleave. */
  maxConnections?: number;
  /** The embedded PGlite: one backend behind every connection. */
  embedded?: boolean;
  /** Statement time limit (STATEMENT_TIMEOUT_MS unless given; 0 for none). */
  statementTimeoutMs?: number;
  /** Refuse a second connection to code inside a transaction (tests: `refuseSecondConnections`). */
  refuseSecondConnections?: boolean;
}

export function createDatabase(url: string, options: DatabaseOptions = {}): Database {
  const statementTimeoutMs = options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS;
  const { connectionString, pgbouncer } = parseDatabaseUrl(url);
  const pool = new pg.Pool({
    connectionString,
    max: options.maxConnections ?? 10,
    // Fail fast while the database is away: a request gets a 503 instead of hanging.
    connectionTimeoutMillis: options.embedded ? EMBEDDED_CONNECTION_WAIT_MS : CONNECTION_WAIT_MS,
    idleTimeoutMillis: 30_000,
    // A peer that vanished without closing (a dropped network) is noticed by TCP in time.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(statementTimeoutMs > 0 && {
      query_timeout: statementTimeoutMs + 500,
      // PGlite's socket server has no statement_timeout, and PgBouncer refuses it as a startup
      // parameter: only the client's limit applies there.
      ...(!options.embedded && !pgbouncer && { statement_timeout: statementTimeoutMs }),
    }),
  });
  // An idle client that loses its server emits 'error' on the pool; without a listener that would
  // crash the process. The next checkout reconnects.
  pool.on('error', () => {});
  if (options.refuseSecondConnections) refuseSecondConnections(pool);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    pool,
    connectListener: () =>
      options.embedded || pgbouncer ? null : new pg.Client({ connectionString, keepAlive: true }),
    sessionLocks: !options.embedded && !pgbouncer,
    preparedStatements: !options.embedded && !pgbouncer,
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/** True when the database answers a trivial query within `timeoutMs`. */
export async function isDatabaseReady(pool: pg.Pool, timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const query = pool.query('SELECT 1').then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

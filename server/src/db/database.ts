import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';

export interface Database {
  prisma: PrismaClient;
  /** The pool Prisma runs on, for the raw SQL of the hot path and the money path. */
  pool: pg.Pool;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** The embedded database has one backend: keep one connection so transactions never interleave. */
  maxConnections?: number;
  /** The embedded PGlite: one backend behind every connection. */
  embedded?: boolean;
}

export function createDatabase(url: string, options: DatabaseOptions = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    // Fail fast while the database is away: a request gets a 503 instead of hanging.
    connectionTimeoutMillis: 3_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client that loses its server emits 'error' on the pool; without a listener that would
  // crash the process. The next checkout reconnects.
  pool.on('error', () => {});
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    pool,
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

import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';
import { parseDatabaseUrl } from './database-url.js';

export interface EmbeddedDatabase {
  /** A postgres:// URL on the loopback interface. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts PGlite (PostgreSQL compiled to WebAssembly) and serves it on a loopback port, so the app
 * talks to it with the same driver it uses for a real server. `dataDir` undefined keeps the data in
 * memory (tests); otherwise it is kept in that folder across restarts.
 *
 * PGlite runs one backend: connections share it, so the app's pool must hold a single connection
 * (see `createDatabase`), otherwise two transactions could interleave.
 */
export async function startEmbeddedDatabase(
  options: { dataDir?: string; port?: number } = {},
): Promise<EmbeddedDatabase> {
  // Loaded only here: PGlite is an optional dependency, absent from the production image (which
  // always has DATABASE_URL).
  const [{ PGlite }, { pg_trgm }, { PGLiteSocketServer }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite-socket'),
  ]).catch((error: unknown) => {
    throw new Error(
      'The embedded database needs the optional dependency @electric-sql/pglite (`npm install`); or set DATABASE_URL',
      { cause: error },
    );
  });
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  // pg_trgm: the desk's search by any part of an email (migration 20261124100000_desk).
  const db = await PGlite.create({
    ...(options.dataDir && { dataDir: options.dataDir }),
    extensions: { pg_trgm },
  });
  const server = new PGLiteSocketServer({
    db,
    host: '127.0.0.1',
    port: options.port ?? 0,
    maxConnections: 4,
  });
  await server.start();
  const port = readPort(server, options.port ?? 0);
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

function readPort(server: PGLiteSocketServer, requested: number): number {
  // The socket server keeps its net.Server private; with port 0 the real port is only known there.
  const inner = (server as unknown as { server?: { address(): AddressInfo | string | null } })
    .server;
  const address = inner?.address();
  if (address && typeof address === 'object') return address.port;
  if (requested !== 0) return requested;
  throw new Error('The embedded database did not report the port it listens on');
}

/**
 * True when the server behind `url` is PGlite (the embedded database, also when a test serves it
 * on a port): its connections share one backend, so the app keeps one and prepares no named
 * statements there.
 */
export async function isPgliteServer(url: string): Promise<boolean> {
  const client = new pg.Client({
    connectionString: parseDatabaseUrl(url).connectionString,
    connectionTimeoutMillis: 10_000,
  });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: string }>('SELECT version()');
    return /PGlite/i.test(rows[0]?.version ?? '');
  } finally {
    await client.end();
  }
}

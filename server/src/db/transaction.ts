import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';

/**
 * The transaction the running code is inside, while it is open: see `refuseSecondConnections`.
 */
const openTransaction = new AsyncLocalStorage<{ pool: pg.Pool; open: boolean }>();
/** The pools that refuse (tests'): only their transactions pay for the bookkeeping. */
const refusingPools = new WeakSet<pg.Pool>();

/**
 * Makes `pool` refuse a connection asked for by code that already holds one of its connections in
 * an open transaction (withTransaction's `work`). Such code waits on itself: on a pool of one (the
 * embedded database) every time, on a larger pool as soon as enough requests do it at once. Tests
 * run with it, so the mistake fails a test instead of stalling a site.
 */
export function refuseSecondConnections(pool: pg.Pool): void {
  refusingPools.add(pool);
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  const refusing = (...args: unknown[]) => {
    const held = openTransaction.getStore();
    if (held?.open && held.pool === pool) {
      const error = new Error(
        'A second database connection was asked for inside a transaction: use its `tx` instead.',
      );
      const callback = args.find((arg) => typeof arg === 'function') as
        ((error: Error) => void) | undefined;
      if (callback) return void callback(error);
      return Promise.reject(error);
    }
    return connect(...args);
  };
  pool.connect = refusing as typeof pool.connect;
}

/** A connection inside a transaction: what the money path's SQL runs on. */
export type Tx = Pick<pg.PoolClient, 'query'>;

/** node-postgres gave up waiting for an answer (query_timeout): the connection is unusable. */
export function isStuckConnection(error: unknown): boolean {
  return error instanceof Error && error.message === 'Query read timeout';
}

/** The name each statement text is prepared under, the same on every connection. */
const statementNames = new Map<string, string>();
/** A bound on what each connection keeps prepared, whatever texts callers send. */
const MAX_STATEMENT_NAMES = 200;

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_STATEMENT_NAMES) {
    name = `cohort_tx_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * `client`, running each statement that takes parameters as a named prepared statement: parsed
 * and planned once per connection instead of on every call (about 40 % of PostgreSQL's time on
 * the webhook's statements, tests/bench/webhooks.ts). Same statements, same results.
 */
function preparing(client: pg.PoolClient): Tx {
  const query = (text: unknown, values?: unknown) => {
    const name =
      typeof text === 'string' && Array.isArray(values) ? statementName(text) : undefined;
    return name
      ? client.query({ name, text: text as string, values: values as unknown[] })
      : client.query(text as string, values as unknown[]);
  };
  return { query: query as Tx['query'] };
}

/**
 * Runs `work` in one transaction on one pooled connection: all of it commits, or none of it.
 * `prepared`: its statements are named prepared statements (only where `Database.preparedStatements`
 * says a connection keeps them).
 */
export async function withTransaction<T>(
  pool: pg.Pool,
  work: (tx: Tx) => Promise<T>,
  options: { prepared?: boolean } = {},
): Promise<T> {
  const client = await pool.connect();
  // The pool listens for errors on idle connections only. A connection lost while checked out here
  // (the server stopped between two statements) is emitted as an 'error' event, which unheard would
  // crash the process; the next statement fails with it anyway, and the transaction rolls back.
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost = error;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const tx = options.prepared ? preparing(client) : client;
    let result: T;
    if (refusingPools.has(pool)) {
      const held = { pool, open: true };
      result = await openTransaction
        .run(held, () => work(tx))
        .finally(() => {
          held.open = false;
        });
    } else {
      result = await work(tx);
    }
    await client.query('COMMIT');
    return result;
  } catch (error) {
    if (isStuckConnection(error)) {
      // The server never answered: a ROLLBACK would wait as long. Closing the connection rolls
      // the transaction back on the server.
      lost ??= error as Error;
    } else {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        lost ??= rollbackError as Error;
      });
    }
    throw error;
  } finally {
    client.off('error', onError);
    // A lost connection is thrown away rather than handed to the next request.
    client.release(lost);
  }
}

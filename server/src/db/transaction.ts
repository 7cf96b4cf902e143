import type pg from 'pg';

/** A connection inside a transaction: what the money path's SQL runs on. */
export type Tx = Pick<pg.PoolClient, 'query'>;

/** node-postgres gave up waiting for an answer (query_timeout): the connection is unusable. */
export function isStuckConnection(error: unknown): boolean {
  return error instanceof Error && error.message === 'Query read timeout';
}

/** Runs `work` in one transaction on one pooled connection: all of it commits, or none of it. */
export async function withTransaction<T>(pool: pg.Pool, work: (tx: Tx) => Promise<T>): Promise<T> {
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
    const result = await work(client);
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

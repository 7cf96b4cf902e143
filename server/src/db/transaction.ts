import type pg from 'pg';

/** A connection inside a transaction: what the money path's SQL runs on. */
export type Tx = Pick<pg.PoolClient, 'query'>;

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
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.off('error', onError);
    // A lost connection is thrown away rather than handed to the next request.
    client.release(lost);
  }
}

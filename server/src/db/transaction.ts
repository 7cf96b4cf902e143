import type pg from 'pg';

/** A connection inside a transaction: what the money path's SQL runs on. */
export type Tx = Pick<pg.PoolClient, 'query'>;

/** Runs `work` in one transaction on one pooled connection: all of it commits, or none of it. */
export async function withTransaction<T>(pool: pg.Pool, work: (tx: Tx) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

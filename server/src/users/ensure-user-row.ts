import type pg from 'pg';

/**
 * Creates the user's row if it does not exist yet. Readers never get one; the first thing that
 * needs a row (a payment) calls this, on the pool or inside its transaction. Safe to call twice,
 * and concurrently: two requests racing to create the row both succeed.
 */
export async function ensureUserRow(db: Pick<pg.Pool, 'query'>, id: string): Promise<void> {
  await db.query(
    `INSERT INTO users (id, "updatedAt") VALUES ($1, now()) ON CONFLICT (id) DO NOTHING`,
    [id],
  );
}

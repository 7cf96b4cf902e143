import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '#test/test-database';
import { createDatabase, type Database } from './database.js';
import { withTransaction } from './transaction.js';

// Code inside a transaction that asks the pool for a second connection waits on itself: with one
// connection (the embedded database) every time. Tests run the pool refusing it, so it shows.

describe('a transaction asking for a second connection', () => {
  let testDatabase: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = createDatabase(testDatabase.url, {
      maxConnections: 1,
      embedded: testDatabase.embedded,
      refuseSecondConnections: true,
    });
  });
  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  it('is refused at once with a message naming the mistake, and the transaction rolls back', async () => {
    const started = Date.now();
    await expect(
      withTransaction(database.pool, async (tx) => {
        await tx.query('SELECT 1');
        await database.pool.query('SELECT 2');
      }),
    ).rejects.toThrow(/second database connection was asked for inside a transaction/);
    // Refused, not waited for: the pool's wait for a free connection is 3 s.
    expect(Date.now() - started).toBeLessThan(1_500);
    // The one connection went back to the pool.
    expect((await database.pool.query('SELECT 3 AS three')).rows).toEqual([{ three: 3 }]);
  });

  it('lets work the transaction started run its queries once the transaction is over', async () => {
    let later: Promise<unknown> = Promise.resolve();
    await withTransaction(database.pool, async (tx) => {
      await tx.query('SELECT 1');
      // Started inside, awaited after the commit: by then the connection is free again.
      later = new Promise((resolve) => setTimeout(resolve, 50)).then(() =>
        database.pool.query('SELECT 4 AS four'),
      );
    });
    await expect(later).resolves.toMatchObject({ rows: [{ four: 4 }] });
  });
});

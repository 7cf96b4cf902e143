import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useDatabase } from '#test/with-site';
import { withTransaction } from '../db/transaction.js';
import { PROGRESS_EVERY_MS, ProgressWriter } from './import-jobs.js';

// A desk import's progress as the importer reports it (often, one item at a time), written to the
// `imports` row at most every PROGRESS_EVERY_MS, the latest winning, and the last one when the
// import ends. Each write is counted by a trigger on the real table.

describe('an import’s progress', () => {
  // As the tests' apps: a second connection asked for inside a transaction is refused.
  const { db: database } = useDatabase({ refuseSecondConnections: true });

  beforeAll(async () => {
    await database.pool.query(`
      CREATE TABLE progress_writes (at timestamptz NOT NULL, progress jsonb NOT NULL);
      CREATE FUNCTION count_progress_write() RETURNS trigger AS $$
        BEGIN
          INSERT INTO progress_writes VALUES (clock_timestamp(), NEW.progress);
          RETURN NEW;
        END $$ LANGUAGE plpgsql;
      CREATE TRIGGER progress_written AFTER UPDATE OF progress ON imports
        FOR EACH ROW EXECUTE FUNCTION count_progress_write();`);
  });

  it('is written at once, then at most every 500 ms with the latest, and its last report when it stops, whatever transaction the importer reports from', async () => {
    const id = randomUUID();
    await database.pool.query(
      `INSERT INTO imports (id, source, status, progress) VALUES ($1, 'ghost', 'running', '{}')`,
      [id],
    );
    const errors: unknown[] = [];
    const writer = new ProgressWriter(database.pool, id, (error) => errors.push(error));
    const started = Date.now();
    let done = 0;
    // A report every 20 ms for 1.3 s: 65 reports, from inside the importer's transactions.
    while (Date.now() - started < 1_300) {
      done += 1;
      await withTransaction(database.pool, async (tx) => {
        await tx.query('SELECT 1');
        writer.report({ phase: 'posts', done, total: 100 });
        await new Promise((resolve) => setTimeout(resolve, 20));
      });
    }
    done += 1;
    writer.report({ phase: 'posts', done, total: 100 });
    await writer.stop();
    // Nothing after it stopped.
    writer.report({ phase: 'posts', done: done + 1, total: 100 });
    await new Promise((resolve) => setTimeout(resolve, PROGRESS_EVERY_MS + 100));

    expect(errors).toEqual([]);
    const { rows: writes } = await database.pool.query<{
      at: Date;
      progress: { done: number; at: string };
    }>(`SELECT at, progress FROM progress_writes ORDER BY at`);
    // 1.3 s of reports: a write at once, then one every 500 ms at most, then the last one.
    expect(writes.length).toBeGreaterThanOrEqual(3);
    expect(writes.length).toBeLessThanOrEqual(5);
    writes.slice(1, -1).forEach((write, index) => {
      const previous = writes[index]?.at.getTime() ?? 0;
      // Scheduling can bring two writes' arrival closer than they were sent, never this close.
      expect(write.at.getTime() - previous).toBeGreaterThan(PROGRESS_EVERY_MS - 150);
    });
    expect(writes[0]?.progress.done).toBe(1);
    expect(writes.at(-1)?.progress).toMatchObject({ phase: 'posts', done, total: 100 });
    // Each write says when: the heartbeat that tells a live import from one a stopped server left.
    expect(Date.parse(writes.at(-1)?.progress.at ?? '')).toBeGreaterThanOrEqual(started);
    const { rows } = await database.pool.query(`SELECT progress FROM imports WHERE id = $1`, [id]);
    expect(rows[0].progress).toMatchObject({ done });
  });
});

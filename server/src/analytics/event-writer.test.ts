import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useDatabase } from '#test/with-site';
import { createEventWriter, VIEWS_PER_VISITOR_PAGE_DAY, type CountedView } from './event-writer.js';
import { maintainAnalytics } from './rollup.js';
import { utcDay } from './visitors.js';

// The cap on one visitor's views of one page a day (docs/analytics.md#limits) holds in the
// database: across batches, and across app servers writing the same visitor's views at once.

describe('the event writer', () => {
  const { db } = useDatabase({ maxConnections: 4 });

  const errors: unknown[] = [];
  /** An app server's writer: batches wait for `flush()` alone. */
  const server = () =>
    createEventWriter(db.pool, {
      flushMs: 60_000,
      batchSize: 1_000_000,
      log: (error) => errors.push(error),
    });
  /** Noon (UTC) `daysAgo` days ago: a batch of views then stays within its day. */
  const noon = (daysAgo: number) => {
    const at = new Date();
    at.setUTCHours(12, 0, 0, 0);
    at.setUTCDate(at.getUTCDate() - daysAgo);
    return at;
  };
  const views = (visitor: Buffer, path: string, count: number, at = noon(1)): CountedView[] =>
    Array.from({ length: count }, (_, n) => ({
      at: new Date(at.getTime() + n),
      visitor,
      path,
      postId: null,
      source: 'Direct',
    }));
  const kept = async (visitor: Buffer) => {
    const { rows } = await db.pool.query<{ path: string; views: number }>(
      `SELECT "path", count(*)::int AS "views" FROM "analytics_events" WHERE "visitor" = $1
        GROUP BY "path" ORDER BY "path"`,
      [visitor],
    );
    return rows;
  };

  it('keeps 10 of a visitor’s views of a page a day, written by two servers in many batches', async () => {
    const visitor = randomBytes(16);
    const [one, two] = [server(), server()];
    for (let round = 0; round < 4; round += 1) {
      for (const view of views(visitor, '/wealth/post-a', 4)) one.add(view);
      for (const view of views(visitor, '/wealth/post-a', 4)) two.add(view);
      for (const view of views(visitor, '/', 1)) two.add(view);
      await Promise.all([one.flush(), two.flush()]);
    }
    expect(errors).toEqual([]);
    expect(await kept(visitor)).toEqual([
      { path: '/', views: 4 },
      { path: '/wealth/post-a', views: VIEWS_PER_VISITOR_PAGE_DAY },
    ]);
  });

  it('keeps the first views of a batch that crosses the cap, and counts each day apart', async () => {
    const visitor = randomBytes(16);
    const writer = server();
    for (const view of views(visitor, '/topics', 7)) writer.add(view);
    await writer.flush();
    const crossing = views(visitor, '/topics', 6, new Date(noon(1).getTime() + 1_000));
    for (const view of [...crossing, ...views(visitor, '/topics', 12, noon(2))]) writer.add(view);
    await writer.flush();
    expect(errors).toEqual([]);
    const { rows } = await db.pool.query<{ at: Date }>(
      `SELECT "at" FROM "analytics_events" WHERE "visitor" = $1 AND "day" = $2::date
        ORDER BY "at" DESC LIMIT 3`,
      [visitor, utcDay(noon(1))],
    );
    expect(rows.map((row) => row.at.getTime())).toEqual(
      crossing
        .slice(0, 3)
        .reverse()
        .map((view) => view.at.getTime()),
    );
    const { rows: days } = await db.pool.query<{ views: number }>(
      `SELECT count(*)::int AS "views" FROM "analytics_events" WHERE "visitor" = $1
        GROUP BY "day" ORDER BY "day"`,
      [visitor],
    );
    expect(days).toEqual([
      { views: VIEWS_PER_VISITOR_PAGE_DAY },
      { views: VIEWS_PER_VISITOR_PAGE_DAY },
    ]);
  });

  it('forgets the tallies of days rolled up', async () => {
    const writer = server();
    for (const view of views(randomBytes(16), '/', 2, noon(3))) writer.add(view);
    await writer.flush();
    const { rows: before } = await db.pool.query<{ days: number }>(
      `SELECT count(DISTINCT "day")::int AS "days" FROM "analytics_visitor_pages"`,
    );
    expect(before).toEqual([{ days: 3 }]);
    await maintainAnalytics(db.pool);
    const { rows } = await db.pool.query<{ days: number }>(
      `SELECT count(*)::int AS "days" FROM "analytics_visitor_pages"`,
    );
    expect(rows).toEqual([{ days: 0 }]);
  });
});

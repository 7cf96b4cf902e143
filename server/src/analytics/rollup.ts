import type pg from 'pg';
import { withTransaction } from '../db/transaction.js';
import { TAGGED_EVENTS } from './tagged-events.js';
import { utcDay } from './visitors.js';

/** Raw views are kept this many days; the daily rows for good. */
export const RAW_EVENT_DAYS = 90;
/** A checkout's reading waits this long for its payment. */
export const CHECKOUT_DAYS = 7;
/** A day is rolled up once it has been over this long: a batch written late still makes it. */
const DAY_OVER_GRACE_MS = 5 * 60 * 1000;
/** The advisory lock two servers' rollups take turns on. */
const ROLLUP_LOCK = 4_402_026;

const day = (date: string, plus: number) => {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + plus);
  return utcDay(at);
};

/**
 * Rolls every finished day not rolled up yet into its daily rows (analytics_days, _day_sources,
 * _day_paths, _day_post_sources) and its posts' months (analytics_month_posts), oldest first,
 * each in a transaction of its own under an advisory lock, so two servers roll a day once. Then deletes raw views older than
 * RAW_EVENT_DAYS, every salt of a day that is over, the visitors' sources and tallies of days
 * rolled up, and checkouts whose payment never came.
 * Idempotent: run it any time (the app runs it at start and every hour). Answers the days it went
 * through.
 */
export async function maintainAnalytics(pool: pg.Pool, now = new Date()): Promise<string[]> {
  const today = utcDay(new Date(now.getTime() - DAY_OVER_GRACE_MS));
  const rolled: string[] = [];
  const { rows } = await pool.query<{ first: string | null }>(
    `SELECT coalesce(
       (SELECT to_char(max("day") + 1, 'YYYY-MM-DD') FROM "analytics_days"),
       (SELECT to_char(min("day"), 'YYYY-MM-DD') FROM "analytics_events")) AS "first"`,
  );
  for (let next = rows[0]?.first ?? null; next !== null && next < today; next = day(next, 1)) {
    // Another server is rolling up: it does the rest, in order.
    if (!(await rollUpDay(pool, next))) break;
    rolled.push(next);
  }
  await pool.query(`DELETE FROM "analytics_events" WHERE "day" < $1::date`, [
    day(utcDay(now), -RAW_EVENT_DAYS),
  ]);
  await pool.query(`DELETE FROM "analytics_salts" WHERE "day" < $1::date`, [utcDay(now)]);
  for (const table of ['analytics_visitors', 'analytics_visitor_pages']) {
    await pool.query(
      `DELETE FROM "${table}"
        WHERE "day" <= (SELECT max("day") FROM "analytics_days") AND "day" < $1::date`,
      [utcDay(now)],
    );
  }
  await pool.query(
    `DELETE FROM "analytics_checkouts" WHERE "at" < $1::timestamptz - make_interval(days => $2)`,
    [now, CHECKOUT_DAYS],
  );
  return rolled;
}

async function rollUpDay(pool: pg.Pool, date: string): Promise<boolean> {
  return withTransaction(pool, async (tx) => {
    const { rows } = await tx.query<{ locked: boolean }>(
      `SELECT pg_try_advisory_xact_lock($1) AS "locked"`,
      [ROLLUP_LOCK],
    );
    if (!rows[0]?.locked) return false;
    // A busy day's views take longer to count than a request's statement may (db/database.ts).
    await tx.query(`SET LOCAL statement_timeout = '120s'`);
    const done = await tx.query(`SELECT 1 FROM "analytics_days" WHERE "day" = $1::date`, [date]);
    if (done.rows.length > 0) return true;
    const params = [date, date, null];
    await tx.query(
      `WITH ${TAGGED_EVENTS}
       INSERT INTO "analytics_days" ("day", "views", "visitors")
       SELECT $1::date, count(*), count(DISTINCT "visitor") FROM tagged`,
      params,
    );
    await tx.query(
      `WITH ${TAGGED_EVENTS}
       INSERT INTO "analytics_day_sources" ("day", "source", "visitors")
       SELECT $1::date, "visitorSource", count(DISTINCT "visitor") FROM tagged
        GROUP BY "visitorSource"`,
      params,
    );
    await tx.query(
      `WITH ${TAGGED_EVENTS}
       INSERT INTO "analytics_day_paths" ("day", "path", "postId", "views", "visitors")
       SELECT $1::date, "path", max("postId"), count(*), count(DISTINCT "visitor") FROM tagged
        GROUP BY "path"`,
      params,
    );
    await tx.query(
      `WITH ${TAGGED_EVENTS}
       INSERT INTO "analytics_day_post_sources" ("day", "postId", "source", "views", "visitors")
       SELECT $1::date, "postId", "visitorSource", count(*), count(DISTINCT "visitor") FROM tagged
        WHERE "postId" IS NOT NULL GROUP BY "postId", "visitorSource"`,
      params,
    );
    await tx.query(
      `INSERT INTO "analytics_month_posts" ("month", "postId", "views", "visitors")
       SELECT date_trunc('month', $1::date)::date, "postId", sum("views"), sum("visitors")
         FROM "analytics_day_paths" WHERE "day" = $1::date AND "postId" IS NOT NULL
        GROUP BY "postId"
       ON CONFLICT ("month", "postId") DO UPDATE
         SET "views" = "analytics_month_posts"."views" + excluded."views",
             "visitors" = "analytics_month_posts"."visitors" + excluded."visitors"`,
      [date],
    );
    return true;
  });
}

// The desk's Analytics page over a year with 10 million views: GET /api/desk/analytics for the
// last 365 days through the real app (the staff check, the queries, the JSON), reading the daily
// rows a year of 10 million views would leave (1,000 posts, about 300 read each day, 20 sources)
// and today's raw views. Target: p95 under 100 ms.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { saveBenchResult } from '#test/bench-result';
import { buildMember } from '#test/factories';
import { describeTestDatabase } from '#test/postgres-cluster';
import { createTestApp } from '#test/test-app';
import { utcDay } from '../../server/src/analytics/visitors.js';

const VIEWS = 10_000_000;
const DAYS = 365;
const POSTS = 1_000;
const PATHS_A_DAY = 300;
const SOURCES = 20;
const RUNS = Number(process.env.ANALYTICS_BENCH_RUNS ?? 40);
const TARGET_MS = 100;
const OWNER = 'bench-owner@example.com';

const bench = await createTestApp({ env: { STAFF_EMAILS: OWNER } });
// The seed's statements take longer than the app's statement timeout allows: a client of its own.
const pool = new pg.Client({ connectionString: bench.testDatabase.url });
await pool.connect();
const owner = await buildMember(bench, { role: 'owner' });

const viewsADay = Math.round(VIEWS / DAYS);
const perPath = Math.round(viewsADay / PATHS_A_DAY);
const today = utcDay(new Date());
const seedStarted = performance.now();
await pool.query(
  `INSERT INTO "posts" ("kind", "slug", "status", "title", "fields", "publishedAt", "updatedAt")
   SELECT 'article', 'bench-' || n, 'published', 'Bench post ' || n,
          '{"category": "Wealth", "summary": "A post.", "readingMinutes": 3}',
          now() - interval '400 days', now()
     FROM generate_series(1, $1::int) n`,
  [POSTS],
);
const { rows: ids } = await pool.query<{ first: number }>(
  `SELECT min("id") AS "first" FROM "posts"`,
);
const firstId = ids[0]?.first ?? 1;
// Finished days: each day's 300 posts read (a window moving through the 1,000), by 20 sources.
await pool.query(
  `INSERT INTO "analytics_days" ("day", "views", "visitors")
   SELECT $1::date - d, $2::int, $2::int * 6 / 10 FROM generate_series(1, $3::int) d`,
  [today, viewsADay, DAYS],
);
await pool.query(
  `INSERT INTO "analytics_day_sources" ("day", "source", "visitors")
   SELECT $1::date - d, 'source-' || s, ($2::int * 6 / 10) / $3::int
     FROM generate_series(1, $4::int) d, generate_series(1, $3::int) s`,
  [today, viewsADay, SOURCES, DAYS],
);
await pool.query(
  `INSERT INTO "analytics_day_paths" ("day", "path", "postId", "views", "visitors")
   SELECT $1::date - d, '/wealth/bench-' || p, $2::int + p - 1, $3::int, $3::int * 6 / 10
     FROM generate_series(1, $4::int) d,
          LATERAL (SELECT ((d * 7 + i) % $5::int) + 1 AS p FROM generate_series(1, $6::int) i) x`,
  [today, firstId, perPath, DAYS, POSTS, PATHS_A_DAY],
);
await pool.query(
  `INSERT INTO "analytics_day_post_sources" ("day", "postId", "source", "views", "visitors")
   SELECT "day", "postId", 'source-' || s, "views" / 5, "visitors" / 5
     FROM "analytics_day_paths", generate_series(1, 5) s`,
);
await pool.query(
  `INSERT INTO "analytics_month_posts" ("month", "postId", "views", "visitors")
   SELECT date_trunc('month', "day")::date, "postId", sum("views"), sum("visitors")
     FROM "analytics_day_paths" GROUP BY 1, 2`,
);
// Today so far: a day's views, raw.
await pool.query(
  `INSERT INTO "analytics_events" ("at", "day", "visitor", "path", "postId", "source")
   SELECT now() - make_interval(secs => i % 80000), $1::date,
          decode(lpad(to_hex(i % ($2::int * 6 / 10)), 32, '0'), 'hex'),
          '/wealth/bench-' || (i % $3::int + 1), $4::int + i % $3::int,
          CASE WHEN i % 4 = 0 THEN 'source-' || (i % $5::int + 1) WHEN i % 4 = 1 THEN NULL
               ELSE 'Direct' END
     FROM generate_series(1, $2::int) i`,
  [today, viewsADay, POSTS, firstId, SOURCES],
);
await pool.query(
  `INSERT INTO "analytics_visitors" ("day", "visitor", "source")
   SELECT DISTINCT ON ("day", "visitor") "day", "visitor", "source" FROM "analytics_events"
    WHERE "source" IS NOT NULL ORDER BY "day", "visitor", "at"`,
);
await pool.query('ANALYZE');
const seedSeconds = (performance.now() - seedStarted) / 1000;
const { rows: counted } = await pool.query<{ views: string; rows: string }>(
  `SELECT (SELECT sum("views") FROM "analytics_day_paths") AS "views",
          (SELECT count(*) FROM "analytics_day_paths") AS "rows"`,
);

const from = utcDay(new Date(Date.now() - (DAYS - 1) * 86_400_000));
const url = `/api/desk/analytics?from=${from}&to=${today}`;

/** p50 and p95 of the year's answer, and the views it counted. */
async function measure() {
  const timings: number[] = [];
  let views = 0;
  for (let run = 0; run < RUNS + 5; run += 1) {
    const started = performance.now();
    const response = await bench.app.inject({
      method: 'GET',
      url,
      headers: { cookie: owner.cookie },
    });
    const ms = performance.now() - started;
    if (response.statusCode !== 200) {
      throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    }
    views = (response.json() as { totals: { views: number } }).totals.views;
    if (run >= 5) timings.push(ms); // the first few warm the plan cache and the pool
  }
  timings.sort((a, b) => a - b);
  const at = (p: number) =>
    timings[Math.min(timings.length - 1, Math.floor(p * timings.length))] ?? 0;
  return { p50: at(0.5), p95: at(0.95), views };
}

const { p50, p95, views } = await measure();
// Where the time goes: the same year with no raw views today (the daily rows alone).
await pool.query('DELETE FROM "analytics_events"');
await pool.query('DELETE FROM "analytics_visitors"');
const rolledOnly = await measure();

const database = await describeTestDatabase(bench.testDatabase);
const summary =
  `analytics-query: a year of ${views.toLocaleString('en')} views, p95 ${p95.toFixed(1)} ms ` +
  `(target < ${TARGET_MS} ms: ${p95 < TARGET_MS ? 'met' : 'NOT met'})`;
console.log(
  `database: ${database}; ${RUNS} runs after 5 warm-up (seeded in ${seedSeconds.toFixed(1)} s: ` +
    `${Number(counted[0]?.rows).toLocaleString('en')} daily page rows, ` +
    `${Number(counted[0]?.views).toLocaleString('en')} rolled-up views + ${viewsADay.toLocaleString('en')} raw today)`,
);
console.log(`  GET ${url}  p50 ${p50.toFixed(1)} ms  p95 ${p95.toFixed(1)} ms`);
console.log(
  `  the same, no raw views today  p50 ${rolledOnly.p50.toFixed(1)} ms  ` +
    `p95 ${rolledOnly.p95.toFixed(1)} ms`,
);
console.log(summary);
saveBenchResult({
  title: 'Analytics: the desk’s year at 10 million views',
  summary,
  setup:
    `GET /api/desk/analytics for ${DAYS} days through the real app (app.inject: the staff check, ` +
    `the queries, the JSON) over the daily rows a year of ${VIEWS.toLocaleString('en')} views ` +
    `leaves (${POSTS.toLocaleString('en')} posts, ${PATHS_A_DAY} read a day, ${SOURCES} sources) ` +
    `and today's ${viewsADay.toLocaleString('en')} raw views; ${RUNS} runs after 5 warm-up runs.`,
  database,
  tables: [
    {
      columns: ['range', 'views', 'p50 ms', 'p95 ms'],
      rows: [
        [`${DAYS} days`, views, p50.toFixed(1), p95.toFixed(1)],
        [
          `${DAYS} days, no raw views today`,
          rolledOnly.views,
          rolledOnly.p50.toFixed(1),
          rolledOnly.p95.toFixed(1),
        ],
      ],
    },
  ],
});
await pool.end();
await bench.close();

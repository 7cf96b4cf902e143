// Page views accepted per second by one app process: POST /api/events (the body's schema, the bot
// check, the page lookup, the visitor's hash with the day's salt, the source) with the writes
// batched into one INSERT of arrays a second. Every answer must be a 202, and every view accepted
// must be in analytics_events afterwards. Target: 5,000 views a second or more.
import autocannon from 'autocannon';
import { saveBenchResult } from '#test/bench-result';
import { describeTestDatabase } from '#test/postgres-cluster';
import { createTestApp } from '#test/test-app';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = 50;
const TARGET = 5_000;

// The baseline: a POST the app answers 202 without looking at it, through the same plugins.
// The bench is one address sending thousands of views a second: its limit is lifted.
const bench = await createTestApp({
  env: { EVENTS_RATE_LIMIT: '1000000' },
  configure(app) {
    app.post('/bench/baseline', async (_request, reply) => reply.code(202).send());
  },
});
const { pool } = bench.database;
const url = await bench.app.listen({ host: '127.0.0.1', port: 0 });

// Readers on the home page and the topics list, some from outside, each view from a browser of
// its own: every view is a new visitor's, so none is left out by the cap of views per visitor,
// page and day, and each one's count is a row written (the cap's dearest path).
let browser = 0;
const requests: autocannon.Request[] = Array.from({ length: 40 }, (_, n) => ({
  method: 'POST',
  path: '/api/events',
  setupRequest: (request: autocannon.Request) => ({
    ...request,
    headers: {
      ...request.headers,
      'user-agent': `Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.${(browser += 1)}.0 Safari/537.36`,
    },
  }),
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    type: 'pageview',
    path: n % 2 ? '/' : `/topics?ref=bench${n % 5}`,
    ...(n % 3 === 0 && { referrer: 'https://news.ycombinator.com/' }),
  }),
}));

async function measure(duration: number, path = '/api/events') {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    requests: requests.map((request) => ({ ...request, path })),
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return result;
}

const baseline = await measure(DURATION_S, '/bench/baseline');
await measure(2); // warm-up: JIT, pool, the counted pages, the day's salt
await new Promise((resolve) => setTimeout(resolve, 1_000)); // the warm-up's last answers
await bench.app.analytics.flush();
await pool.query('TRUNCATE "analytics_events"');
const result = await measure(DURATION_S);
await bench.app.analytics.flush();
const { rows } = await pool.query<{ count: string }>('SELECT count(*) FROM "analytics_events"');
const written = Number(rows[0]?.count);
// Requests still on their way when the run ends are answered, and written, but not counted.
const accepted = result['2xx'];
if (written < accepted || written > accepted + CONNECTIONS) {
  throw new Error(`${accepted} views accepted, ${written} written`);
}

const perSecond = result.requests.average;
const database = await describeTestDatabase(bench.testDatabase);
const summary =
  `analytics-events: ${perSecond.toFixed(0)} views/s accepted and written by one process, ` +
  `${((perSecond / baseline.requests.average) * 100).toFixed(0)}% of an empty route's ` +
  `(target ≥ ${TARGET.toLocaleString('en')}: ${perSecond >= TARGET ? 'met' : 'NOT met'})`;
console.log(`database: ${database}; ${CONNECTIONS} connections, ${DURATION_S} s`);
console.log(
  `  POST /api/events  ${perSecond.toFixed(0)} req/s  p50 ${result.latency.p50} ms  ` +
    `p99 ${result.latency.p99} ms  ${written.toLocaleString('en')} rows written`,
);
console.log(
  `  baseline (202, no work)  ${baseline.requests.average.toFixed(0)} req/s  ` +
    `p50 ${baseline.latency.p50} ms  p99 ${baseline.latency.p99} ms`,
);
console.log(summary);
saveBenchResult({
  title: 'Analytics: page views accepted (POST /api/events, one process)',
  summary,
  setup:
    `autocannon, ${CONNECTIONS} keep-alive connections for ${DURATION_S} s (after a 2 s warm-up) ` +
    'against one in-process app (generator and server share one event loop): 40 different ' +
    'browsers on two counted pages, with and without a ref or a referrer, next to a baseline ' +
    'route that answers 202 through the same plugins and does nothing. Views are written in ' +
    'batches (one INSERT of arrays a second, or every 1,000); the run checks every accepted view ' +
    'was written.',
  database,
  tables: [
    {
      columns: ['route', 'req/s', 'p50 ms', 'p99 ms', 'rows written'],
      rows: [
        [
          'POST /bench/baseline (202, no work)',
          baseline.requests.average.toFixed(0),
          baseline.latency.p50,
          baseline.latency.p99,
          '',
        ],
        [
          'POST /api/events',
          perSecond.toFixed(0),
          result.latency.p50,
          result.latency.p99,
          written.toLocaleString('en'),
        ],
      ],
    },
  ],
});
await bench.close();

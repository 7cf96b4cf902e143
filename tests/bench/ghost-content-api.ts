// Ghost's Content API (docs/ghost-api.md) against the home page, in one process: GET
// /ghost/api/content/posts/?limit=15&include=tags,authors (the content key's lookup, then the
// answer kept for the content's generation) next to GET / (the page drawn once, kept compressed
// by the server), on the shipped content.
// Target: the Content API at 0.5 or more of the home page's throughput.
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { saveBenchResult } from '#test/bench-result';
import { describeTestDatabase } from '#test/postgres-cluster';
import { createTestApp } from '#test/test-app';
import { createIntegration, keySecretsOf } from '../../server/src/integrations/integrations.js';
import { clientDistDir, contentDir, ssrDistDir } from '../../server/src/paths.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = 50;
const TARGET_RATIO = 0.5;

const bench = await createTestApp({
  clientDir: clientDistDir,
  ssrDir: ssrDistDir,
  seedContentDir: contentDir,
  env: { SITE_URL: 'https://bench.example.org' },
});
const { contentKey } = await createIntegration(
  bench.database.pool,
  keySecretsOf(bench.config),
  { userId: randomUUID(), email: 'bench-owner@example.com' },
  { name: 'Benchmark' },
);
const url = await bench.app.listen({ host: '127.0.0.1', port: 0 });
const API_PATH = `/ghost/api/content/posts/?key=${contentKey}&limit=15&include=tags,authors`;

async function measure(path: string) {
  const check = await fetch(`${url}${path}`);
  const body = await check.text();
  if (check.status !== 200) throw new Error(`${path}: ${check.status} ${body.slice(0, 200)}`);
  const options = { url: `${url}${path}`, connections: CONNECTIONS };
  await autocannon({ ...options, duration: 2 }); // warm-up: JIT, pool, prepared plans
  const result = await autocannon({ ...options, duration: DURATION_S });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${path}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return {
    bytes: body.length,
    requests: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}
type Measured = Awaited<ReturnType<typeof measure>>;

// Each measured twice, turn about, so a machine that slows down in between weighs on both.
const [home1, api1, api2, home2] = [
  await measure('/'),
  await measure(API_PATH),
  await measure(API_PATH),
  await measure('/'),
];
const mean = (a: Measured, b: Measured): Measured => ({
  bytes: a.bytes,
  requests: (a.requests + b.requests) / 2,
  p50: (a.p50 + b.p50) / 2,
  p99: Math.max(a.p99, b.p99),
});
const home = mean(home1, home2);
const api = mean(api1, api2);
const ratio = api.requests / home.requests;

const database = await describeTestDatabase(bench.testDatabase);
console.log(`database: ${database}; ${CONNECTIONS} connections, ${DURATION_S} s each`);
const measured = [
  ['GET / (home page)', home],
  ['GET posts/?limit=15&include=tags,authors', api],
] as const;
for (const [name, { requests, p50, p99, bytes }] of measured) {
  console.log(
    `  ${name.padEnd(42)} ${requests.toFixed(0).padStart(7)} req/s  ` +
      `p50 ${p50} ms  p99 ${p99} ms  ${bytes} bytes`,
  );
}
const summary = `ghost-content-api: posts/?limit=15&include=tags,authors / home page = ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'})`;
console.log(summary);
saveBenchResult({
  title: 'Ghost Content API (posts, one process)',
  summary,
  setup:
    `autocannon, ${CONNECTIONS} connections for ${DURATION_S} s each (after a 2 s warm-up), each route twice, turn about (home, API, API, home), against one ` +
    'in-process app on the shipped content (generator and server share one event loop): ' +
    "Ghost's Content API's posts/ with limit=15 and include=tags,authors (content key looked up " +
    'by its hash in PostgreSQL, answer kept for the content generation) next to the home page.',
  database,
  tables: [
    {
      columns: ['route', 'req/s', 'p50 ms', 'p99 ms', 'bytes'],
      rows: measured.map(([name, { requests, p50, p99, bytes }]) => [
        name,
        requests.toFixed(0),
        p50,
        p99,
        bytes,
      ]),
    },
  ],
});
await bench.close();

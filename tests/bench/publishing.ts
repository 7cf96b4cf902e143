// Publishing at run time (decision 16), two figures:
// 1. Publish-to-live across two app servers on one database: an article published through server
//    A, then asked for from server B every 10 ms until B serves it. Target: p95 ≤ 2 s.
// 2. A published article's page, drawn at run time from the database and kept until the content
//    changes, against the same page's bytes served from memory as the build-time prerender did
//    (read once at start, compressed once): requests per second, one process. Target ≥ 0.9.
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { saveBenchResult } from '#test/bench-result';
import { describeTestDatabase } from '#test/postgres-cluster';
import { createTestApp, TEST_SESSION_SECRET, type TestApp } from '#test/test-app';
import { SESSION_COOKIE } from '../../server/src/plugins/app/sessions.js';
import { createSessionTokens } from '../../server/src/sessions/session-token.js';
import { clientDistDir, contentDir, ssrDistDir } from '../../server/src/paths.js';
import { articlePath } from '#test/bench-stack';

const ROUNDS = Number(process.env.BENCH_PUBLISH_ROUNDS ?? 30);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = 50;
const TARGET_P95_MS = 2_000;
const TARGET_RATIO = 0.9;
const OWNER = 'owner@bench.example';

const built = { clientDir: clientDistDir, ssrDir: ssrDistDir };
const env = { STAFF_EMAILS: OWNER, SITE_URL: 'https://bench.example' };
const path = articlePath();
let prerendered: { br: Buffer; etag: string } | null = null;

const a: TestApp = await createTestApp({
  ...built,
  env,
  seedContentDir: contentDir,
  configure(app) {
    // What the build-time prerender served: the page's bytes, read once, sent from memory.
    app.get('/bench/prerendered', async (_request, reply) => {
      if (!prerendered) throw new Error('not ready');
      return reply
        .header('cache-control', 'no-cache')
        .header('etag', prerendered.etag)
        .header('vary', 'Accept-Encoding, Cookie')
        .header('content-encoding', 'br')
        .type('text/html; charset=utf-8')
        .send(prerendered.br);
    });
  },
});
if (a.testDatabase.embedded) {
  console.log('publishing: needs a PostgreSQL server (set TEST_DATABASE_URL): skipped');
  await a.close();
  process.exit(0);
}
const b = await createTestApp({ ...built, env, sharedDatabase: a.testDatabase });

// An owner with a proven address and a stored session, as the desk has them.
const ownerId = randomUUID();
const sessionId = randomUUID();
await a.database.pool.query(
  `INSERT INTO users (id, email, "passwordHash", "emailVerifiedAt", "sessionVersion", "updatedAt")
    VALUES ($1, $2, 'x', now(), 1, now())`,
  [ownerId, OWNER],
);
await a.database.pool.query(
  `INSERT INTO sessions (id, "userId", "signedInAt") VALUES ($1, $2, now())`,
  [sessionId, ownerId],
);
const cookie = `${SESSION_COOKIE}=${await createSessionTokens(TEST_SESSION_SECRET).sign(ownerId, 1, sessionId)}`;

const latencies: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  const slug = `bench-${round}-${randomUUID().slice(0, 8)}`;
  const created = await a.app.inject({
    method: 'POST',
    url: '/api/desk/posts',
    headers: { cookie },
    payload: {
      kind: 'article',
      slug,
      title: `Benchmark article ${round}`,
      category: 'Health',
      summary: 'Published by the benchmark.',
      readingMinutes: 1,
      body: 'A short body.',
    },
  });
  if (created.statusCode !== 201) throw new Error(`create: ${created.statusCode} ${created.body}`);
  const { post } = created.json() as { post: { id: number; version: number; path: string } };
  const published = await a.app.inject({
    method: 'POST',
    url: `/api/desk/posts/${post.id}/publish`,
    headers: { cookie },
    payload: { version: post.version },
  });
  if (published.statusCode !== 200) throw new Error(`publish: ${published.body}`);
  const started = performance.now();
  for (;;) {
    const response = await b.app.inject({ method: 'GET', url: post.path });
    if (response.statusCode === 200) break;
    if (performance.now() - started > 10_000) throw new Error(`${post.path} not live on B in 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  latencies.push(performance.now() - started);
}
latencies.sort((x, y) => x - y);
const quantile = (q: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
const p50 = quantile(0.5);
const p95 = quantile(0.95);
const max = latencies[latencies.length - 1] ?? 0;

// The page as the run-time renderer sends it, and the same bytes as the prerender did.
const drawn = await a.app.inject({
  method: 'GET',
  url: path,
  headers: { 'accept-encoding': 'br' },
});
if (drawn.statusCode !== 200) throw new Error(`${path}: ${drawn.statusCode}`);
prerendered = { br: drawn.rawPayload, etag: String(drawn.headers.etag) };
const url = await a.app.listen({ host: '127.0.0.1', port: 0 });

async function measure(target: string) {
  const options = {
    url: `${url}${target}`,
    connections: CONNECTIONS,
    headers: { 'accept-encoding': 'br, gzip' },
  };
  await autocannon({ ...options, duration: 2 }); // warm-up
  const result = await autocannon({ ...options, duration: DURATION_S });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${target}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return result;
}
const baseline = await measure('/bench/prerendered');
const runTime = await measure(path);
const ratio = runTime.requests.average / baseline.requests.average;

const database = await describeTestDatabase(a.testDatabase);
await b.close();
await a.close();

console.log(`database: ${database}`);
console.log(
  `  publish → live on the other server (${ROUNDS} posts): p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, max ${max.toFixed(0)} ms`,
);
for (const [name, result] of [
  ['prerendered bytes from memory', baseline],
  [`GET ${path} (run time)`, runTime],
] as const) {
  console.log(
    `  ${name.padEnd(44)} ${result.requests.average.toFixed(0).padStart(7)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms`,
  );
}
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
const summary =
  `publishing: live on the second server p95 ${p95.toFixed(0)} ms (target ≤ ${TARGET_P95_MS} ms: ${met(p95 <= TARGET_P95_MS)}); ` +
  `a page drawn at run time / prerendered = ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}: ${met(ratio >= TARGET_RATIO)})`;
console.log(summary);
saveBenchResult({
  title: 'Publishing at run time (two app servers, one database)',
  summary,
  setup:
    `Two app servers (the real app, in one process) on one PostgreSQL database. ${ROUNDS} articles ` +
    'are published through the first (POST /api/desk/posts, then …/publish); the second is asked ' +
    'for each article’s page every 10 ms until it answers 200, timed from the publish answer. ' +
    `Then ${path}, drawn by the run-time renderer, against the same page’s bytes sent from memory ` +
    `as the build-time prerender did, with autocannon (${CONNECTIONS} connections, ${DURATION_S} s, brotli).`,
  database,
  tables: [
    {
      caption: 'Publish → served by the other app server',
      columns: ['posts', 'p50', 'p95', 'max'],
      rows: [[ROUNDS, `${p50.toFixed(0)} ms`, `${p95.toFixed(0)} ms`, `${max.toFixed(0)} ms`]],
    },
    {
      caption: 'A published article’s page',
      columns: ['', 'req/s', 'p50', 'p99'],
      rows: [
        [
          'prerendered bytes from memory (before)',
          baseline.requests.average.toFixed(0),
          `${baseline.latency.p50} ms`,
          `${baseline.latency.p99} ms`,
        ],
        [
          'drawn at run time, kept until a change',
          runTime.requests.average.toFixed(0),
          `${runTime.latency.p50} ms`,
          `${runTime.latency.p99} ms`,
        ],
      ],
    },
  ],
});

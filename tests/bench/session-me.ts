// GET /api/me (cookie → JWT verification → user and membership lookup (one SQL query) → JSON) against a baseline
// route in the same process and run that does the same primary-key lookup with raw `pg` and no
// session work. Target: /api/me at 0.8 or more of the baseline's throughput.
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { SESSION_COOKIE } from '../../server/src/plugins/app/sessions.js';
import { saveBenchResult } from '#test/bench-result';
import { describeTestDatabase } from '#test/postgres-cluster';
import { createSessionTokens } from '../../server/src/sessions/session-token.js';
import { createTestApp, TEST_SESSION_SECRET } from '#test/test-app';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = 50;
const TARGET_RATIO = 0.8;

const userId = randomUUID();
const bench = await createTestApp({
  configure(app, database) {
    app.get('/bench/baseline', async () => {
      const { rows } = await database.pool.query<{ id: string; email: string | null }>(
        'SELECT id, email, "sessionVersion" FROM users WHERE id = $1',
        [userId],
      );
      const row = rows[0];
      return {
        user: { id: row?.id, email: row?.email ?? null, isSubscribed: false, membership: null },
      };
    });
  },
});
await bench.database.prisma.user.create({ data: { id: userId } });
const url = await bench.app.listen({ host: '127.0.0.1', port: 0 });
const cookie = `${SESSION_COOKIE}=${await createSessionTokens(TEST_SESSION_SECRET).sign(userId, 0)}`;

async function measure(path: string, headers: Record<string, string> = {}) {
  const options = { url: `${url}${path}`, connections: CONNECTIONS, headers };
  await autocannon({ ...options, duration: 2 }); // warm-up: JIT, pool, prepared plans
  const result = await autocannon({ ...options, duration: DURATION_S });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${path}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return result;
}

const baseline = await measure('/bench/baseline');
const me = await measure('/api/me', { cookie });
const ratio = me.requests.average / baseline.requests.average;

const database = await describeTestDatabase(bench.testDatabase);
console.log(`database: ${database}; ${CONNECTIONS} connections, ${DURATION_S} s each`);
const measured = [
  ['baseline (raw pg, no session)', baseline],
  ['GET /api/me', me],
] as const;
for (const [name, result] of measured) {
  console.log(
    `  ${name.padEnd(30)} ${result.requests.average.toFixed(0).padStart(7)} req/s  ` +
      `p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms`,
  );
}
const summary = `session-me: GET /api/me / baseline = ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'})`;
console.log(summary);
saveBenchResult({
  title: 'Session lookup (GET /api/me, one process)',
  summary,
  setup:
    `autocannon, ${CONNECTIONS} connections for ${DURATION_S} s each (after a 2 s warm-up), against one ` +
    'in-process app (generator and server share one event loop): GET /api/me (cookie, JWT ' +
    'verification, user and membership lookup with raw pg, JSON) next ' +
    'to a baseline route doing the same primary-key lookup with raw pg and no session work.',
  database,
  tables: [
    {
      columns: ['route', 'req/s', 'p50 ms', 'p99 ms'],
      rows: measured.map(([name, result]) => [
        name,
        result.requests.average.toFixed(0),
        result.latency.p50,
        result.latency.p99,
      ]),
    },
  ],
});
await bench.close();

// GET /api/me (cookie → JWT verification → user, membership and session lookup (one SQL query,
// unnamed: PgBouncer-safe) → JSON) against a baseline route in the same process and run that does
// the same primary-key lookup with raw `pg` and no session work. Measured for an anonymous reader
// and for a signed-in member (whose stored session is checked on every request).
// Target: /api/me at 0.9 or more of the baseline's throughput.
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { SESSION_COOKIE } from '../../server/src/plugins/app/sessions.js';
import { saveBenchResult } from '#test/bench-result';
import { describeTestDatabase } from '#test/postgres-cluster';
import { createSessionTokens } from '../../server/src/sessions/session-token.js';
import { createTestApp, TEST_SESSION_SECRET } from '#test/test-app';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = 50;
const TARGET_RATIO = 0.9;

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
const memberId = randomUUID();
const sessionId = randomUUID();
await bench.database.prisma.user.create({
  data: { id: memberId, email: `${memberId}@example.com`, passwordHash: 'x', sessionVersion: 1 },
});
await bench.database.prisma.session.create({ data: { id: sessionId, userId: memberId } });
const url = await bench.app.listen({ host: '127.0.0.1', port: 0 });
const tokens = createSessionTokens(TEST_SESSION_SECRET);
const cookie = `${SESSION_COOKIE}=${await tokens.sign(userId, 0)}`;
const memberCookie = `${SESSION_COOKIE}=${await tokens.sign(memberId, 1, sessionId)}`;

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
const signedIn = await measure('/api/me', { cookie: memberCookie });
const ratio = me.requests.average / baseline.requests.average;
const signedInRatio = signedIn.requests.average / baseline.requests.average;

const database = await describeTestDatabase(bench.testDatabase);
console.log(`database: ${database}; ${CONNECTIONS} connections, ${DURATION_S} s each`);
const measured = [
  ['baseline (raw pg, no session)', baseline],
  ['GET /api/me (anonymous)', me],
  ['GET /api/me (signed in)', signedIn],
] as const;
for (const [name, result] of measured) {
  console.log(
    `  ${name.padEnd(30)} ${result.requests.average.toFixed(0).padStart(7)} req/s  ` +
      `p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms`,
  );
}
const worst = Math.min(ratio, signedInRatio);
const summary = `session-me: GET /api/me / baseline = ${ratio.toFixed(2)} anonymous, ${signedInRatio.toFixed(2)} signed in (target ≥ ${TARGET_RATIO}: ${worst >= TARGET_RATIO ? 'met' : 'NOT met'})`;
console.log(summary);
saveBenchResult({
  title: 'Session lookup (GET /api/me, one process)',
  summary,
  setup:
    `autocannon, ${CONNECTIONS} connections for ${DURATION_S} s each (after a 2 s warm-up), against one ` +
    'in-process app (generator and server share one event loop): GET /api/me (cookie, JWT ' +
    'verification, user, membership and stored-session lookup in one unnamed raw pg query, ' +
    'JSON; an anonymous reader and a signed-in member) next ' +
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

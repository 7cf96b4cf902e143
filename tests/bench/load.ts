// A realistic mix of traffic for LOAD_DURATION_S seconds (60) at 100 concurrent connections against
// the production shape: the shipped nginx.conf in front of two built app servers, one PostgreSQL
// database and Redis for the shared rate-limit counters. Each route below is driven by its own
// share of the connections (a closed loop: a connection sends its next request when the last one
// is answered), so the mix follows the weights and each route's figures stand on their own.
// Fails (exit 1) on any non-2xx answer, connection error, timeout or dropped connection, and when
// the database does not hold exactly what the acknowledged webhooks paid for.
//
// All the traffic comes from 127.0.0.1, so the edge (nginx limit_req) and app rate limits, which
// count per client address, would turn it into 429s: the apps run with SESSION_RATE_LIMIT and
// LOGIN_RATE_LIMIT raised, and nginx's `limit_req_zone` rates are raised through the config's
// `# test: edge rate limit` lines. The limits still run (Redis counters, nginx zones), they just
// do not bite.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { saveBenchResult } from '#test/bench-result';
import { articlePath, startBenchStack } from '#test/bench-stack';
import { clientDir } from '#test/nginx';
import {
  deliverWebhook,
  newPaymentEvent,
  readLedger,
  type PaymentEvent,
} from '#test/payment-deliveries';

const DURATION_S = Number(process.env.LOAD_DURATION_S ?? 60);
const WARM_UP_S = Math.min(5, DURATION_S);
const CONNECTIONS = 100;
/** Share of POST /api/session from a first-time visitor (no cookie yet); the rest send theirs. */
const FRESH_VISITOR_SHARE = 0.1;
const SESSIONS = 40;

const browser = {
  'accept-encoding': 'gzip, deflate, br',
  'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/126 Mobile Safari/537.36',
};

const stack = await startBenchStack({
  appEnv: { SESSION_RATE_LIMIT: '100000', LOGIN_RATE_LIMIT: '100000' },
  edgeRate: '100000r/s',
});
let failed = false;
try {
  const { url, stripe } = stack;

  // Visitors with a session, half of them members (their payment delivered as Stripe would).
  const cookies: string[] = [];
  const setUpPayments: PaymentEvent[] = [];
  for (let i = 0; i < SESSIONS; i += 1) {
    const response = await fetch(`${url}/api/session`, { method: 'POST' });
    const { user } = (await response.json()) as { user: { id: string } };
    cookies.push((response.headers.get('set-cookie') ?? '').split(';')[0] ?? '');
    if (i % 2 === 0) {
      const payment = newPaymentEvent(stripe, user.id);
      setUpPayments.push(payment);
      const delivered = await deliverWebhook(url, stripe, payment.event);
      if (delivered.status !== 200) throw new Error(`set-up webhook: ${delivered.status}`);
    }
  }
  const anyCookie = () => cookies[Math.floor(Math.random() * cookies.length)] ?? '';

  const html = readFileSync(join(clientDir, 'index.html'), 'utf8');
  const asset = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  if (!asset) throw new Error('No entry script in dist/client/index.html');
  const article = articlePath();

  const webhookPayments: PaymentEvent[] = [];
  const routes: { name: string; connections: number; request: autocannon.Request }[] = [
    { name: 'GET / (page)', connections: 15, request: { method: 'GET', path: '/' } },
    {
      name: 'GET /health (list page)',
      connections: 10,
      request: { method: 'GET', path: '/health' },
    },
    {
      name: `GET ${article} (article page)`,
      connections: 10,
      request: { method: 'GET', path: article },
    },
    {
      name: 'GET /assets/index-….js (hashed asset)',
      connections: 5,
      request: { method: 'GET', path: asset },
    },
    {
      name: 'POST /api/session',
      connections: 15,
      request: {
        method: 'POST',
        path: '/api/session',
        setupRequest: (request) => ({
          ...request,
          headers: {
            ...request.headers,
            ...(Math.random() >= FRESH_VISITOR_SHARE && { cookie: anyCookie() }),
          },
        }),
      },
    },
    {
      name: 'GET /api/me',
      connections: 20,
      request: {
        method: 'GET',
        path: '/api/me',
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, cookie: anyCookie() },
        }),
      },
    },
    { name: 'GET /api/config', connections: 15, request: { method: 'GET', path: '/api/config' } },
    {
      name: 'POST /webhooks/stripe (payment_intent.succeeded)',
      connections: 10,
      request: {
        method: 'POST',
        path: '/webhooks/stripe',
        setupRequest: (request) => {
          const payment = newPaymentEvent(stripe);
          webhookPayments.push(payment);
          const { payload, headers } = stripe.signedDelivery(payment.event);
          return { ...request, body: payload, headers: { ...request.headers, ...headers } };
        },
      },
    },
  ];
  const total = routes.reduce((sum, route) => sum + route.connections, 0);
  if (total !== CONNECTIONS) throw new Error(`the routes hold ${total} connections`);

  const runAll = (duration: number) =>
    Promise.all(
      routes.map((route) =>
        autocannon({
          url,
          title: route.name,
          connections: route.connections,
          duration,
          timeout: 10,
          // autocannon ignores `Connection: close`: when nginx ends a keep-alive connection after
          // its keepalive_requests (1000), the request already written into it is lost and counted
          // as an error. A browser would open a new connection; so does this, every 500 requests.
          reconnectRate: 500,
          headers: browser,
          requests: [route.request],
        }),
      ),
    );

  console.log(`warming up for ${WARM_UP_S} s …`);
  await runAll(WARM_UP_S);
  const warmUpPayments = webhookPayments.length;
  console.log(`${DURATION_S} s at ${CONNECTIONS} connections …`);
  const results = await runAll(DURATION_S);

  const allRequests = results.reduce((sum, result) => sum + result.requests.total, 0);
  const rows = results.map((result, i) => {
    const route = routes[i];
    const perSecond = result.requests.total / result.duration;
    const problems = result.non2xx + result.errors + result.timeouts + result.mismatches;
    if (problems > 0) failed = true;
    const codes = Object.entries(result.statusCodeStats ?? {})
      .map(([code, stats]) => `${code}×${stats.count ?? 0}`)
      .join(' ');
    return {
      name: route?.name ?? result.title ?? '?',
      connections: route?.connections ?? 0,
      perSecond,
      share: result.requests.total / allRequests,
      p50: result.latency.p50,
      p99: result.latency.p99,
      max: result.latency.max,
      problems,
      detail:
        `${result['2xx']} 2xx, ${result.non2xx} non-2xx (${result['5xx']} 5xx), ` +
        `${result.errors} errors, ${result.timeouts} timeouts [${codes}]`,
    };
  });

  console.log(
    `  ${'route'.padEnd(52)} ${'conns'.padStart(5)} ${'req/s'.padStart(8)} ${'share'.padStart(6)} ` +
      `${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'max ms'.padStart(7)}  answers`,
  );
  for (const row of rows) {
    console.log(
      `  ${row.name.padEnd(52)} ${String(row.connections).padStart(5)} ${row.perSecond.toFixed(0).padStart(8)} ` +
        `${(row.share * 100).toFixed(1).padStart(5)}% ${String(row.p50).padStart(7)} ${String(row.p99).padStart(7)} ` +
        `${String(row.max).padStart(7)}  ${row.detail}`,
    );
  }
  const totalPerSecond = rows.reduce((sum, row) => sum + row.perSecond, 0);

  // What the money path stored must match what it acknowledged: every acknowledged payment granted
  // once (a delivery cut off when the run ended may or may not have been stored, but never twice or
  // by halves).
  const webhookResult = results.at(-1);
  const acknowledged = (webhookResult?.['2xx'] ?? 0) + warmUpPayments + setUpPayments.length;
  const paid = [...setUpPayments, ...webhookPayments];
  const ledger = await readLedger(stack.database.url, paid);
  const ledgerOk =
    ledger.payments >= acknowledged &&
    ledger.payments <= paid.length &&
    ledger.events === ledger.payments &&
    ledger.memberships === ledger.payments &&
    ledger.grantedTwice === 0 &&
    ledger.halfRecorded === 0;
  if (!ledgerOk) failed = true;
  const ledgerLine =
    `ledger: ${acknowledged} webhook payments acknowledged, ${ledger.payments} stored ` +
    `(${ledger.events} events, ${ledger.memberships} memberships, ${ledger.grantedTwice} granted twice, ` +
    `${ledger.halfRecorded} half-recorded): ${ledgerOk ? 'consistent' : 'INCONSISTENT'}`;
  console.log(`  ${ledgerLine}`);

  const problems = rows.reduce((sum, row) => sum + row.problems, 0);
  const summary =
    `load: ${totalPerSecond.toFixed(0)} req/s in all over ${DURATION_S} s at ${CONNECTIONS} connections ` +
    `through nginx to two app servers; ${problems === 0 ? 'no' : problems} non-2xx answers, errors or timeouts` +
    (failed ? ' — FAILED' : '');
  console.log(summary);

  saveBenchResult({
    title: 'Load (nginx + two app servers)',
    summary,
    setup:
      `autocannon, ${DURATION_S} s (after a ${WARM_UP_S} s warm-up) at ${CONNECTIONS} keep-alive connections, ` +
      `each route driven by its own connections in a closed loop, against the shipped nginx.conf in front of ` +
      `two built app servers (NODE_ENV=production), Redis rate-limit counters, on the same 2-core machine as ` +
      `the load generator. Pages and the asset ask for gzip like a browser; POST /api/session sends a ` +
      `session cookie ${(100 * (1 - FRESH_VISITOR_SHARE)).toFixed(0)}% of the time (a first visit otherwise); ` +
      `GET /api/me uses ${SESSIONS} sessions, half of them members; every webhook is a signed ` +
      `payment_intent.succeeded for a new visitor (a user row, a payment and a membership in one transaction).`,
    database: stack.database.description,
    tables: [
      {
        columns: [
          'route',
          'connections',
          'req/s',
          'share',
          'p50 ms',
          'p99 ms',
          'max ms',
          'answers',
        ],
        rows: rows.map((row) => [
          row.name,
          row.connections,
          row.perSecond.toFixed(0),
          `${(row.share * 100).toFixed(1)}%`,
          row.p50,
          row.p99,
          row.max,
          row.detail,
        ]),
      },
    ],
    notes: [
      ledgerLine,
      'Rate limits: nginx limit_req_zone rates raised to 100000r/s via the `# test: edge rate limit` lines, ' +
        'SESSION_RATE_LIMIT and LOGIN_RATE_LIMIT at 100000 a minute, because every request comes from 127.0.0.1.',
    ],
  });
} finally {
  await stack.stop();
}
process.exit(failed ? 1 : 0);

// Hashed-asset throughput through the shipped nginx.conf against a minimal nginx serving the same
// precompressed file, side by side in one run (rounds alternate between the two, so both see the
// same machine). Target: the shipped config at ≥ 0.95 of the minimal one. The shipped config's
// own work per request (its headers, its maps, its access log) is what the ratio prices; nothing
// is compressed per request by either (scripts/precompress.mjs wrote the .gz and .br at build).
// The load generator is wrk when it is installed (apt install wrk: it outruns nginx on one core),
// else autocannon.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { saveBenchResult } from '#test/bench-result';
import { brotliModule, clientDir, startStaticNginx, type StaticNginx } from '#test/nginx';

const TARGET_RATIO = 0.95;
const ROUND_S = Number(process.env.STATIC_ROUND_S ?? 6);
const ROUNDS = 5;
const CONNECTIONS = 32;
const WORKERS = 1;
const headers = { 'accept-encoding': 'gzip, deflate, br' };

const html = readFileSync(join(clientDir, 'index.html'), 'utf8');
const asset = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
if (!asset) throw new Error('No entry script in dist/client/index.html: run npm run build');
const wrk = spawnSync('wrk', ['--version'], { encoding: 'utf8' }).error ? undefined : 'wrk';

/** Requests per second for one round against `url`, and any non-2xx or errors. */
async function measure(url: string): Promise<{ rps: number; errors: number }> {
  if (wrk) {
    const header = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
    const result = spawnSync(
      wrk,
      ['-t', '1', '-c', String(CONNECTIONS), '-d', `${ROUND_S}s`, ...header, url],
      { encoding: 'utf8' },
    );
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(result.stdout)?.[1]);
    const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(result.stdout)?.[1] ?? 0);
    const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
      result.stdout,
    );
    const errors = non2xx + (socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0);
    if (!Number.isFinite(rps)) throw new Error(`wrk said:\n${result.stdout}${result.stderr}`);
    return { rps, errors };
  }
  const result = await autocannon({ url, connections: CONNECTIONS, duration: ROUND_S, headers });
  return { rps: result.requests.average, errors: result.errors + result.non2xx };
}

const servers: {
  name: string;
  minimal: boolean;
  nginx?: StaticNginx;
  rps: number[];
  errors: number;
}[] = [
  { name: 'shipped nginx.conf', minimal: false, rps: [], errors: 0 },
  { name: 'minimal nginx (root, gzip_static, access_log off)', minimal: true, rps: [], errors: 0 },
];
try {
  for (const server of servers) {
    server.nginx = await startStaticNginx({ minimal: server.minimal, workerProcesses: WORKERS });
  }
  for (const server of servers) {
    // Both send the same bytes: the build's compressed copy.
    const response = await fetch(`${server.nginx?.url}${asset}`, { headers });
    if (!response.ok) throw new Error(`${server.name}: ${asset} answered ${response.status}`);
    await measure(`${server.nginx?.url}${asset}`); // warm-up round, not counted
  }
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
      const { rps, errors } = await measure(`${server.nginx?.url}${asset}`);
      server.rps.push(rps);
      server.errors += errors;
      console.log(`  round ${round + 1}: ${server.name.padEnd(50)} ${rps.toFixed(0)} req/s`);
    }
  }
} finally {
  await Promise.all(servers.map((server) => server.nginx?.stop()));
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const [shipped, minimal] = servers.map((server) => median(server.rps)) as [number, number];
const ratio = shipped / minimal;
const encoding = brotliModule ? 'br' : 'gzip';
const summary =
  `static-assets: hashed asset through the shipped nginx.conf at ${ratio.toFixed(2)} of a minimal ` +
  `nginx serving the same precompressed file (${shipped.toFixed(0)} vs ${minimal.toFixed(0)} req/s; ` +
  `target ≥ ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'})`;
console.log(summary);
const errors = servers.reduce((sum, server) => sum + server.errors, 0);
saveBenchResult({
  title: 'Static assets through nginx',
  summary,
  setup:
    `\`${asset}\` (its build-time .${encoding === 'br' ? 'br' : 'gz'} copy, as a browser asking for ` +
    `gzip, deflate, br gets it), fetched by ${wrk ? 'wrk' : 'autocannon'} over ${CONNECTIONS} keep-alive ` +
    `connections from each nginx (${WORKERS} worker each), ${ROUNDS} rounds of ${ROUND_S} s alternating ` +
    `between the two, after a warm-up round each; the median round counts.`,
  tables: [
    {
      columns: ['server', ...Array.from({ length: ROUNDS }, (_, i) => `round ${i + 1}`), 'median'],
      rows: servers.map((server) => [
        server.name,
        ...server.rps.map((rps) => `${rps.toFixed(0)} req/s`),
        `${median(server.rps).toFixed(0)} req/s`,
      ]),
    },
  ],
  notes: [
    `Ratio ${ratio.toFixed(3)}; ${errors} error answers or socket errors in all.`,
    brotliModule
      ? 'This nginx has the brotli_static module: both sent the .br copy.'
      : 'This nginx has no brotli module: both sent the .gz copy.',
  ],
});
if (errors > 0) process.exit(1);

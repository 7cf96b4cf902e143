// Lighthouse (mobile emulation with simulated throttling: its defaults) against the production
// build behind the shipped nginx.conf, for the home page, a list page, an article page and
// /early-access (prerendered HTML from the app through nginx, hydrated in the browser). Each page
// is measured LIGHTHOUSE_RUNS times (3) and the run with the median performance score is reported.
// Targets: 100 in all four categories. LIGHTHOUSE_REPORTS_DIR keeps
// every run's full JSON report there (otherwise they go to a temp folder that is removed).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { saveBenchResult, type BenchTable } from '#test/bench-result';
import { articlePath, startBenchStack } from '#test/bench-stack';
import { CHROMIUM_ARGS, findChromium } from '#test/chromium';
import { startStripeJsHost } from '#test/stripe-js-host';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];
const TARGETS: Record<Category, number> = {
  performance: 100,
  accessibility: 100,
  'best-practices': 100,
  seo: 100,
};
const METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
] as const;
type Metric = (typeof METRICS)[number];
// js.stripe.com, which /early-access loads, is served by a local stand-in (tests/support/stripe-js-host.ts).
const stripeJs = await startStripeJsHost();
/** Flags for a headless Chromium that never reaches past this machine. */
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_ARGS, ...stripeJs.chromiumFlags];

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(root, 'node_modules/lighthouse/cli/index.js');

/** The parts of Lighthouse's result (LHR) this benchmark reads. */
interface LighthouseResult {
  lighthouseVersion: string;
  categories: Record<Category, { score: number | null; auditRefs: { id: string }[] }>;
  audits: Record<
    string,
    {
      id: string;
      title: string;
      score: number | null;
      scoreDisplayMode: string;
      displayValue?: string;
      numericValue?: number;
    }
  >;
}

interface PageReport {
  name: string;
  path: string;
  scores: Record<Category, number>;
  metrics: Record<Metric, string>;
  failing: string[];
}

/**
 * One Lighthouse run. Lighthouse sometimes loses the trace of a load and asks to be run again
 * (NO_NAVSTART, NO_FCP): such a run is repeated, twice at most, and says so.
 */
async function runLighthouse(url: string, outputDir: string, name: string, attempt = 1) {
  try {
    return await runLighthouseOnce(url, outputDir, name);
  } catch (error) {
    const retryable = /Please run Lighthouse again|\((NO_NAVSTART|NO_FCP)\)/.test(String(error));
    if (!retryable || attempt >= 3) throw error;
    console.log(`  ${url}: Lighthouse lost the trace (attempt ${attempt}); running it again`);
    return runLighthouse(url, outputDir, name, attempt + 1);
  }
}

async function runLighthouseOnce(url: string, outputDir: string, name: string) {
  const output = join(outputDir, `${name}.json`);
  const args = [
    cli,
    url,
    '--output=json',
    `--output-path=${output}`,
    '--quiet',
    `--only-categories=${CATEGORIES.join(',')}`,
    `--chrome-flags=${CHROME_FLAGS.join(' ')}`,
  ];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, CHROME_PATH: findChromium() },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`lighthouse ${url} exited with ${code}:\n${stderr}`);
  return JSON.parse(await readFile(output, 'utf8')) as LighthouseResult;
}

/** Audits that cost points: any scored audit below 1 (below 0.9 for performance's many). */
function failingAudits(result: LighthouseResult): string[] {
  const failing: string[] = [];
  for (const category of CATEGORIES) {
    for (const { id } of result.categories[category].auditRefs) {
      const audit = result.audits[id];
      if (!audit || audit.score === null) continue;
      if (!['binary', 'numeric', 'metricSavings'].includes(audit.scoreDisplayMode)) continue;
      const limit = category === 'performance' ? 0.9 : 1;
      if (audit.score >= limit) continue;
      failing.push(
        `${category}: ${audit.id} (${audit.title}${audit.displayValue ? `: ${audit.displayValue}` : ''})`,
      );
    }
  }
  return [...new Set(failing)];
}

function pageReport(name: string, path: string, result: LighthouseResult): PageReport {
  const score = (category: Category) => Math.round((result.categories[category].score ?? 0) * 100);
  return {
    name,
    path,
    scores: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
      seo: score('seo'),
    },
    metrics: Object.fromEntries(
      METRICS.map((id) => [id, result.audits[id]?.displayValue ?? '?']),
    ) as Record<Metric, string>,
    failing: failingAudits(result),
  };
}

const stack = await startBenchStack();
const keepReports = process.env.LIGHTHOUSE_REPORTS_DIR;
if (keepReports) await mkdir(keepReports, { recursive: true });
const outputDir = keepReports ?? (await mkdtemp(join(tmpdir(), 'cohort-lighthouse-')));
const reports: PageReport[] = [];
let version = '';
try {
  const pages = [
    { name: 'home', path: '/' },
    { name: 'list (Health)', path: '/health' },
    { name: 'article', path: articlePath() },
    { name: 'early access', path: '/early-access' },
    { name: 'search', path: '/search?q=student%20loans' },
    { name: 'topic', path: '/topics/housing' },
  ];
  for (const page of pages) {
    const runs: LighthouseResult[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const name = `${page.path.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home'}-${run}`;
      runs.push(await runLighthouse(`${stack.url}${page.path}`, outputDir, name));
    }
    runs.sort(
      (a, b) => (a.categories.performance.score ?? 0) - (b.categories.performance.score ?? 0),
    );
    const median = runs[Math.floor(runs.length / 2)];
    if (!median) throw new Error('no Lighthouse run');
    version = median.lighthouseVersion;
    const report = pageReport(page.name, page.path, median);
    reports.push(report);
    const perfRuns = runs.map((run) => Math.round((run.categories.performance.score ?? 0) * 100));
    console.log(
      `  ${page.name.padEnd(14)} ${page.path.padEnd(42)} performance ${report.scores.performance} ` +
        `(runs: ${perfRuns.join(', ')})  accessibility ${report.scores.accessibility}  ` +
        `best practices ${report.scores['best-practices']}  SEO ${report.scores.seo}`,
    );
    console.log(
      `    FCP ${report.metrics['first-contentful-paint']}  LCP ${report.metrics['largest-contentful-paint']}  ` +
        `TBT ${report.metrics['total-blocking-time']}  CLS ${report.metrics['cumulative-layout-shift']}  ` +
        `SI ${report.metrics['speed-index']}`,
    );
    for (const failing of report.failing) console.log(`    failing: ${failing}`);
  }
} finally {
  if (!keepReports) await rm(outputDir, { recursive: true, force: true });
  await stack.stop();
  await stripeJs.stop();
}

const missed = reports.flatMap((report) =>
  CATEGORIES.filter((category) => report.scores[category] < TARGETS[category]).map(
    (category) => `${report.name} ${category} ${report.scores[category]}`,
  ),
);
const summary =
  `lighthouse: ${reports.map((r) => `${r.name} ${CATEGORIES.map((c) => r.scores[c]).join('/')}`).join(', ')} ` +
  `(performance/accessibility/best practices/SEO; targets 100/100/100/100: ${missed.length === 0 ? 'met' : `NOT met: ${missed.join(', ')}`})`;
console.log(summary);

const scores: BenchTable = {
  columns: ['page', 'path', 'performance', 'accessibility', 'best practices', 'SEO'],
  rows: reports.map((r) => [
    r.name,
    `\`${r.path}\``,
    r.scores.performance,
    r.scores.accessibility,
    r.scores['best-practices'],
    r.scores.seo,
  ]),
};
const metrics: BenchTable = {
  caption: 'Lab metrics of the reported run (simulated slow 4G, 4× CPU slowdown)',
  columns: ['page', 'FCP', 'LCP', 'TBT', 'CLS', 'Speed Index'],
  rows: reports.map((r) => [
    r.name,
    r.metrics['first-contentful-paint'],
    r.metrics['largest-contentful-paint'],
    r.metrics['total-blocking-time'],
    r.metrics['cumulative-layout-shift'],
    r.metrics['speed-index'],
  ]),
};
saveBenchResult({
  title: 'Lighthouse (mobile)',
  summary,
  setup:
    `Lighthouse ${version} (mobile emulation, simulated throttling: its defaults) driving the system ` +
    `Chromium headless against the production build behind the shipped nginx.conf (two app servers); ` +
    `median of ${RUNS} runs per page by performance score.`,
  database: stack.database.description,
  tables: [scores, metrics],
  notes: [
    'Audits that still cost points in the reported runs (performance audits scoring below 0.9, ' +
      'any other scored audit below 1):',
    ...reports.flatMap((r) => r.failing.map((failing) => `${r.name}: ${failing}`)),
  ],
});

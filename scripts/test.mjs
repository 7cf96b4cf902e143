// `npm test`: every check CI runs, then one line summing every runner. Each step starts as soon as
// the steps it needs have ended (whether they passed or not: a run reports every failure at once):
//
//   lint ──────────
//   typecheck ─────
//   build ── Vitest, side by side ── Vitest, one at a time ── Playwright (the browser, on the build)
//
// On the two-core CI machine every step is bound by the processor (a clean-clone run kept both
// cores 96–100 % busy from its second minute to its end), so running steps together saves no time;
// Vitest starts beside lint and typecheck only because neither waits on the other. The files that
// measure time (ONE_AT_A_TIME in vitest.config.ts) run alone: beside the browser lane, the timing
// side channel test of registration saw its two paths 2.5 times apart. The browser lane's output
// streams as it runs (the longest, so a CI log shows where a slow run is); the others print
// theirs, under their own heading, when they end.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const vitestCount = (r) => ({
  passed: r.numPassedTests,
  failed: r.numFailedTests + (r.numFailedTestSuites ?? 0),
});

const steps = [
  { name: 'lint', command: ['npm', 'run', '--silent', 'lint'] },
  { name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'] },
  { name: 'build', command: ['npm', 'run', '--silent', 'build'] },
  {
    name: 'unit and integration, side by side',
    needs: ['build'],
    command: ['npx', '--no-install', 'vitest', 'run', '--project', 'side by side'],
    report: 'test-results/vitest.json',
    count: vitestCount,
  },
  {
    name: 'end-to-end',
    needs: ['unit and integration, one at a time'],
    command: ['npx', '--no-install', 'playwright', 'test'],
    report: 'test-results/playwright.json',
    count: (r) => ({ passed: r.stats.expected + r.stats.flaky, failed: r.stats.unexpected }),
    streams: true,
  },
  {
    name: 'unit and integration, one at a time',
    needs: ['unit and integration, side by side'],
    command: [
      'npx',
      '--no-install',
      'vitest',
      'run',
      '--project',
      'one at a time',
      '--outputFile.json=test-results/vitest-one-at-a-time.json',
    ],
    report: 'test-results/vitest-one-at-a-time.json',
    count: vitestCount,
  },
];

/** Runs a step: its output streams, or is kept and printed under its heading at its end. */
function run(step) {
  const started = performance.now();
  if (step.streams) console.log(`\n━━ ${step.name} ━━`);
  return new Promise((resolve) => {
    const child = spawn(step.command[0], step.command.slice(1), {
      stdio: step.streams ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(0);
      if (!step.streams) process.stdout.write(`\n━━ ${step.name} ━━\n${output}`);
      console.log(`(${step.name}: ${seconds} s)`);
      resolve(code === 0);
    });
  });
}

let passed = 0;
let failed = 0;
const failedSteps = [];

/** Adds a finished step's tests (or the step itself, for one without a report) to the sums. */
function tally(step, ok) {
  if (step.report) {
    const counts = existsSync(step.report)
      ? step.count(JSON.parse(readFileSync(step.report, 'utf8')))
      : { passed: 0, failed: 1 };
    passed += counts.passed;
    failed += counts.failed;
    if (!ok && counts.failed === 0) failed += 1; // the runner itself failed
  } else if (ok) passed += 1;
  else failed += 1;
  if (!ok) failedSteps.push(step.name);
}

for (const step of steps) if (step.report) rmSync(step.report, { force: true });
/** Each step's end, started once what it needs has ended (a step named by none starts at once). */
const ended = new Map();
function endOf(name) {
  const step = steps.find((each) => each.name === name);
  if (!step) throw new Error(`scripts/test.mjs: no step is named "${name}"`);
  if (!ended.has(name)) {
    const needs = Promise.all((step.needs ?? []).map(endOf));
    ended.set(
      name,
      needs.then(async () => tally(step, await run(step))),
    );
  }
  return ended.get(name);
}
await Promise.all(steps.map((step) => endOf(step.name)));

if (failedSteps.length > 0) console.log(`\nFailed: ${failedSteps.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failedSteps.length > 0 ? 1 : 0);

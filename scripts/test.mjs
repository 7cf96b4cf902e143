// `npm test`: every check CI runs, then one line summing every runner. Lint, typecheck and the
// build run at the same time (each prints its output when it ends, under its own heading); then
// unit + integration (Vitest), then end-to-end (Playwright in Chromium, on the build).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const stages = [
  [
    { name: 'lint', command: ['npm', 'run', '--silent', 'lint'] },
    { name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'] },
    { name: 'build', command: ['npm', 'run', '--silent', 'build'] },
  ],
  [
    {
      name: 'unit and integration',
      command: ['npx', '--no-install', 'vitest', 'run'],
      report: 'test-results/vitest.json',
      count: (r) => ({
        passed: r.numPassedTests,
        failed: r.numFailedTests + (r.numFailedTestSuites ?? 0),
      }),
    },
  ],
  [
    {
      name: 'end-to-end',
      command: ['npx', '--no-install', 'playwright', 'test'],
      report: 'test-results/playwright.json',
      count: (r) => ({ passed: r.stats.expected + r.stats.flaky, failed: r.stats.unexpected }),
    },
  ],
];

/** Runs a step; alone, its output streams; beside others, it is kept and printed at its end. */
function run(step, alone) {
  const started = performance.now();
  if (alone) console.log(`\n━━ ${step.name} ━━`);
  return new Promise((resolve) => {
    const child = spawn(step.command[0], step.command.slice(1), {
      stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(0);
      if (!alone) process.stdout.write(`\n━━ ${step.name} ━━\n${output}`);
      console.log(`(${step.name}: ${seconds} s)`);
      resolve(code === 0);
    });
  });
}

let passed = 0;
let failed = 0;
const failedSteps = [];
for (const stage of stages) {
  for (const step of stage) if (step.report) rmSync(step.report, { force: true });
  const results = await Promise.all(stage.map((step) => run(step, stage.length === 1)));
  stage.forEach((step, index) => {
    const ok = results[index];
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
  });
}

if (failedSteps.length > 0) console.log(`\nFailed: ${failedSteps.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failedSteps.length > 0 ? 1 : 0);

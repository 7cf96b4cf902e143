// `npm test`: every check CI runs, in order, then one line summing every runner:
// lint, typecheck, build, unit + integration (Vitest), end-to-end (Playwright in Chromium).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const steps = [
  { name: 'lint', command: ['npm', 'run', '--silent', 'lint'] },
  { name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'] },
  { name: 'build', command: ['npm', 'run', '--silent', 'build'] },
  {
    name: 'unit and integration',
    command: ['npx', '--no-install', 'vitest', 'run'],
    report: 'test-results/vitest.json',
    count: (r) => ({
      passed: r.numPassedTests,
      failed: r.numFailedTests + (r.numFailedTestSuites ?? 0),
    }),
  },
  {
    name: 'end-to-end',
    command: ['npx', '--no-install', 'playwright', 'test'],
    report: 'test-results/playwright.json',
    count: (r) => ({ passed: r.stats.expected + r.stats.flaky, failed: r.stats.unexpected }),
  },
];

let passed = 0;
let failed = 0;
const failedSteps = [];
for (const step of steps) {
  console.log(`\n━━ ${step.name} ━━`);
  if (step.report) rmSync(step.report, { force: true });
  const result = spawnSync(step.command[0], step.command.slice(1), { stdio: 'inherit' });
  const ok = result.status === 0;
  if (step.report) {
    const counts = existsSync(step.report)
      ? step.count(JSON.parse(readFileSync(step.report, 'utf8')))
      : { passed: 0, failed: 1 };
    passed += counts.passed;
    failed += counts.failed;
    if (!ok && counts.failed === 0) failed += 1; // the runner itself failed
  } else {
    if (ok) passed += 1;
    else failed += 1;
  }
  if (!ok) failedSteps.push(step.name);
}

if (failedSteps.length > 0) console.log(`\nFailed: ${failedSteps.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failedSteps.length > 0 ? 1 : 0);

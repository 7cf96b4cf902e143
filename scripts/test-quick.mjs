// `npm run test:quick`: the unit and integration tests for the inner loop (vitest.config.ts says
// which suites it leaves to `npm test`). Arguments pass on to Vitest: a file or `-t name`.
import { spawn } from 'node:child_process';

const child = spawn('npx', ['--no-install', 'vitest', 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, COHORT_TEST_LANE: 'quick' },
});
child.on('close', (code) => process.exit(code ?? 1));

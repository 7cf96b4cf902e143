// `npm run test:quick`: the unit and integration tests for the inner loop (vitest.config.ts says
// which suites it leaves to `npm test`). Arguments pass on to Vitest: a file or `-t name`.
// Some of its suites draw pages with the built app (withSite({ built: true })): when the sources
// changed since the last build (scripts/build-stamp.mjs, as `npm start` asks), it builds first.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { hashBuildInputs, reasonToBuild } from './build-stamp.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const reason = await reasonToBuild(root, await hashBuildInputs(root));
if (reason) {
  const started = performance.now();
  process.stdout.write(`Building the site first (${reason})… `);
  const build = spawnSync('npm', ['run', '--silent', 'build'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (build.status !== 0) {
    console.error(`\n${build.stdout}${build.stderr}\nThe build failed: no tests were run.`);
    process.exit(build.status ?? 1);
  }
  console.log(`built in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}

const child = spawn('npx', ['--no-install', 'vitest', 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, COHORT_TEST_LANE: 'quick' },
});
child.on('close', (code) => process.exit(code ?? 1));

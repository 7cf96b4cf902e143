// `npm start`: builds only when the sources changed since the last build (scripts/build-stamp.mjs),
// printing one line for it, then runs the built server in this process.
import './require-node.mjs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildOnce } from './build-stamp.mjs';
import { loadDotEnv } from './load-env.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
if (loadDotEnv(root)) console.log('Read the settings in .env (the environment wins over it).');

let started = performance.now();
const reason = await buildOnce(root, {
  onWait: () => console.log('Another start is building the site: waiting for it…'),
  build: async () => {
    started = performance.now();
    process.stdout.write('Building the site… ');
    // Vite's warnings and errors still show; its list of every file written does not.
    for (const args of [['build:client', '--', '--logLevel', 'warn'], ['build:server']]) {
      const result = spawnSync('npm', ['run', '--silent', ...args], {
        cwd: root,
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      if (result.status !== 0) {
        console.error(`\nThe build failed (npm run ${args[0]}): nothing was started.`);
        process.exit(result.status ?? 1);
      }
    }
  },
});
if (reason) {
  console.log(`built in ${((performance.now() - started) / 1000).toFixed(1)} s (${reason}).`);
} else {
  console.log('The sources are unchanged since the last build: starting it.');
}

await import('../dist/server/src/server.js');

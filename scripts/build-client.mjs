// `npm run build:client`: the client (dist/client), the same app built for Node (dist/ssr), with
// which the server draws every page from the content in the database, then a .gz and a .br beside
// every compressible file of dist/client, its source maps moved out to dist/sourcemaps
// (scripts/precompress.mjs). Arguments (e.g. `--logLevel warn`) go to both Vite builds. Neither
// reads content/: the build is the same for every site.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const steps = [
  ['npx', '--no-install', 'vite', 'build', ...args],
  ['npx', '--no-install', 'vite', 'build', '--ssr', 'src/entry-server.tsx', ...args],
  [process.execPath, 'scripts/precompress.mjs'],
];
for (const [command, ...commandArgs] of steps) {
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

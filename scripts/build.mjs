// `npm run build`: the client and the server, always, under the build lock, then the build stamp
// (scripts/build-stamp.mjs), so a following `npm start` starts what was just built instead of
// building again, and a start running meanwhile waits for this build.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildOnce } from './build-stamp.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
await buildOnce(root, {
  force: true,
  onWait: () => console.log('Another process is building the site: waiting for it…'),
  build: async () => {
    for (const script of ['build:client', 'build:server']) {
      const result = spawnSync('npm', ['run', '--silent', script], { cwd: root, stdio: 'inherit' });
      if (result.status !== 0) process.exit(result.status ?? 1);
    }
  },
});

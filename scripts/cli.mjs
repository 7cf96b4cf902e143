// The operator's commands (server/src/cli/<name>.ts): `node scripts/cli.mjs stripe check`,
// `node scripts/cli.mjs perks report`, `node scripts/cli.mjs migrate`; package.json names them
// (npm run stripe:check, npm run migrate, …). In a checkout they run from the source, so they are never older than the code; in the production
// image (no TypeScript tooling) from the built dist/.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadDotEnv } from './load-env.mjs';

// The commands read the operator's .env, as `npm start` does; the environment wins over it.
loadDotEnv(fileURLToPath(new URL('..', import.meta.url)));

const [name, ...args] = process.argv.slice(2);
if (!['stripe', 'perks', 'newsletter', 'content', 'migrate'].includes(name ?? '')) {
  console.error(
    'usage: node scripts/cli.mjs <stripe|perks|newsletter|content|migrate> [command] [arguments]',
  );
  process.exit(2);
}
const source = `server/src/cli/${name}.ts`;
const fromSource = existsSync(source) && existsSync('node_modules/tsx');
const command = fromSource
  ? ['--import', 'tsx', source, ...args]
  : [`dist/server/src/cli/${name}.js`, ...args];
const result = spawnSync(process.execPath, command, { stdio: 'inherit' });
process.exit(result.status ?? 1);

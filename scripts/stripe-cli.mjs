// `npm run stripe:check` and `npm run stripe:reconcile`: the operator's Stripe commands
// (server/src/cli/stripe.ts). In a checkout they run from the source, so they are never older
// than the code; in the production image (no TypeScript tooling) from the built dist/.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const args = process.argv.slice(2);
const fromSource = existsSync('server/src/cli/stripe.ts') && existsSync('node_modules/tsx');
const command = fromSource
  ? ['--import', 'tsx', 'server/src/cli/stripe.ts', ...args]
  : ['dist/server/src/cli/stripe.js', ...args];
const result = spawnSync(process.execPath, command, { stdio: 'inherit' });
process.exit(result.status ?? 1);

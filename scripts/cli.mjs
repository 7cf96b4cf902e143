// The operator's commands (server/src/cli/<name>.ts): `node scripts/cli.mjs stripe check`,
// `node scripts/cli.mjs perks report`, `node scripts/cli.mjs migrate`; package.json names them
// (npm run stripe:check, npm run migrate, …). In a checkout they run from the source, so they are
// never older than the code; in the production image (no TypeScript tooling) from the built dist/.
// One process: the command's `main` runs here, and its answer is the process's exit status.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadDotEnv } from './load-env.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// The commands read the operator's .env, as `npm start` does; the environment wins over it.
loadDotEnv(root);

const [name, ...args] = process.argv.slice(2);
if (
  !['stripe', 'perks', 'newsletter', 'content', 'import', 'export', 'migrate'].includes(name ?? '')
) {
  console.error(
    'usage: node scripts/cli.mjs <stripe|perks|newsletter|content|import|export|migrate> [command] [arguments]',
  );
  process.exit(2);
}
const source = join(root, `server/src/cli/${name}.ts`);
const fromSource = existsSync(source) && existsSync(join(root, 'node_modules/tsx'));
/** @type {{ main: (argv: string[], env: NodeJS.ProcessEnv, io: object) => Promise<number> }} */
const command = fromSource
  ? await import('tsx/esm/api').then(({ tsImport }) => tsImport(source, import.meta.url))
  : await import(pathToFileURL(join(root, `dist/server/src/cli/${name}.js`)).href);
// exitCode, not exit(): what the command wrote to a pipe is flushed before the process ends.
process.exitCode = await command.main(args, process.env, {
  stdout: process.stdout,
  stderr: process.stderr,
});

// `.env` in the project folder, when there is one: the operator's settings for `npm start`,
// `npm run dev` and the operator commands (docs/operating.md#configuration). Variables already in
// the environment win over the file, as with Node's own `--env-file` (process.loadEnvFile).
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Loads `<dir>/.env` into process.env; answers whether there was one.
 * @param {string} dir
 * @returns {boolean}
 */
export function loadDotEnv(dir) {
  const path = join(dir, '.env');
  if (!existsSync(path)) return false;
  process.loadEnvFile(path);
  return true;
}

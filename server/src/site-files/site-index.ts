import { readFile } from 'node:fs/promises';
import Value from 'typebox/value';
import { SiteIndexSchema, type SiteIndex } from '../../../contract/site-index.js';

/**
 * The site index the build wrote (contract/site-index.ts), or null when there is none (the
 * client is not built). A file that is there but wrong stops the start, naming what is wrong.
 */
export async function readSiteIndex(file: string): Promise<SiteIndex | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const parsed: unknown = JSON.parse(text);
  if (Value.Check(SiteIndexSchema, parsed)) return parsed;
  const problems = [...Value.Errors(SiteIndexSchema, parsed)]
    .slice(0, 5)
    .map((problem) => `${problem.instancePath || '/'} ${problem.message}`);
  throw new Error(`${file} is not a site index (run \`npm run build\`): ${problems.join('; ')}`);
}

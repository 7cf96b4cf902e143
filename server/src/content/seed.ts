import type pg from 'pg';
import { ContentValidationError } from './content-issues.js';
import { loadContent } from './load-content.js';
import { draftsOf, ImportConflict, importPosts, type ImportResult } from './posts.js';

/**
 * The shipped content/ folder, imported into the database the first time the site (or an
 * operator's command) runs on it, each file once (content_seeds): an edit or a deletion made since
 * stands. A folder with a wrong file imports nothing and answers what is wrong, so the site still
 * starts with what the database holds.
 */
export async function seedPosts(
  pool: pg.Pool,
  dir: string,
): Promise<{ ok: true; result: ImportResult } | { ok: false; problem: string }> {
  try {
    const loaded = await loadContent(dir, { perks: false });
    return { ok: true, result: await importPosts(pool, draftsOf(loaded), { seed: true }) };
  } catch (error) {
    if (error instanceof ContentValidationError || error instanceof ImportConflict) {
      return { ok: false, problem: `${dir} was not imported: ${error.message}` };
    }
    throw error;
  }
}

import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';
import { POST_FOLDERS, POST_KINDS, type PostKind } from '../../../contract/posts.js';
import { ContentValidationError } from './content-issues.js';
import { loadContent } from './load-content.js';
import { draftsOf } from './post-files.js';
import { ImportConflict, importPosts, type ImportResult } from './post-import.js';

/**
 * The shipped content/ folder, imported into the database the first time the site (or an
 * operator's command) runs on it, each file once (content_seeds): an edit or a deletion made since
 * stands. A folder with a wrong file imports nothing and answers what is wrong, so the site still
 * starts with what the database holds. When every file was imported before (every start but the
 * first), the files are not even read; a site without its samples imports none.
 */
export async function seedPosts(
  pool: pg.Pool,
  dir: string,
): Promise<{ ok: true; result: ImportResult } | { ok: false; problem: string }> {
  const files = await listPostFiles(dir);
  // A site that started without its samples, or removed them, takes none (sample-content.ts).
  const { rows } = await pool.query<{ loaded: boolean }>(
    `SELECT "loaded" FROM "site_samples" WHERE "id" = 1`,
  );
  if (rows[0]?.loaded === false) {
    return { ok: true, result: { created: 0, updated: 0, skipped: files.length } };
  }
  if (files.length > 0 && (await countSeeded(pool, files)) === files.length) {
    return { ok: true, result: { created: 0, updated: 0, skipped: files.length } };
  }
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

/** Each post file of a folder as its kind and slug (a file's slug is its name). */
async function listPostFiles(dir: string): Promise<{ kind: PostKind; slug: string }[]> {
  const found = await Promise.all(
    POST_KINDS.map(async (kind) => {
      const names = await readdir(join(dir, POST_FOLDERS[kind])).catch(() => [] as string[]);
      return names
        .filter((name) => name.endsWith('.md'))
        .map((name) => ({ kind, slug: name.slice(0, -'.md'.length) }));
    }),
  );
  return found.flat();
}

async function countSeeded(pool: pg.Pool, files: { kind: PostKind; slug: string }[]) {
  const { rows } = await pool.query<{ count: string }>(
    `SELECT count(*) FROM "content_seeds" s
      JOIN unnest($1::text[], $2::text[]) AS f("kind", "slug")
        ON f."kind" = s."kind" AND f."slug" = s."slug"`,
    [files.map((file) => file.kind), files.map((file) => file.slug)],
  );
  return Number(rows[0]?.count ?? 0);
}

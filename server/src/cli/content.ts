import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ContentValidationError } from '../content/content-issues.js';
import { loadContent } from '../content/load-content.js';
import { draftsOf, exportPosts, ImportConflict, importPosts } from '../content/posts.js';
import { fail, readConfigOrFail } from './command-line.js';
import { withDatabase } from './open-database.js';

/**
 * The operator's content commands, with the site's own configuration (the same environment as
 * the server), beside a running site or not:
 *   npm run content:import -- <dir>   posts from a folder in content/FORMAT.md's format
 *   npm run content:export -- <dir>   every published or scheduled post into such a folder
 * An import is one transaction: one wrong file, and nothing is imported; each problem is one line
 * naming the file and the field. Every app server draws the site again when it commits.
 * Exit status 0 when all went well, 1 when something needs the operator, 2 for a wrong command.
 */

const USAGE = `usage:
  content import <dir>   (a folder in the content/FORMAT.md format: articles/, pages/, …)
  content export <dir>`;

async function importCommand(dir: string | undefined) {
  if (!dir) fail(USAGE, 2);
  const folder = resolve(dir);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) fail(`${dir} is not a folder.`);
  let drafts;
  try {
    drafts = draftsOf(await loadContent(folder, { perks: false }));
  } catch (error) {
    if (error instanceof ContentValidationError) {
      fail(`Nothing was imported from ${dir}:\n${error.message}`);
    }
    throw error;
  }
  if (drafts.length === 0) fail(`${dir} holds no posts (articles/, campaigns/, pages/, …).`);
  const result = await withDatabase(readConfigOrFail(), fail, async ({ database }) => {
    try {
      return await importPosts(database.pool, drafts);
    } catch (error) {
      if (error instanceof ImportConflict)
        fail(`Nothing was imported from ${dir}:\n${error.message}`);
      throw error;
    }
  });
  const posts = (count: number) => `${count} post${count === 1 ? '' : 's'}`;
  console.log(
    `${dir}: ${posts(result.created)} created, ${posts(result.updated)} updated` +
      (result.updated > 0 ? ' (each earlier version kept as a revision).' : '.'),
  );
}

async function exportCommand(dir: string | undefined) {
  if (!dir) fail(USAGE, 2);
  const count = await withDatabase(readConfigOrFail(), fail, ({ database }) =>
    exportPosts(database.pool, resolve(dir)),
  );
  console.log(`${dir}: ${count} post${count === 1 ? '' : 's'} written.`);
}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === 'import') await importCommand(rest[0]);
  else if (command === 'export') await exportCommand(rest[0]);
  else fail(USAGE, 2);
} catch (error) {
  fail(`content ${command ?? ''}: ${error instanceof Error ? error.message : String(error)}`);
}

import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ContentValidationError } from '../content/content-issues.js';
import {
  copyImagesIn,
  copyImagesOut,
  fileNameOf,
  findMissingFiles,
  IMAGES_FOLDER,
  listImageFiles,
  storedFilesOf,
  uploadsShownBy,
} from '../content/content-images.js';
import { loadContent } from '../content/load-content.js';
import { draftsOf, exportPosts } from '../content/post-files.js';
import { findImportRefusals, ImportConflict, importPosts } from '../content/post-import.js';
import { openImageStore } from '../uploads/image-store.js';
import {
  commandWithSubcommands,
  fail,
  plural,
  printerOf,
  readConfigOrFail,
  type CommandIo,
} from './command-line.js';
import { withDatabase } from './open-database.js';

/**
 * The operator's content commands, with the site's own configuration (the same environment as
 * the server: its database and its image store), beside a running site or not:
 *   npm run content:import -- <dir> [--allow-public]   posts (and images/) from a folder in
 *                                                      content/FORMAT.md's format
 *   npm run content:export -- <dir>   every published or scheduled post, with the uploaded images
 *                                     they show, into such a folder
 * An import is one transaction: one wrong file, and nothing is imported; each problem is one line
 * naming the file and the field. A file that would make a members-only post public (or a post
 * whose body has the members-only divider, from an export that did not say who reads it) is
 * refused unless the operator says `--allow-public`. Every app server draws the site again when
 * it commits. Exit status 0 when all went well, 1 when something needs the operator, 2 for a
 * wrong command.
 */

const USAGE = `usage:
  content import <dir> [--allow-public]
      (a folder in the content/FORMAT.md format: articles/, pages/, …, images/;
       --allow-public lets a file make a members-only post public)
  content export <dir>`;

/** A folder's posts and image files, or every problem with them, at once. */
async function readFolder(folder: string) {
  const images = await listImageFiles(folder);
  try {
    const content = await loadContent(folder, { perks: false });
    return { drafts: draftsOf(content), images: images.names, issues: images.issues };
  } catch (error) {
    if (!(error instanceof ContentValidationError)) throw error;
    return { drafts: [], images: images.names, issues: [...error.issues, ...images.issues] };
  }
}

async function importCommand(args: string[], env: NodeJS.ProcessEnv, io: CommandIo) {
  const allowPublic = args.includes('--allow-public');
  const rest = args.filter((arg) => arg !== '--allow-public');
  const [dir] = rest;
  if (!dir || rest.length > 1 || dir.startsWith('--')) fail(USAGE, 2);
  const folder = resolve(dir);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) fail(`${dir} is not a folder.`);
  const { drafts, images, issues } = await readFolder(folder);
  const refuse = (message: string) => fail(`Nothing was imported from ${dir}:\n${message}`);
  if (issues.length > 0) refuse(new ContentValidationError(issues).message);
  if (drafts.length === 0) fail(`${dir} holds no posts (articles/, campaigns/, pages/, …).`);
  const config = readConfigOrFail(env);
  const store = openImageStore(config.uploads);
  // Images a post shows that neither the folder nor the store has: said, not refused (an export
  // from before images were written has none, and the post is worth having without them).
  const inFolder = new Set(images);
  const shown = new Set(drafts.flatMap(uploadsShownBy).map(fileNameOf));
  const missing = await findMissingFiles(
    store,
    [...shown].filter((name) => !inFolder.has(name)),
  );
  const result = await withDatabase(config, io, async ({ database }) => {
    try {
      const refused = await findImportRefusals(database.pool, drafts, { allowPublic });
      if (refused.length > 0) refuse(refused.join('\n'));
      // Stored before the posts' transaction, not inside it, so that no transaction stays open
      // while files go to a bucket (on the embedded database it would hold the site's queries).
      // The import asks again in its transaction: a post made members-only meanwhile is refused,
      // and the files stored for it are only copies the old site served to anyone.
      await copyImagesIn(store, folder, images);
      return await importPosts(database.pool, drafts, { allowPublic });
    } catch (error) {
      if (error instanceof ImportConflict) refuse(error.message);
      throw error;
    }
  });
  const { out, err } = printerOf(io);
  out(
    `${dir}: ${plural(result.created, 'post')} created, ${plural(result.updated, 'post')} updated` +
      (result.updated > 0 ? ' (each earlier version kept as a revision)' : '') +
      (images.length > 0 ? `; ${plural(images.length, 'image file')} stored.` : '.'),
  );
  for (const name of missing) {
    err(
      `/uploads/${name} is shown by a post but is in neither ${IMAGES_FOLDER}/ nor the image store: it answers 404.`,
    );
  }
}

async function exportCommand(args: string[], env: NodeJS.ProcessEnv, io: CommandIo) {
  const [dir, ...extra] = args;
  if (!dir || extra.length > 0 || dir.startsWith('--')) fail(USAGE, 2);
  const config = readConfigOrFail(env);
  const store = openImageStore(config.uploads);
  const exported = await withDatabase(config, io, ({ database }) =>
    exportPosts(database.pool, resolve(dir)),
  );
  const images = await copyImagesOut(store, storedFilesOf(exported.images), resolve(dir));
  const { out, err } = printerOf(io);
  out(
    `${dir}: ${plural(exported.posts, 'post')} written` +
      (images.copied > 0 ? `, ${plural(images.copied, 'image file')} in ${IMAGES_FOLDER}/.` : '.'),
  );
  for (const name of images.missing) {
    err(`/uploads/${name} is shown by a post but is not in the image store: not written.`);
  }
}

export const main = commandWithSubcommands('content', USAGE, {
  import: importCommand,
  export: exportCommand,
});

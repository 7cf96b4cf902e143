import { createWriteStream, existsSync, statSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, extname, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { withTransaction } from '../db/transaction.js';
import { readSiteSettings } from '../content/site-settings.js';
import { countGhostExport, ghostExportStream } from '../imports/ghost-export.js';
import { ghostExportZip } from '../imports/ghost-export-zip.js';
import { openImageStore } from '../uploads/image-store.js';
import {
  commandWithSubcommands,
  fail,
  plural,
  printerOf,
  readConfigOrFail,
} from './command-line.js';
import { withDatabase } from './open-database.js';

/**
 * `npm run export -- ghost <file>`: the site's posts, pages, topics, authors, comments and members
 * as a Ghost JSON export (server/src/imports/ghost-export.ts); a `<file>.zip` holds the JSON and
 * the images its posts show, under content/images/, as Ghost's own export zip does (the desk's
 * Import page offers the same zip).
 * It is written beside its final name and renamed when whole, so a failed run never leaves half a
 * file under it. Members-only posts are in it whole, and every member's address: keep it as safe
 * as the database. Exit status 0 when written, 1 when something needs the operator, 2 for a wrong
 * command.
 */

const USAGE = `usage:
  export ghost <file>   (the site as a Ghost JSON export: posts, pages, tags, authors, comments,
                        members; a .zip file name writes the zip with the images too)`;

export const main = commandWithSubcommands('export', USAGE, {
  ghost: async ([file, ...extra], env, io) => {
    if (!file || file.startsWith('--') || extra.length > 0) fail(USAGE, 2);
    const target = resolve(file);
    const folder = dirname(target);
    if (!existsSync(folder) || !statSync(folder).isDirectory()) {
      fail(`${dirname(file)} is not a folder: the export cannot be written there.`);
    }
    const config = readConfigOrFail(env);
    const partial = `${target}.partial`;
    const counts = await withDatabase(config, io, async ({ database }) => {
      const counted = await withTransaction(database.pool, (tx) => countGhostExport(tx));
      const options = {
        siteUrl: config.siteUrl,
        // The publication's name as its settings say (the desk may have renamed it).
        siteName: (await readSiteSettings(database.pool, { title: config.siteName })).title,
        staff: config.staff,
      };
      const zip = extname(target).toLowerCase() === '.zip';
      try {
        await pipeline(
          zip
            ? ghostExportZip(database.pool, openImageStore(config.uploads), {
                ...options,
                jsonName: `${basename(target, extname(target))}.json`,
              })
            : ghostExportStream(database.pool, options),
          createWriteStream(partial),
        );
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return counted;
    });
    printerOf(io).out(
      `${file}: ${plural(counts.posts, 'post')}, ${plural(counts.pages, 'page')} and ${plural(counts.members, 'member')} written as a Ghost export${extname(target).toLowerCase() === '.zip' ? ', with its images' : ''} (members-only posts in full: keep it safe).`,
    );
  },
});

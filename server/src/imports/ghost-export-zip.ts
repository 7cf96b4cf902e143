import type { PassThrough, Readable } from 'node:stream';
import type pg from 'pg';
import yazl from 'yazl';
import { parseUploadUrl, UPLOADS_PATH } from '../../../contract/images.js';
import { parseMediaUrl } from '../../../contract/media.js';
import type { ImageStore } from '../uploads/image-store.js';
import { ghostExportStream, type GhostExportOptions } from './ghost-export.js';

/**
 * The Ghost export as Ghost's own export zip is laid out: the JSON at the top, and every upload
 * its posts show under `content/images/` (audio and video under `content/media/`), which the JSON
 * names as Ghost does, `__GHOST_URL__/content/images/<name>` (its links to the site's own pages
 * `__GHOST_URL__/<path>`): Ghost's importer, and Cohort's
 * (ghost.ts readGhostArchive), take them from the zip. Streamed: the JSON is written as it is
 * read, the uploads it named are added after it, one at a time from the store, and nothing is
 * held whole in memory.
 */

/** Ghost's placeholder for the site's address in its exports. */
const GHOST_URL = '__GHOST_URL__';

/** An upload's name in the store (`/uploads/<name>`), for the site's own upload addresses only. */
function uploadNameOf(url: string): { name: string; folder: 'images' | 'media' } | null {
  if (parseMediaUrl(url)) return { name: url.slice(UPLOADS_PATH.length), folder: 'media' };
  if (parseUploadUrl(url)) return { name: url.slice(UPLOADS_PATH.length), folder: 'images' };
  return null;
}

export interface GhostZipOptions extends Omit<GhostExportOptions, 'addressOf'> {
  /** The JSON's name inside the zip. */
  jsonName: string;
}

export function ghostExportZip(
  pool: pg.Pool,
  store: ImageStore,
  options: GhostZipOptions,
): Readable {
  const zip = new yazl.ZipFile();
  // yazl's output is a PassThrough (its types say only a stream).
  const output = zip.outputStream as unknown as PassThrough;
  // Each upload named, by its name in the store: its path in the zip.
  const files = new Map<string, string>();
  const addressOf = (url: string) => {
    const upload = uploadNameOf(url);
    // The site's own paths as Ghost writes them, so an importer puts them on its own site.
    if (!upload) return url.startsWith('/') && !url.startsWith('//') ? `${GHOST_URL}${url}` : url;
    const path = `content/${upload.folder}/${upload.name}`;
    files.set(upload.name, path);
    return `${GHOST_URL}/${path}`;
  };
  const { jsonName, ...exportOptions } = options;
  const json = ghostExportStream(pool, { ...exportOptions, addressOf });
  const fail = (error: unknown) => output.destroy(error as Error);
  json.once('error', fail);
  zip.once('error', fail);
  zip.addReadStream(json, jsonName);
  // Once the JSON is whole, every upload it named is known: each one the store has is added,
  // read from the store only when its turn comes.
  json.once('end', () => {
    void (async () => {
      for (const [name, path] of files) {
        if ((await store.size(name)) === null) continue;
        zip.addReadStreamLazy(path, (callback) => {
          const none = undefined as unknown as NodeJS.ReadableStream;
          store.get(name).then(
            (file) =>
              file ? callback(null, file.body) : callback(new Error(`${name} is gone`), none),
            (error: unknown) => callback(error, none),
          );
        });
      }
      zip.end();
    })().catch(fail);
  });
  return output;
}

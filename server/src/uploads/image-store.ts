import { createReadStream } from 'node:fs';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/** Where uploaded images' files are kept: a folder, or an S3-compatible bucket. */
export interface ImageStore {
  /** Keeps a file under this name (names are never reused for other bytes). */
  put(name: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The file and its length, or null when there is none by that name. */
  get(name: string): Promise<{ body: Readable; length: number } | null>;
}

/**
 * A folder (`UPLOADS_DIR`): a Docker volume or a Kubernetes volume. Each file is written beside
 * its final name and renamed into place, so a reader never gets half a file.
 */
export function folderStore(dir: string): ImageStore {
  let made: Promise<unknown> | null = null;
  return {
    async put(name, bytes) {
      made ??= mkdir(dir, { recursive: true });
      await made;
      const temporary = join(dir, `.${name}.${process.pid}.${Date.now()}`);
      await writeFile(temporary, bytes);
      await rename(temporary, join(dir, name));
    },
    async get(name) {
      const file = join(dir, name);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return null;
      return { body: createReadStream(file), length: info.size };
    },
  };
}

import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  parseUploadUrl,
  UPLOAD_FILE_NAME,
  uploadFileNames,
  UPLOADS_PATH,
} from '../../../contract/images.js';
import type { ImageStore } from '../uploads/image-store.js';
import { sniffFormat } from '../uploads/process-image.js';
import type { ContentIssue } from './content-issues.js';

// The uploaded images a content folder carries (content/FORMAT.md, `images/`): every copy the
// site serves of each image its posts show, named as the store names them, so that an import
// puts them back and their addresses answer on the new site as they did on the old one.

/** The folder of a content folder that holds its posts' uploaded images. */
export const IMAGES_FOLDER = 'images';

/** An upload's address anywhere in a post's Markdown (an image, or a link to one). */
const UPLOAD_IN_TEXT = /\/uploads\/[a-z0-9]{20}-[1-9][0-9]{0,4}x[1-9][0-9]{0,4}\.(?:avif|webp)/g;

/** The address of every uploaded image a post shows: its feature image, then those in its body. */
export function uploadsShownBy(post: { featureImage: string | null; body: string }): string[] {
  const urls = [post.featureImage ?? '', ...(post.body.match(UPLOAD_IN_TEXT) ?? [])];
  return [...new Set(urls.filter((url) => parseUploadUrl(url) !== null))];
}

/** Every file the store keeps for these images (each size in each format), by name. */
export function storedFilesOf(urls: readonly string[]): string[] {
  const names = urls.flatMap((url) => {
    const image = parseUploadUrl(url);
    return image ? uploadFileNames(image) : [];
  });
  return [...new Set(names)].sort();
}

/** The store's name of the file an upload address serves. */
export const fileNameOf = (url: string) => url.slice(UPLOADS_PATH.length);

/**
 * Copies these files from the store into `dir/images/`, and answers the names the store did not
 * have (their addresses answer 404 on this site too).
 */
export async function copyImagesOut(
  store: ImageStore,
  names: readonly string[],
  dir: string,
): Promise<{ copied: number; missing: string[] }> {
  const missing: string[] = [];
  if (names.length === 0) return { copied: 0, missing };
  const folder = join(dir, IMAGES_FOLDER);
  await mkdir(folder, { recursive: true });
  for (const name of names) {
    const found = await store.get(name);
    if (!found) missing.push(name);
    else await pipeline(found.body, createWriteStream(join(folder, name)));
  }
  return { copied: names.length - missing.length, missing };
}

/**
 * The image files of a content folder, by name (none when it has no `images/`). Each must be
 * named as the store names a copy and be the AVIF or WebP its name says, so that nothing else is
 * ever served from `/uploads/`.
 */
export async function listImageFiles(
  dir: string,
): Promise<{ names: string[]; issues: ContentIssue[] }> {
  const folder = join(dir, IMAGES_FOLDER);
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const names: string[] = [];
  const issues: ContentIssue[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    // Named as load-content names the folder's other files: `<folder>/images/<name>`.
    const file = `${basename(dir)}/${IMAGES_FOLDER}/${entry.name}`;
    if (!entry.isFile() || !UPLOAD_FILE_NAME.test(entry.name)) {
      issues.push({
        file,
        field: 'name',
        message: "is not an uploaded image's copy (<id>-<width>x<height>.avif or .webp)",
      });
      continue;
    }
    const expected = entry.name.endsWith('.avif') ? 'avif' : 'webp';
    const format = sniffFormat(await readHead(join(folder, entry.name)));
    if (format !== expected) {
      issues.push({
        file,
        field: 'bytes',
        message: `are not the ${expected === 'avif' ? 'AVIF' : 'WebP'} image the name says (${format ?? 'unknown'})`,
      });
      continue;
    }
    names.push(entry.name);
  }
  return { names, issues };
}

/** A file's first bytes: enough for its format's signature. */
async function readHead(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(64);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Puts `dir/images/`'s files into the store, under the names they have there. */
export async function copyImagesIn(
  store: ImageStore,
  dir: string,
  names: readonly string[],
): Promise<void> {
  for (const name of names) {
    const bytes = await readFile(join(dir, IMAGES_FOLDER, name));
    await store.put(name, bytes, name.endsWith('.avif') ? 'image/avif' : 'image/webp');
  }
}

/** Those of these files the store does not have. */
export async function findMissingFiles(
  store: ImageStore,
  names: readonly string[],
): Promise<string[]> {
  const missing: string[] = [];
  for (const name of names) {
    const found = await store.get(name);
    if (found) found.body.destroy();
    else missing.push(name);
  }
  return missing;
}

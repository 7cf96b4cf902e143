import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { uploadUrl, UPLOADS_PATH, type UploadedImage } from '../../../contract/images.js';
import type { ImageStore, StoredFile } from '../uploads/image-store.js';
import { MAX_PIXELS } from '../uploads/process-image.js';

/** Covers being made in this process, by store and file name: two apps asking at once make one. */
const making = new WeakMap<ImageStore, Map<string, Promise<Buffer | null>>>();

/**
 * A podcast's cover as the directories take it: Apple reads JPEG or PNG only, in RGB, and an
 * upload is kept as WebP and AVIF. A JPEG of the upload's widest copy, at its size (square, 1400 to
 * 2400 pixels: contract/podcasts.ts), made when first asked for and kept in the store beside the
 * upload (`<id>-<w>x<h>-podcast.jpg`), where the other app servers find it. Null when the upload
 * is not in the store.
 */
export async function readPodcastCover(
  store: ImageStore,
  image: UploadedImage,
): Promise<StoredFile | null> {
  const name = `${image.id}-${image.width}x${image.height}-podcast.jpg`;
  const stored = await store.get(name);
  if (stored) return stored;
  const inStore = making.get(store) ?? new Map<string, Promise<Buffer | null>>();
  making.set(store, inStore);
  let made = inStore.get(name);
  if (!made) {
    made = makeCover(store, name, image);
    inStore.set(name, made);
    void made.finally(() => inStore.delete(name)).catch(() => {});
  }
  const bytes = await made;
  return bytes && { body: Readable.from([bytes]), length: bytes.length };
}

async function makeCover(
  store: ImageStore,
  name: string,
  image: UploadedImage,
): Promise<Buffer | null> {
  const source = await store.get(uploadUrl(image.id, image).slice(UPLOADS_PATH.length));
  if (!source) return null;
  const bytes = await sharp(await buffer(source.body), {
    limitInputPixels: MAX_PIXELS,
    failOn: 'error',
  })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .jpeg({ quality: 85 })
    .toBuffer();
  await store.put(name, bytes, 'image/jpeg');
  return bytes;
}

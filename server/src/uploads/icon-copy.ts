import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { uploadUrl, UPLOADS_PATH, type UploadedImage } from '../../../contract/images.js';
import type { ImageStore } from './image-store.js';
import { MAX_PIXELS } from './process-image.js';

/**
 * The favicons and app icons made from the publication's uploaded icon (its settings' `icon`): a
 * square PNG of each size asked for, cut from the middle of the upload's widest copy. Each is made
 * once, kept in the store beside the upload (`<id>-icon-<size>.png`: other app servers and the next
 * start find it there) and in this process's memory.
 */

/** Icons made or being made in this process, by store, then upload id and size. */
const made = new WeakMap<ImageStore, Map<string, Promise<Buffer | null>>>();
/** The icons kept in memory: one upload's sizes, a few times over. */
const KEPT = 24;

/** The icon of `size` pixels made from `image`; null when the upload is not in the store. */
export function readIconCopy(
  store: ImageStore,
  image: UploadedImage,
  size: number,
): Promise<Buffer | null> {
  const inStore = made.get(store) ?? new Map<string, Promise<Buffer | null>>();
  made.set(store, inStore);
  const name = `${image.id}-icon-${size}.png`;
  let icon = inStore.get(name);
  if (!icon) {
    if (inStore.size >= KEPT) inStore.clear();
    icon = makeOrRead(store, image, size, name);
    inStore.set(name, icon);
    // A failure, or an upload not there yet, is not kept: the next request tries again.
    icon.then(
      (bytes) => bytes === null && inStore.delete(name),
      () => inStore.delete(name),
    );
  }
  return icon;
}

async function makeOrRead(
  store: ImageStore,
  image: UploadedImage,
  size: number,
  name: string,
): Promise<Buffer | null> {
  const stored = await store.get(name);
  if (stored) return buffer(stored.body);
  const source = await store.get(uploadUrl(image.id, image).slice(UPLOADS_PATH.length));
  if (!source) return null;
  const bytes = await sharp(await buffer(source.body), {
    limitInputPixels: MAX_PIXELS,
    failOn: 'error',
  })
    .resize(size, size, { fit: 'cover', position: 'centre' })
    .png({ compressionLevel: 9 })
    .toBuffer();
  await store.put(name, bytes, 'image/png');
  return bytes;
}

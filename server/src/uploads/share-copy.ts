import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { parseShareFileName, uploadUrl, UPLOADS_PATH } from '../../../contract/images.js';
import type { ImageStore } from './image-store.js';
import { makeShareCopy, MAX_PIXELS } from './process-image.js';

/** Share copies being made in this process, by store and file name: two readers at once make one. */
const making = new WeakMap<ImageStore, Map<string, Promise<Buffer | null>>>();

/**
 * An image's share copy (contract shareImageUrl), from the store, or made now from its widest
 * WebP copy and stored, for an image stored before uploads made one (or imported from a content
 * folder, which carries the sizes alone). Null when the name is no share copy's or the image is
 * not in the store.
 */
export async function readShareCopy(
  store: ImageStore,
  name: string,
): Promise<{ body: Readable; length: number } | null> {
  const image = parseShareFileName(name);
  if (!image) return null;
  const stored = await store.get(name);
  if (stored) return stored;
  const inStore = making.get(store) ?? new Map<string, Promise<Buffer | null>>();
  making.set(store, inStore);
  let made = inStore.get(name);
  if (!made) {
    made = makeAndStore(store, name, uploadUrl(image.id, image).slice(UPLOADS_PATH.length));
    inStore.set(name, made);
    void made.finally(() => inStore.delete(name)).catch(() => {});
  }
  const bytes = await made;
  return bytes && { body: Readable.from([bytes]), length: bytes.length };
}

async function makeAndStore(
  store: ImageStore,
  name: string,
  widest: string,
): Promise<Buffer | null> {
  const source = await store.get(widest);
  if (!source) return null;
  const bytes = await makeShareCopy(
    sharp(await buffer(source.body), { limitInputPixels: MAX_PIXELS, failOn: 'error' }),
  );
  await store.put(name, bytes, 'image/jpeg');
  return bytes;
}

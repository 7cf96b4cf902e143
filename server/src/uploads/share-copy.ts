import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import sharp, { type Sharp } from 'sharp';
import {
  mailImageSize,
  parseMailFileName,
  parseShareFileName,
  type UploadedImage,
  uploadUrl,
  UPLOADS_PATH,
} from '../../../contract/images.js';
import type { ImageStore } from './image-store.js';
import { makeMailCopy, makeShareCopy, MAX_PIXELS } from './process-image.js';

/** Copies being made in this process, by store and file name: two readers at once make one. */
const making = new WeakMap<ImageStore, Map<string, Promise<Buffer | null>>>();

/** The JPEG copy a file name asks for, and how it is made from the image's widest copy. */
function jpegCopyOf(
  name: string,
): { image: UploadedImage; make: (widest: Sharp) => Promise<Buffer> } | null {
  const share = parseShareFileName(name);
  if (share) return { image: share, make: makeShareCopy };
  const mail = parseMailFileName(name);
  if (mail) {
    const size = mailImageSize(mail.image, mail.width);
    return { image: mail.image, make: (widest) => makeMailCopy(widest, size) };
  }
  return null;
}

/**
 * An image's JPEG copy, from the store, or made now from its widest WebP copy and stored: its
 * share copy (contract shareImageUrl) for an image stored before uploads made one (or imported
 * from a content folder, which carries the sizes alone), and its mail copies (contract
 * mailImageUrl), made only once a mail shows them. Null when the name is no such copy's or the
 * image is not in the store.
 */
export async function readJpegCopy(
  store: ImageStore,
  name: string,
): Promise<{ body: Readable; length: number } | null> {
  const copy = jpegCopyOf(name);
  return copy && readMadeCopy(store, name, copy.image, copy.make);
}

/**
 * A copy of an image (`name`), from the store, or made now from the image's widest WebP copy by
 * `make` and stored beside it, where the other app servers find it; two readers at once in one
 * process make it once. Null when the image is not in the store.
 */
export async function readMadeCopy(
  store: ImageStore,
  name: string,
  image: UploadedImage,
  make: (widest: Sharp) => Promise<Buffer>,
): Promise<{ body: Readable; length: number } | null> {
  const stored = await store.get(name);
  if (stored) return stored;
  const inStore = making.get(store) ?? new Map<string, Promise<Buffer | null>>();
  making.set(store, inStore);
  let made = inStore.get(name);
  if (!made) {
    const widest = uploadUrl(image.id, image).slice(UPLOADS_PATH.length);
    made = makeAndStore(store, name, widest, make);
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
  make: (widest: Sharp) => Promise<Buffer>,
): Promise<Buffer | null> {
  const source = await store.get(widest);
  if (!source) return null;
  const bytes = await make(
    sharp(await buffer(source.body), { limitInputPixels: MAX_PIXELS, failOn: 'error' }),
  );
  await store.put(name, bytes, 'image/jpeg');
  return bytes;
}

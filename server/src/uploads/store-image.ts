import type pg from 'pg';
import sharp from 'sharp';
import { uploadUrl, widestSize, type UploadedImage } from '../../../contract/images.js';
import { DomainError } from '../domain-error.js';
import type { ImageStore } from './image-store.js';
import { imageIdOf, MAX_PIXELS, processImage, sniffFormat } from './process-image.js';

/**
 * An image taken into the site: the desk's upload and an import store it the same way. Its id
 * is a digest of the bytes (process-image.ts), so an image already stored is found by it and
 * never processed or stored again.
 */

export interface StoredImage {
  image: UploadedImage;
  /** Its address in posts (contract uploadUrl). */
  url: string;
  /** False when the same bytes were stored before (by an upload or an earlier import). */
  stored: boolean;
}

/** The store refused a file (a full disk, a bucket that answers 5xx): nothing was recorded. */
export class ImageStoreError extends Error {
  override name = 'ImageStoreError';
  constructor(cause: unknown) {
    super(`could not store the image: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}

/**
 * Stores `bytes` as an uploaded image, unless the same bytes are stored already: its copies go to
 * the store, then its row to `images` (a row always has its files). Refuses what processImage
 * refuses (not an image, too many pixels) with its DomainError.
 */
export async function storeImage(
  pool: Pick<pg.Pool, 'query'>,
  store: ImageStore,
  bytes: Buffer,
  about: { fileName: string | null; uploadedBy: string | null },
): Promise<StoredImage> {
  const known = await findStoredImage(pool, imageIdOf(bytes));
  if (known) return { image: known, url: uploadUrl(known.id, known), stored: false };
  const processed = await processImage(bytes);
  const { image } = processed;
  try {
    for (const file of processed.files) {
      await store.put(file.name, file.bytes, `image/${file.format}`);
    }
  } catch (error) {
    throw new ImageStoreError(error);
  }
  await pool.query(
    `INSERT INTO "images" ("id", "width", "height", "sourceFormat", "sourceBytes", "fileName", "uploadedBy")
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT ("id") DO NOTHING`,
    [
      image.id,
      image.width,
      image.height,
      processed.source,
      bytes.length,
      about.fileName?.slice(0, 255) || null,
      about.uploadedBy,
    ],
  );
  return { image, url: uploadUrl(image.id, image), stored: true };
}

/**
 * What storeImage would answer, storing nothing and making no copies (an import's dry run): the
 * bytes' real type and size are checked as processImage checks them.
 */
export async function previewImage(
  pool: Pick<pg.Pool, 'query'>,
  bytes: Buffer,
): Promise<StoredImage> {
  const id = imageIdOf(bytes);
  const known = await findStoredImage(pool, id);
  if (known) return { image: known, url: uploadUrl(known.id, known), stored: false };
  const unsupported = () =>
    new DomainError(415, 'unsupported_image', 'not a JPEG, PNG, WebP, AVIF or GIF image');
  if (!sniffFormat(bytes)) throw unsupported();
  const metadata = await sharp(bytes, { limitInputPixels: MAX_PIXELS })
    .metadata()
    .catch(() => {
      throw unsupported();
    });
  if (!metadata.width || !metadata.height) throw unsupported();
  const upright =
    (metadata.orientation ?? 1) >= 5
      ? { width: metadata.height, height: metadata.width }
      : { width: metadata.width, height: metadata.height };
  const image = { id, ...widestSize(upright) };
  return { image, url: uploadUrl(id, image), stored: true };
}

async function findStoredImage(
  pool: Pick<pg.Pool, 'query'>,
  id: string,
): Promise<UploadedImage | null> {
  const { rows } = await pool.query<UploadedImage>(
    `SELECT "id", "width", "height" FROM "images" WHERE "id" = $1`,
    [id],
  );
  return rows[0] ?? null;
}

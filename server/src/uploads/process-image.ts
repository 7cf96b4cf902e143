import { createHash } from 'node:crypto';
import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import {
  formatsOf,
  imageSizes,
  type ImageFormat,
  type ImageSize,
  SHARE_SIZE,
  shareImageUrl,
  type UploadedImage,
  uploadUrl,
  UPLOADS_PATH,
  widestSize,
} from '../../../contract/images.js';
import { DomainError } from '../domain-error.js';

// Each upload is decoded once and never again: libvips' cache of operations would only hold on
// to memory (tens of MB per photo) between uploads.
sharp.cache(false);

/** An image's id: a digest of its bytes, so the same file uploaded twice is one image. */
export const imageIdOf = (bytes: Buffer) =>
  createHash('sha256').update(bytes).digest('hex').slice(0, 20);

/** The formats an upload may be, by what its first bytes say (never by its name or type). */
export type SourceFormat = 'jpeg' | 'png' | 'gif' | 'webp' | 'avif';

/** The most pixels an upload may have: a decompression bomb is refused before it is decoded. */
export const MAX_PIXELS = 100_000_000;

const ascii = (bytes: Buffer, start: number, end: number) =>
  bytes.subarray(start, end).toString('latin1');

/** What the file's first bytes say it is, among the formats taken; null for anything else. */
export function sniffFormat(bytes: Buffer): SourceFormat | null {
  if (bytes.length < 12) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'png';
  }
  const head = ascii(bytes, 0, 6);
  if (head === 'GIF87a' || head === 'GIF89a') return 'gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  // ISO base media: a `ftyp` box whose brands include AVIF's.
  if (ascii(bytes, 4, 8) === 'ftyp') {
    const boxSize = Math.min(bytes.readUInt32BE(0), bytes.length, 64);
    const brands = ascii(bytes, 8, boxSize);
    if (/avi[fs]/.test(brands)) return 'avif';
  }
  return null;
}

/** What sharp calls each format taken (AVIF is HEIF with AV1 inside). */
const SHARP_FORMATS: Record<SourceFormat, string> = {
  jpeg: 'jpeg',
  png: 'png',
  gif: 'gif',
  webp: 'webp',
  avif: 'heif',
};

export interface ProcessedImage {
  image: UploadedImage;
  /** The copies to store, by file name (contract uploadFileNames), and its share copy. */
  files: { name: string; bytes: Buffer; format: ImageFormat | 'jpeg' }[];
  source: SourceFormat;
}

const unsupported = () =>
  new DomainError(
    415,
    'unsupported_image',
    'Upload a JPEG, PNG, WebP, AVIF or GIF image (other files, SVG included, are refused).',
  );

/**
 * An upload made ready to serve: its real type checked from its bytes, turned upright by its EXIF
 * orientation, every piece of metadata (EXIF, GPS, XMP, comments) dropped, and made in each width
 * of contract/images.ts as AVIF and WebP, and as its 1200×630 share copy. Its id is a digest of
 * the bytes, so the same file uploaded twice is one image.
 */
export async function processImage(bytes: Buffer): Promise<ProcessedImage> {
  const source = sniffFormat(bytes);
  if (!source) throw unsupported();
  const input = () => sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error' });
  let metadata: Metadata;
  try {
    metadata = await input().metadata();
  } catch {
    throw unsupported();
  }
  if (metadata.format !== SHARP_FORMATS[source]) throw unsupported();
  if (!metadata.width || !metadata.height) throw unsupported();
  if (metadata.width * metadata.height > MAX_PIXELS) {
    throw new DomainError(413, 'image_too_large', 'Upload an image of at most 100 megapixels.');
  }
  // EXIF orientations 5–8 turn the picture a quarter: its upright size is the other way round.
  const quarterTurn = (metadata.orientation ?? 1) >= 5;
  const upright = quarterTurn
    ? { width: metadata.height, height: metadata.width }
    : { width: metadata.width, height: metadata.height };
  const widest = widestSize(upright);
  const id = imageIdOf(bytes);
  const image: UploadedImage = { id, ...widest };
  // Decoded once, upright, at the widest size; every copy is made from those pixels.
  let pixels: { data: Buffer; info: OutputInfo };
  try {
    pixels = await input()
      .rotate()
      .resize({ width: widest.width, height: widest.height, fit: 'fill' })
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw unsupported();
  }
  const raw = {
    width: pixels.info.width,
    height: pixels.info.height,
    channels: pixels.info.channels as 1 | 2 | 3 | 4,
  };
  // One size at a time, its two formats side by side (a core each): the encoders' buffers for
  // one size are in memory at once, not all eight.
  const files: ProcessedImage['files'] = [];
  for (const size of imageSizes(widest)) {
    const copies = await Promise.all(
      formatsOf(size).map(async (format) => {
        const pipeline = sharp(pixels.data, { raw }).resize({
          width: size.width,
          height: size.height,
          fit: 'fill',
        });
        // The fastest settings of each encoder: AVIF's effort 0 makes files within a few per
        // cent of effort 2's in a quarter of the time (docs/performance.md, "Uploads").
        const encoded =
          format === 'avif'
            ? pipeline.avif({ quality: 50, effort: 0 })
            : pipeline.webp({ quality: 78, effort: 2 });
        return {
          name: uploadUrl(id, size, format).slice(UPLOADS_PATH.length),
          bytes: await encoded.toBuffer(),
          format,
        };
      }),
    );
    files.push(...copies);
  }
  files.push({
    name: shareImageUrl(image).slice(UPLOADS_PATH.length),
    bytes: await makeShareCopy(sharp(pixels.data, { raw })),
    format: 'jpeg',
  });
  return { image, files, source };
}

/**
 * An image's share copy (contract shareImageUrl): cropped to fill 1200×630 around what draws the
 * eye (libvips' attention strategy: skin, saturation, edges), anything transparent on white, as a
 * JPEG.
 */
export function makeShareCopy(image: Sharp): Promise<Buffer> {
  return image
    .resize({ ...SHARE_SIZE, fit: 'cover', position: sharp.strategy.attention })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 82 })
    .toBuffer();
}

/**
 * An image's copy for mail (contract mailImageUrl): scaled to `size`, anything transparent on
 * white, as a progressive JPEG (mail readers show its first pass while the rest arrives).
 */
export function makeMailCopy(image: Sharp, size: ImageSize): Promise<Buffer> {
  return image
    .resize({ ...size, fit: 'fill' })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 80, progressive: true })
    .toBuffer();
}

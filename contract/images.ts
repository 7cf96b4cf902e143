// Uploaded images (decision note 0017): each upload is stored once per width and format, under names that
// say the image's id and size, so a page can write `srcset`, `width` and `height` from its address
// alone, with nothing to look up.

/** Where uploaded images are served. */
export const UPLOADS_PATH = '/uploads/';

/** The widths an upload is made in (never wider than the original), narrowest first. */
const WIDEST = 2400;
export const IMAGE_WIDTHS = [480, 960, 1600, WIDEST] as const;

/** The formats an upload is made in: AVIF where the browser takes it, WebP everywhere else. */
export const IMAGE_FORMATS = ['avif', 'webp'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/**
 * The widest AVIF copy: AVIF's encoder needs about 40 bytes a pixel, so a 2400-wide copy would
 * take a 12-megapixel upload past 300 MB; wider screens get the WebP (docs/performance.md).
 */
export const AVIF_MAX_WIDTH = 1600;

/** The formats one size is made in. */
export const formatsOf = (size: ImageSize): readonly ImageFormat[] =>
  size.width <= AVIF_MAX_WIDTH ? IMAGE_FORMATS : ['webp'];

/** The upload's address the editor and the posts keep: its widest WebP copy. */
const UPLOAD_URL = /^\/uploads\/([a-z0-9]{20})-([1-9][0-9]{0,4})x([1-9][0-9]{0,4})\.(avif|webp)$/;

export interface UploadedImage {
  id: string;
  /** The widest copy's size in pixels (the original's, or 2400 wide). */
  width: number;
  height: number;
}

export interface ImageSize {
  width: number;
  height: number;
}

/** An uploaded image's address, of one size and format. */
export const uploadUrl = (id: string, size: ImageSize, format: ImageFormat = 'webp') =>
  `${UPLOADS_PATH}${id}-${size.width}x${size.height}.${format}`;

/** The image an upload address names, or null when it names none. */
export function parseUploadUrl(url: string): UploadedImage | null {
  const match = UPLOAD_URL.exec(url);
  const [, id, width, height] = match ?? [];
  if (!id || !width || !height) return null;
  return { id, width: Number(width), height: Number(height) };
}

/**
 * An image's address on another site (http or https, absolute): what an import leaves in a post
 * when it cannot fetch the image, for it to be fetched again later.
 */
export function isRemoteImageUrl(url: string): boolean {
  if (!/^https?:\/\//i.test(url)) return false;
  try {
    return ['http:', 'https:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** The widest copy made of an original this size: the original's size, or 2400 wide. */
export function widestSize(original: ImageSize): ImageSize {
  if (original.width <= WIDEST) return original;
  const height = Math.max(1, Math.round((original.height * WIDEST) / original.width));
  return { width: WIDEST, height };
}

/** Every size an image is made in, from its widest copy: the standard widths below it, then it. */
export function imageSizes(widest: ImageSize): ImageSize[] {
  const sizes = IMAGE_WIDTHS.filter((width) => width < widest.width).map((width) => ({
    width,
    height: Math.max(1, Math.round((widest.height * width) / widest.width)),
  }));
  return [...sizes, widest];
}

/** The `srcset` of an uploaded image in one format. */
export const srcsetOf = (image: UploadedImage, format: ImageFormat) =>
  imageSizes(image)
    .filter((size) => formatsOf(size).includes(format))
    .map((size) => `${uploadUrl(image.id, size, format)} ${size.width}w`)
    .join(', ');

/** The file names an upload is stored under: every size in every format. */
export const uploadFileNames = (image: UploadedImage) =>
  imageSizes(image).flatMap((size) =>
    formatsOf(size).map((format) => uploadUrl(image.id, size, format).slice(UPLOADS_PATH.length)),
  );

/** An uploaded file's name as served (`<id>-<w>x<h>.<format>`). */
export const UPLOAD_FILE_NAME = /^[a-z0-9]{20}-[1-9][0-9]{0,4}x[1-9][0-9]{0,4}\.(avif|webp)$/;

/** The size link previews ask for (Open Graph, X's large card). */
export const SHARE_SIZE = { width: 1200, height: 630 } as const;

/**
 * An upload's share copy, its `og:image`: cropped to SHARE_SIZE, as a JPEG, which every link
 * preview reads (not all read WebP or AVIF). Named after the widest copy it is cropped from
 * (`<id>-<w>x<h>-share.jpg`), so a site whose images were stored before share copies existed
 * makes one from its address alone when it is first asked for.
 */
export const shareImageUrl = (image: UploadedImage) =>
  `${UPLOADS_PATH}${image.id}-${image.width}x${image.height}-share.jpg`;

const SHARE_FILE_NAME = /^([a-z0-9]{20})-([1-9][0-9]{0,4})x([1-9][0-9]{0,4})-share\.jpg$/;

/** The image whose share copy a file name is, or null when it names none. */
export function parseShareFileName(name: string): UploadedImage | null {
  const [, id, width, height] = SHARE_FILE_NAME.exec(name) ?? [];
  if (!id || !width || !height) return null;
  return { id, width: Number(width), height: Number(height) };
}

/**
 * The widths a mail's copy of an image is made in: twice a mail column's 560 pixels (a body
 * image, a video's thumbnail), and a bookmark card's smaller picture.
 */
export const MAIL_IMAGE_WIDTHS = [600, 1200] as const;
export type MailImageWidth = (typeof MAIL_IMAGE_WIDTHS)[number];

/**
 * An upload's copy for mail, as a JPEG: Outlook for Windows shows no WebP or AVIF, and many
 * readers none of AVIF. Named, as the share copy is, after the widest copy it is made from and
 * the width it is made at (`<id>-<w>x<h>-mail1200.jpg`), so it is made when first asked for.
 */
export const mailImageUrl = (image: UploadedImage, width: MailImageWidth) =>
  `${UPLOADS_PATH}${image.id}-${image.width}x${image.height}-mail${width}.jpg`;

/** The size of an image's mail copy: the width asked for, or the image's own when narrower. */
export function mailImageSize(image: ImageSize, width: MailImageWidth): ImageSize {
  if (image.width <= width) return { width: image.width, height: image.height };
  return { width, height: Math.max(1, Math.round((image.height * width) / image.width)) };
}

const MAIL_FILE_NAME = /^([a-z0-9]{20})-([1-9][0-9]{0,4})x([1-9][0-9]{0,4})-mail(600|1200)\.jpg$/;

/** The image and width a mail copy's file name names, or null when it names none. */
export function parseMailFileName(
  name: string,
): { image: UploadedImage; width: MailImageWidth } | null {
  const [, id, width, height, copyWidth] = MAIL_FILE_NAME.exec(name) ?? [];
  if (!id || !width || !height || !copyWidth) return null;
  return {
    image: { id, width: Number(width), height: Number(height) },
    width: Number(copyWidth) as MailImageWidth,
  };
}

import { useState } from 'react';
import { ARTWORK_SIZE } from '../../../../../contract/artwork-size';
import { parseUploadUrl, srcsetOf } from '../../../../../contract/images';

const placeholderSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 90">' +
  '<rect width="160" height="90" fill="#e4e1da"/>' +
  '<circle cx="66" cy="36" r="7" fill="#a9a294"/>' +
  '<path d="M48 62l18-17 11 10 9-7 16 14z" fill="#a9a294"/></svg>';

/** Shown when an image fails to load. Inline, so it cannot fail the same way. */
export const PLACEHOLDER_IMAGE = `data:image/svg+xml,${encodeURIComponent(placeholderSvg)}`;

/**
 * A hero image in a fixed 16:9 box (its width and height are known before it loads, so nothing
 * shifts), lazy unless it is the page's main image, with a placeholder if it fails to load. An
 * uploaded image is a `<picture>`: AVIF where the browser takes it, WebP otherwise, each in every
 * width it was made in (the picture draws no box of its own: `.content-picture`).
 */
export function ContentImage({
  src,
  alt = '',
  priority = false,
  className,
  sizes = '100vw',
}: {
  src: string;
  /** Empty for the decorative artwork beside a title; describe anything that carries meaning. */
  alt?: string;
  /** The page's largest image: loaded at once and first. */
  priority?: boolean;
  className?: string;
  /** How wide it is drawn, for an uploaded image's `srcset` (contract/images.ts). */
  sizes?: string;
}) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const failed = failedSrc === src;
  // An uploaded image comes in several widths: the browser takes the one its screen needs.
  const uploaded = failed ? null : parseUploadUrl(src);
  const image = (
    <img
      className={className ? `content-image ${className}` : 'content-image'}
      src={failed ? PLACEHOLDER_IMAGE : src}
      {...(uploaded && { srcSet: srcsetOf(uploaded, 'webp'), sizes })}
      alt={alt}
      width={ARTWORK_SIZE.width}
      height={ARTWORK_SIZE.height}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : 'auto'}
      decoding="async"
      data-fallback={failed ? 'true' : undefined}
      onError={failed ? undefined : () => setFailedSrc(src)}
      // A prerendered image can fail before the page is hydrated, when no onError listens yet:
      // one that finished without a picture has failed.
      ref={(element) => {
        if (!failed && element?.complete && element.naturalWidth === 0) setFailedSrc(src);
      }}
    />
  );
  if (!uploaded) return image;
  return (
    <picture className="content-picture">
      <source type="image/avif" srcSet={srcsetOf(uploaded, 'avif')} sizes={sizes} />
      {image}
    </picture>
  );
}

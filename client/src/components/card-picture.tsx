import { parseUploadUrl, srcsetOf } from '../../../contract/images';
import type { CardImage } from '../../../contract/embeds';

/**
 * A card's image: an upload of this site, AVIF where the browser takes it and WebP otherwise, in
 * every width it was made in, and decorative (the card's words say what it is). Anything but an
 * upload is not drawn: a card never makes the reader's browser ask another site for a picture.
 */
export function CardPicture({
  image,
  sizes,
  className,
}: {
  image: CardImage;
  sizes: string;
  className?: string;
}) {
  const uploaded = parseUploadUrl(image.src);
  if (!uploaded) return null;
  return (
    <picture className={className}>
      <source type="image/avif" srcSet={srcsetOf(uploaded, 'avif')} sizes={sizes} />
      <img
        src={image.src}
        srcSet={srcsetOf(uploaded, 'webp')}
        sizes={sizes}
        width={image.width}
        height={image.height}
        alt=""
        loading="lazy"
        decoding="async"
      />
    </picture>
  );
}

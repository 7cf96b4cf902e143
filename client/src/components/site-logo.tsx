import { parseUploadUrl, srcsetOf } from '../../../contract/images';

/** How tall the logo is drawn (theme.css `.site-logo`), for the width its `sizes` asks for. */
const LOGO_HEIGHT_PX = 40;

/**
 * The publication's logo (settings `logo`, an upload): its own proportions from its address, so
 * its box is known before it loads, in the widths it was made in. Beside the name, which says it.
 */
export function SiteLogo({ src }: { src: string }) {
  const image = parseUploadUrl(src);
  return (
    <img
      className="site-logo"
      src={src}
      {...(image && {
        srcSet: srcsetOf(image, 'webp'),
        sizes: `${Math.ceil((LOGO_HEIGHT_PX * image.width) / image.height)}px`,
        width: image.width,
        height: image.height,
      })}
      alt=""
    />
  );
}

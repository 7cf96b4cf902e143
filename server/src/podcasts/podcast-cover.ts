import type { UploadedImage } from '../../../contract/images.js';
import type { ImageStore, StoredFile } from '../uploads/image-store.js';
import { readMadeCopy } from '../uploads/share-copy.js';

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
  return readMadeCopy(store, name, image, (widest) =>
    widest
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .jpeg({ quality: 85 })
      .toBuffer(),
  );
}

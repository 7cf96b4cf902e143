import { DomainError } from '../domain-error.js';
import { imageIdOf } from '../uploads/process-image.js';
import { previewImage, storeImage, type StoredImage } from '../uploads/store-image.js';
import { ImageFetchError, readImage } from './fetch-image.js';
import type {
  Plan,
  PostsDeps,
  PostsOptions,
  PostsOutcome,
  PostsProgress,
} from './post-planning.js';
import type { SourceBundle } from './source.js';

/*
 * The images an import's posts name (import-posts.ts), each fetched once, a few at a time, and
 * stored as an upload; a post's addresses are then rewritten to the uploads'.
 */

/** Images fetched at once. */
const FETCHES_AT_ONCE = 4;

/**
 * Every image the posts to write name, fetched once each (or taken from the export) and stored
 * as an upload (a dry run only checks it): by original address, the upload's address. One that
 * cannot be had goes to `notFetched` with why.
 */
export async function takeImages(
  deps: PostsDeps,
  bundle: SourceBundle,
  options: PostsOptions,
  plans: readonly Plan[],
  outcome: PostsOutcome,
  onProgress: PostsProgress,
): Promise<Map<string, string>> {
  const urls = [
    ...new Set(
      plans.flatMap((plan) => [
        ...plan.images.map((image) => image.url),
        ...(plan.post.featureImage ? [plan.post.featureImage.url] : []),
      ]),
    ),
  ];
  const taken = await storeImages(deps, urls, {
    files: bundle.files,
    siteUrl: bundle.siteUrl,
    dryRun: options.dryRun,
    onProgress: (done, total) => onProgress({ phase: 'images', done, total }),
  });
  outcome.images.stored += taken.stored;
  outcome.images.notFetched.push(...taken.notFetched);
  return taken.uploads;
}

export interface StoredImages {
  /** By original address, the upload's address. */
  uploads: Map<string, string>;
  /** Uploads new to the site. */
  stored: number;
  notFetched: { url: string; reason: string }[];
}

/**
 * Each address's image fetched (or taken from the export's `files`), a few at a time, and stored
 * as an upload, once for the same bytes: an import's (takeImages) and a retry's of the images
 * posts still show from their old addresses (missing-images.ts).
 */
export async function storeImages(
  deps: Pick<
    PostsDeps,
    'pool' | 'imageStore' | 'config' | 'allowPrivateAddresses' | 'fetchRemoteImages'
  >,
  urls: readonly string[],
  options: {
    files?: SourceBundle['files'];
    siteUrl?: string;
    dryRun?: boolean;
    onProgress?: (done: number, total: number) => void;
  },
): Promise<StoredImages> {
  const result: StoredImages = { uploads: new Map(), stored: 0, notFetched: [] };
  const byId = new Map<string, Promise<StoredImage>>();
  let next = 0;
  let done = 0;
  options.onProgress?.(done, urls.length);
  const work = async () => {
    for (let index = next++; index < urls.length; index = next++) {
      const url = urls[index] as string;
      try {
        const bytes = await readImage(url, {
          files: options.files ?? new Map(),
          siteUrl: options.siteUrl,
          maxBytes: deps.config.uploads.maxBytes,
          allowPrivateAddresses: deps.allowPrivateAddresses,
          fetchRemote: deps.fetchRemoteImages,
        });
        // Two addresses of the same bytes (a redirect, a copy) are one image, stored once.
        const id = imageIdOf(bytes);
        let storing = byId.get(id);
        const first = storing === undefined;
        if (!storing) {
          storing = options.dryRun
            ? previewImage(deps.pool, bytes)
            : storeImage(deps.pool, deps.imageStore, bytes, {
                fileName: fileNameOf(url),
                uploadedBy: null,
              });
          byId.set(id, storing);
        }
        const stored = await storing;
        result.uploads.set(url, stored.url);
        if (first && stored.stored) result.stored += 1;
      } catch (error) {
        if (!(error instanceof ImageFetchError || error instanceof DomainError)) throw error;
        result.notFetched.push({ url, reason: error.message });
      }
      done += 1;
      options.onProgress?.(done, urls.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(FETCHES_AT_ONCE, urls.length) }, work));
  return result;
}

const fileNameOf = (url: string) => url.split(/[?#]/)[0]?.split('/').pop() || null;

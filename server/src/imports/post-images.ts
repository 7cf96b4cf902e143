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
  const taken = new Map<string, string>();
  const byId = new Map<string, Promise<StoredImage>>();
  let next = 0;
  let done = 0;
  onProgress({ phase: 'images', done, total: urls.length });
  const work = async () => {
    for (let index = next++; index < urls.length; index = next++) {
      const url = urls[index] as string;
      try {
        const bytes = await readImage(url, {
          files: bundle.files,
          siteUrl: bundle.siteUrl,
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
        taken.set(url, stored.url);
        if (first && stored.stored) outcome.images.stored += 1;
      } catch (error) {
        if (!(error instanceof ImageFetchError || error instanceof DomainError)) throw error;
        outcome.images.notFetched.push({ url, reason: error.message });
      }
      done += 1;
      onProgress({ phase: 'images', done, total: urls.length });
    }
  };
  await Promise.all(Array.from({ length: Math.min(FETCHES_AT_ONCE, urls.length) }, work));
  return taken;
}

const fileNameOf = (url: string) => url.split(/[?#]/)[0]?.split('/').pop() || null;

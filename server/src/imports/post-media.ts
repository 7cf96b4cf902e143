import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mediaUrl } from '../../../contract/media.js';
import { DomainError } from '../domain-error.js';
import { MediaRefusedError, sniffMedia, storeMedia } from '../uploads/store-media.js';
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
 * The audio and video files an import's posts play (html-to-markdown.ts's `media`), each taken
 * once, a few at a time, as the images are (post-images.ts): from the export, or fetched through
 * the private-address guard, then stored as media uploads (uploads/store-media.ts). A post's
 * addresses are then rewritten to the uploads'; one that could not be had stays a link to its old
 * address, and the report's notes say which and why.
 */

/**
 * Files fetched at once: one, as each may be a long recording, held in memory until it is written
 * to disk for the store (the guard's fetch, embeds/outbound.ts, answers whole bodies).
 */
const FETCHES_AT_ONCE = 1;

/** A whole recording may take a while to arrive. */
const MEDIA_TIMEOUT_MS = 120_000;

/**
 * Every audio and video file the posts to write play, fetched once each and stored (a dry run
 * only checks that it is one the site takes): by original address, the upload's address.
 */
export async function takeMedia(
  deps: PostsDeps,
  bundle: SourceBundle,
  options: PostsOptions,
  plans: readonly Plan[],
  outcome: PostsOutcome,
  onProgress: PostsProgress,
): Promise<Map<string, string>> {
  const urls = [...new Set(plans.flatMap((plan) => plan.media.map((file) => file.url)))];
  const taken = new Map<string, string>();
  if (urls.length === 0) return taken;
  const limits = mediaLimitsOf(deps);
  const notTaken: string[] = [];
  let stored = 0;
  let next = 0;
  let done = 0;
  onProgress({ phase: 'media', done, total: urls.length });
  const work = async () => {
    for (let index = next++; index < urls.length; index = next++) {
      const url = urls[index] as string;
      const folder = await mkdtemp(join(tmpdir(), 'cohort-import-media-'));
      try {
        const bytes = await readImage(url, {
          files: bundle.files,
          siteUrl: bundle.siteUrl,
          // Its kind is known once it is read: the larger limit, then its own kind's.
          maxBytes: limits.fetch.maxBytes,
          limitName: limits.fetch.name,
          accept: 'audio/*, video/*',
          timeoutMs: MEDIA_TIMEOUT_MS,
          allowPrivateAddresses: deps.allowPrivateAddresses,
          fetchRemote: deps.fetchRemoteImages,
        });
        const path = join(folder, 'file');
        await writeFile(path, bytes);
        const fileName = fileNameOf(url);
        if (options.dryRun) {
          taken.set(url, await previewMedia(path, bytes));
        } else {
          const maxBytes = { audio: limits.audio.maxBytes, video: limits.video.maxBytes };
          taken.set(url, (await storeMedia(deps.imageStore, { path, fileName, maxBytes })).url);
          stored += 1;
        }
      } catch (error) {
        if (!(error instanceof ImageFetchError || error instanceof DomainError)) throw error;
        notTaken.push(`${url}: ${reasonOf(error, limits)}`);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
      done += 1;
      onProgress({ phase: 'media', done, total: urls.length });
    }
  };
  await Promise.all(Array.from({ length: Math.min(FETCHES_AT_ONCE, urls.length) }, work));
  if (stored > 0) {
    outcome.notes.push(`${stored} audio and video ${stored === 1 ? 'file' : 'files'} stored`);
  }
  for (const line of notTaken.sort()) {
    outcome.notes.push(`audio or video not stored (its posts link to its old address): ${line}`);
  }
  return taken;
}

/** The address a dry run would give a file: refused as a real run would refuse it. */
async function previewMedia(path: string, bytes: Buffer): Promise<string> {
  const extension = await sniffMedia(path);
  if (!extension) throw new MediaRefusedError('unsupported');
  const id = createHash('sha256').update(bytes).digest('hex').slice(0, 20);
  return mediaUrl({ id, extension, duration: null, width: null, height: null });
}

interface Limit {
  maxBytes: number;
  name: string;
}

/** The largest audio and video files taken, the settings that say so, and the larger of them. */
function mediaLimitsOf(deps: PostsDeps): { audio: Limit; video: Limit; fetch: Limit } {
  const audio = { maxBytes: deps.config.uploads.audioMaxBytes, name: 'AUDIO_MAX_MB' };
  const video = { maxBytes: deps.config.uploads.videoMaxBytes, name: 'VIDEO_MAX_MB' };
  return { audio, video, fetch: audio.maxBytes > video.maxBytes ? audio : video };
}

/** Why a file was not stored, as the report says it. */
function reasonOf(error: Error, limits: { audio: Limit; video: Limit }): string {
  if (!(error instanceof MediaRefusedError)) return error.message;
  if (error.reason === 'unsupported') {
    return 'not an MP3, M4A or Ogg audio file, nor an MP4 or WebM video';
  }
  const limit = error.maxBytes === limits.audio.maxBytes ? limits.audio : limits.video;
  return `larger than ${Math.round(limit.maxBytes / 1024 / 1024)} MB (${limit.name})`;
}

const fileNameOf = (url: string) => url.split(/[?#]/)[0]?.split('/').pop() || 'media';

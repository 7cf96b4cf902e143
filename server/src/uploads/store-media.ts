import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';
import { parseFile, type IAudioMetadata } from 'music-metadata';
import { UPLOADS_PATH } from '../../../contract/images.js';
import {
  MEDIA_TYPES,
  mediaUrl,
  type MediaExtension,
  type MediaKind,
} from '../../../contract/media.js';
import { DomainError } from '../domain-error.js';
import type { ImageStore } from './image-store.js';
import { ImageStoreError } from './store-image.js';

/**
 * Audio and video taken into the site (decision note 0029): the desk's upload and the importers
 * store them the same way. The file is never held in memory: it is read from disk to learn its
 * type (by its bytes), its duration and a video's frame size, and streamed to the store under the
 * address contract/media.ts makes, whose id is a digest of the bytes, as an image's is.
 */

export interface UploadedMediaResult {
  /** Its address in posts: `/uploads/<id>[-<w>x<h>][-<seconds>s].<ext>`. */
  url: string;
  kind: MediaKind;
  /** Whole seconds; null when the file does not say. */
  duration: number | null;
  /** A video's frame size; null for audio or when the file does not say. */
  width: number | null;
  height: number | null;
  mime: string;
}

/** The most bytes taken: one limit for both kinds, or one for each. */
export type MediaLimit = number | { audio: number; video: number };

export type MediaRefusal = 'unsupported' | 'too_large';

/** A file refused as media: not one of the formats taken (415), or over the limit (413). */
export class MediaRefusedError extends DomainError {
  override name = 'MediaRefusedError';
  constructor(
    readonly reason: MediaRefusal,
    /** For too_large: the limit it passed. */
    readonly maxBytes: number | null = null,
  ) {
    super(
      reason === 'too_large' ? 413 : 415,
      reason === 'too_large' ? 'file_too_large' : 'unsupported_media',
      reason === 'too_large'
        ? `Upload a file of at most ${Math.round((maxBytes ?? 0) / 1024 / 1024)} MB.`
        : 'Upload an MP3, M4A or Ogg audio file, or an MP4 or WebM video.',
    );
  }
}

/** What file-type calls each format taken, as the extension the site stores it under. */
const EXTENSIONS: Record<string, MediaExtension> = {
  mp3: 'mp3',
  m4a: 'm4a',
  m4b: 'm4a',
  f4a: 'm4a',
  ogg: 'ogg',
  oga: 'ogg',
  opus: 'ogg',
  mp4: 'mp4',
  m4v: 'mp4',
  webm: 'webm',
};

/** The extension the file's bytes say it is, among those taken; null for anything else. */
export async function sniffMedia(path: string): Promise<MediaExtension | null> {
  const type = await fileTypeFromFile(path).catch(() => undefined);
  return (type && EXTENSIONS[type.ext]) ?? null;
}

/** How many of a file's first bytes sniffMediaHead needs (file-type reads as many). */
export const MEDIA_HEAD_BYTES = 4100;

/**
 * What kind of media a file's first bytes say it is, while it streams in (to know its limit);
 * storeMedia decides from the whole file. Null for anything else.
 */
export async function sniffMediaHead(head: Uint8Array): Promise<MediaKind | null> {
  const type = await fileTypeFromBuffer(head).catch(() => undefined);
  const extension = type && EXTENSIONS[type.ext];
  return extension ? MEDIA_TYPES[extension].kind : null;
}

const limitFor = (limit: MediaLimit | undefined, kind: MediaKind): number =>
  limit === undefined ? Infinity : typeof limit === 'number' ? limit : limit[kind];

/** A file's id, as an image's (process-image.ts imageIdOf): the start of its bytes' SHA-256. */
async function mediaIdOf(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex').slice(0, 20);
}

/** The largest numbers an address takes (contract/media.ts). */
const MAX_SECONDS = 999_999;
const MAX_SIDE = 99_999;

function durationOf(metadata: IAudioMetadata): number | null {
  // A file without sound may say its length only on its tracks.
  const tracks = metadata.format.trackInfo.map((track) => track.duration ?? 0);
  const seconds = metadata.format.duration ?? (tracks.length ? Math.max(...tracks) : undefined);
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return null;
  const whole = Math.round(seconds);
  return whole <= MAX_SECONDS ? whole : null;
}

function frameOf(metadata: IAudioMetadata): { width: number; height: number } | null {
  for (const track of metadata.format.trackInfo) {
    const width = track.video?.pixelWidth ?? track.video?.displayWidth;
    const height = track.video?.pixelHeight ?? track.video?.displayHeight;
    if (width && height && width <= MAX_SIDE && height <= MAX_SIDE) {
      return { width: Math.round(width), height: Math.round(height) };
    }
  }
  return null;
}

/**
 * Stores the audio or video file at `input.path` (a file on disk the caller removes afterwards;
 * best named without an extension, which music-metadata would believe before the bytes).
 * Refuses with MediaRefusedError a file that is not MP3, M4A, Ogg, MP4 or WebM by its bytes, or
 * that is over `maxBytes`, or whose rest music-metadata cannot read; throws ImageStoreError when
 * the store fails. A file that does not say its duration or size is taken without them.
 */
export async function storeMedia(
  store: ImageStore,
  input: { path: string; fileName: string; maxBytes?: MediaLimit },
): Promise<UploadedMediaResult> {
  const { size } = await stat(input.path);
  if (size === 0) throw new MediaRefusedError('unsupported');
  let extension = await sniffMedia(input.path);
  if (!extension) throw new MediaRefusedError('unsupported');

  let metadata: IAudioMetadata;
  try {
    // music-metadata picks its parser by the path's extension, else by the bytes: a temporary
    // file has none. An MP3 without a header saying its length is measured by its bitrate.
    metadata = await parseFile(input.path, { skipCovers: true });
  } catch {
    // Its first bytes looked right, the rest is not a file of that format.
    throw new MediaRefusedError('unsupported');
  }
  const frame = frameOf(metadata);
  // An MP4 that holds only sound is audio (an M4A by another brand).
  if (extension === 'mp4' && metadata.format.hasVideo === false && !frame) {
    extension = 'm4a';
  }
  const { kind, mime } = MEDIA_TYPES[extension];
  const maxBytes = limitFor(input.maxBytes, kind);
  if (size > maxBytes) throw new MediaRefusedError('too_large', maxBytes);

  const id = await mediaIdOf(input.path);
  const duration = durationOf(metadata);
  const width = kind === 'video' ? (frame?.width ?? null) : null;
  const height = kind === 'video' ? (frame?.height ?? null) : null;
  const url = mediaUrl({ id, extension, duration, width, height });
  try {
    await store.putFile(url.slice(UPLOADS_PATH.length), input.path, mime);
  } catch (error) {
    throw new ImageStoreError(error);
  }
  return { url, kind, duration, width, height, mime };
}

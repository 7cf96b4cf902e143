// Uploaded audio and video (decision note 0029). As with images (contract/images.ts), a file's
// address says what a page needs to draw its player, its duration and a video's size, so nothing
// is looked up: `/uploads/<id>-<seconds>s.mp3`, `/uploads/<id>-<width>x<height>-<seconds>s.mp4`.
// A post writes one alone on its line, as an image: `![Episode 12](/uploads/….mp3 "A caption")`.

import { UPLOADS_PATH } from './images.js';

/** The audio and video formats a post may hold, by the extension their address ends in. */
export const MEDIA_TYPES = {
  mp3: { kind: 'audio', mime: 'audio/mpeg' },
  m4a: { kind: 'audio', mime: 'audio/mp4' },
  ogg: { kind: 'audio', mime: 'audio/ogg' },
  mp4: { kind: 'video', mime: 'video/mp4' },
  webm: { kind: 'video', mime: 'video/webm' },
} as const;

export type MediaExtension = keyof typeof MEDIA_TYPES;
export type MediaKind = (typeof MEDIA_TYPES)[MediaExtension]['kind'];

export interface UploadedMedia {
  kind: MediaKind;
  id: string;
  extension: MediaExtension;
  mime: string;
  /** Whole seconds, rounded; null when the file's duration could not be read. */
  duration: number | null;
  /** A video's frame size; null for audio, or a video whose size could not be read. */
  width: number | null;
  height: number | null;
}

const MEDIA_URL =
  /^\/uploads\/([a-z0-9]{20})(?:-([1-9][0-9]{0,4})x([1-9][0-9]{0,4}))?(?:-([0-9]{1,6})s)?\.(mp3|m4a|ogg|mp4|webm)$/;

/** An uploaded file's address, from what was read of it. */
export function mediaUrl(media: Omit<UploadedMedia, 'kind' | 'mime'>): string {
  const size = media.width && media.height ? `-${media.width}x${media.height}` : '';
  const duration = media.duration === null ? '' : `-${media.duration}s`;
  return `${UPLOADS_PATH}${media.id}${size}${duration}.${media.extension}`;
}

/** The audio or video an upload address names, or null when it names none. */
export function parseMediaUrl(url: string): UploadedMedia | null {
  const match = MEDIA_URL.exec(url);
  if (!match) return null;
  const [, id, width, height, duration, extension] = match;
  if (!id || !extension) return null;
  const type = MEDIA_TYPES[extension as MediaExtension];
  if (type.kind === 'audio' && width) return null;
  return {
    kind: type.kind,
    id,
    extension: extension as MediaExtension,
    mime: type.mime,
    duration: duration === undefined ? null : Number(duration),
    width: width ? Number(width) : null,
    height: height ? Number(height) : null,
  };
}

/** A duration as a player shows it: `4:05`, `1:02:09`. */
export function formatDuration(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { uploadUrl } from '../../../../contract/images.js';
import type { MediaKind } from '../../../../contract/media.js';
import { HttpError } from '../../http/errors.js';
import type { ImageStore } from '../../uploads/image-store.js';
import { sniffFormat } from '../../uploads/process-image.js';
import { ImageStoreError, storeImage } from '../../uploads/store-image.js';
import {
  MEDIA_HEAD_BYTES,
  MediaRefusedError,
  sniffMediaHead,
  storeMedia,
} from '../../uploads/store-media.js';
import { storeUnavailable } from '../uploads/index.js';
import { deskStaff } from './desk-staff.js';

/** What an upload may be: an image (made into copies), or audio or video (kept as it is). */
type UploadKind = 'image' | MediaKind;

export interface UploadRoutesOptions {
  store: ImageStore;
  /** The largest file of each kind taken (UPLOAD_MAX_MB, AUDIO_MAX_MB, VIDEO_MAX_MB). */
  maxBytes: Record<UploadKind, number>;
  /**
   * Where a file is kept while it streams in: a folder on disk with room for the largest (the
   * uploads folder, or the system's temporary folder when the files go to a bucket).
   */
  stagingDir: string;
}

/** How long a refused upload's rest is read (and dropped) before its connection is cut. */
const LINGER_MS = 5_000;

/** Room for the multipart framing around the file (boundaries, part headers). */
const FRAMING_BYTES = 16 * 1024;

const KIND_WORDS: Record<UploadKind, string> = {
  image: 'an image',
  audio: 'an audio file',
  video: 'a video',
};

/** Answered before the rest of the body is read: the connection then closes. */
const tooLarge = (maxBytes: number, kind: UploadKind | null) =>
  new HttpError(
    413,
    'file_too_large',
    `Upload ${kind ? KIND_WORDS[kind] : 'a file'} of at most ${Math.round(maxBytes / 1024 / 1024)} MB.`,
    { connection: 'close' },
  );

const unsupported = () =>
  new HttpError(
    415,
    'unsupported_file',
    'Upload a JPEG, PNG, WebP, AVIF or GIF image, an MP3, M4A or Ogg audio file, or an MP4 or WebM video.',
    { connection: 'close' },
  );

/**
 * Images, audio and video for posts (decision notes 0017, 0029). `POST /api/desk/uploads` takes
 * one file in the multipart field `file` from any staff member (writers illustrate their drafts)
 * and answers 201 `{url, kind, duration}`, with `image: {id, url, width, height}` for an image and
 * `media: {url, kind, duration, width, height, mime}` for audio or video. The file streams to disk
 * (never whole in memory): its first bytes say what it is, and so its limit (UPLOAD_MAX_MB,
 * AUDIO_MAX_MB, VIDEO_MAX_MB); one over it is refused with 413 before it is read whole (by its
 * Content-Length when it says so, else when the stream passes the limit), and anything but a JPEG,
 * PNG, WebP, AVIF, GIF, MP3, M4A, Ogg, MP4 or WebM with 415. routes/uploads serves the files.
 */
const deskUploadRoutes: FastifyPluginAsync<UploadRoutesOptions> = async (
  app,
  { store, maxBytes, stagingDir },
) => {
  const largest = Math.max(...Object.values(maxBytes));
  await app.register(multipart, {
    limits: { files: 1, fileSize: largest, fields: 0, parts: 2, headerPairs: 100 },
  });

  // A refused upload's unread rest: read and dropped for a few seconds after the answer (which
  // says the connection closes), then the connection goes. Closing it at once, with bytes still
  // arriving, resets it, and the sender's system may then drop the answer before it is read
  // (seen in CI: the 413 lost to ECONNRESET); a lingering close, as nginx does, lets it arrive.
  app.addHook('onResponse', async (request) => {
    if (request.raw.complete) return;
    request.raw.resume();
    setTimeout(() => request.raw.destroy(), LINGER_MS).unref();
  });

  app.post('/uploads', { config: { access: 'staff' } }, async (request, reply) => {
    const staff = deskStaff(request);
    void reply.header('cache-control', 'no-store');
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > largest + FRAMING_BYTES) {
      // Said too large up front: refused before a byte of it is read.
      throw tooLarge(largest, null);
    }
    if (!request.isMultipart()) {
      throw new HttpError(
        400,
        'invalid_upload',
        'Send the file as multipart/form-data, field "file".',
      );
    }
    const part = await request.file().catch((error: unknown) => {
      throw asUploadError(error, largest);
    });
    if (!part || part.fieldname !== 'file') {
      throw new HttpError(400, 'invalid_upload', 'Send one file in the field "file".');
    }

    await mkdir(stagingDir, { recursive: true });
    const folder = await mkdtemp(join(stagingDir, '.upload-'));
    try {
      const path = join(folder, 'file');
      const { kind, bytes } = await receive(part.file, path, maxBytes, declared).catch(
        (error: unknown) => {
          throw asUploadError(error, largest);
        },
      );
      if (part.file.truncated) throw tooLarge(largest, kind);
      if (bytes === 0) throw new HttpError(400, 'invalid_upload', 'The file is empty.');
      if (kind === null) throw unsupported();

      if (kind === 'image') {
        const { image } = await storeImage(app.db.pool, store, await readFile(path), {
          fileName: part.filename,
          uploadedBy: staff.userId,
        }).catch((error: unknown) => {
          throw asStoreError(error, request.log);
        });
        const url = uploadUrl(image.id, image);
        return reply.code(201).send({ url, kind, duration: null, image: { ...image, url } });
      }
      const media = await storeMedia(store, {
        path,
        fileName: part.filename,
        maxBytes: { audio: maxBytes.audio, video: maxBytes.video },
      }).catch((error: unknown) => {
        throw asStoreError(error, request.log);
      });
      return reply
        .code(201)
        .send({ url: media.url, kind: media.kind, duration: media.duration, media });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
};

/**
 * Streams the file to `path`, learning from its first bytes what kind it is and so its limit:
 * refused (413) as soon as it passes that, or as soon as its kind is known when the request's
 * length said more, and (415) as soon as its first bytes are of no kind taken; neither is read
 * whole.
 */
async function receive(
  file: Readable,
  path: string,
  maxBytes: Record<UploadKind, number>,
  declared: number,
): Promise<{ kind: UploadKind | null; bytes: number }> {
  let kind: UploadKind | null = null;
  let sniffed = false;
  let bytes = 0;
  const head: Buffer[] = [];
  const sniff = async () => {
    sniffed = true;
    const start = Buffer.concat(head);
    kind = sniffFormat(start) ? 'image' : await sniffMediaHead(start);
    head.length = 0;
  };
  await pipeline(
    file,
    async function* check(source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        bytes += chunk.length;
        if (!sniffed) {
          head.push(chunk);
          if (bytes >= MEDIA_HEAD_BYTES) await sniff();
          if (sniffed && kind === null) throw unsupported();
        }
        if (kind !== null) {
          const limit = maxBytes[kind];
          const saidMore = Number.isFinite(declared) && declared > limit + FRAMING_BYTES;
          if (bytes > limit || saidMore) throw tooLarge(limit, kind);
        }
        yield chunk;
      }
      if (!sniffed && bytes > 0) await sniff();
    },
    createWriteStream(path),
  );
  return { kind, bytes };
}

/** The multipart reader's own errors, as the site's. */
function asUploadError(error: unknown, maxBytes: number): HttpError {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(maxBytes, null);
  return new HttpError(
    400,
    'invalid_upload',
    'Send one file as multipart/form-data, field "file".',
  );
}

/** The store's failures, logged and answered 503; the file's own refusals, as they are. */
function asStoreError(error: unknown, log: { error: (what: object, message: string) => void }) {
  if (error instanceof MediaRefusedError && error.reason === 'unsupported') return unsupported();
  if (!(error instanceof ImageStoreError)) return error;
  log.error({ err: error.cause }, 'could not store an uploaded file');
  return storeUnavailable();
}

export default deskUploadRoutes;

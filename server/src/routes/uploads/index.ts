import { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { UPLOAD_FILE_NAME, UPLOADS_PATH } from '../../../../contract/images.js';
import { parseMediaUrl, type UploadedMedia } from '../../../../contract/media.js';
import { readerOf } from '../../content/readers.js';
import { HttpError } from '../../http/errors.js';
import { membersOnlyRefusal } from '../../plugins/app/route-access.js';
import { openFeedToken } from '../../podcasts/feed-tokens.js';
import {
  RangeNotSatisfiableError,
  type ImageStore,
  type StoredFile,
  type StoredPart,
} from '../../uploads/image-store.js';
import { mayFetchMedia, mediaAccessOf, type MediaAccess } from '../../content/media-access.js';
import { readJpegCopy } from '../../uploads/share-copy.js';

/** The folder or bucket failed (a full disk, S3 down or the keys wrong): the log says which. */
export const storeUnavailable = () =>
  new HttpError(
    503,
    'image_store_unavailable',
    'The images cannot be stored or read just now: try again in a moment.',
  );

/** What each kind of file under /uploads/ is served as. */
const CONTENT_TYPES: Record<string, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpg: 'image/jpeg',
};

/** Cached for a year by anyone: a name is never reused for other bytes. */
const PUBLIC_CACHE = 'public, max-age=31536000, immutable';
/** A members-only or unpublished file: kept by the reader's browser alone, never a shared cache. */
const PRIVATE_CACHE = 'private, max-age=86400';

/**
 * The uploaded images' copies (`GET /uploads/<file>`), served to everyone and cached for a year: a
 * name is never reused for other bytes. Staff upload them through the desk (routes/desk/uploads.ts).
 * A share copy (`<id>-<w>x<h>-share.jpg`, a post's og:image) or a mail copy
 * (`<id>-<w>x<h>-mail1200.jpg`) not stored yet is made when first asked for (uploads/share-copy.ts).
 * Uploaded audio and video (contract/media.ts) are served by range, for players to seek, to those
 * who may read a post they are in (serveMedia).
 */
const uploadedImageRoutes: FastifyPluginAsync<{ store: ImageStore }> = async (app, { store }) => {
  app.get<{ Params: { file: string } }>(
    '/uploads/:file',
    { config: { access: 'anyone', changesState: false } },
    async (request, reply) => {
      const { file } = request.params;
      const media = parseMediaUrl(`${UPLOADS_PATH}${file}`);
      if (media) return serveMedia(request, reply, store, file, media);
      let found: StoredFile | null;
      try {
        // Any other name is refused before the store is asked (readJpegCopy checks its own).
        found = UPLOAD_FILE_NAME.test(file)
          ? await store.get(file)
          : await readJpegCopy(store, file);
      } catch (error) {
        request.log.error({ err: error }, 'could not read an uploaded image');
        throw storeUnavailable();
      }
      if (!found) throw new HttpError(404, 'not_found', 'There is no such image.');
      return reply
        .header('content-type', CONTENT_TYPES[file.slice(file.lastIndexOf('.') + 1)] ?? '')
        .header('content-length', String(found.length))
        .header('cache-control', PUBLIC_CACHE)
        .header('x-content-type-options', 'nosniff')
        .send(found.body);
    },
  );
};

/**
 * Whether the reader who asks may fetch a file of this access: by their session (readerOf, the
 * pages' rule), or, from a podcast app, which sends no cookie, by their private feed's token
 * (`?feed=`, podcasts/feed-tokens.ts), which opens only while its member is one.
 */
async function mayFetch(request: FastifyRequest, access: MediaAccess): Promise<boolean> {
  if (mayFetchMedia(access, await readerOf(request))) return true;
  const { feed } = request.query as { feed?: unknown };
  if (typeof feed !== 'string') return false;
  const opened = await openFeedToken(request.server.db.pool, feed);
  return opened !== null && mayFetchMedia(access, opened.reader);
}

/**
 * An audio or video file, whole or the single range asked for (206; 416 for a range past its
 * end). A file in a public part of a published post is everyone's; one only in the restricted
 * parts of posts is for the readers who may read one of them whole (mayFetch) and staff, 403 for
 * others; one in no published post is staff's, 404 for others (content/media-access.ts).
 */
async function serveMedia(
  request: FastifyRequest,
  reply: FastifyReply,
  store: ImageStore,
  file: string,
  media: UploadedMedia,
): Promise<FastifyReply> {
  const access = mediaAccessOf(request.server.siteContent.current(), file);
  if (access !== 'public') {
    // Whatever the answer, it depends on who asks: no shared cache keeps it.
    void reply.header('cache-control', 'private, no-store').header('vary', 'Cookie');
    const staff = await request.getStaff();
    if (!staff && access === null) throw new HttpError(404, 'not_found', 'There is no such file.');
    if (!staff && access !== null && !(await mayFetch(request, access))) {
      throw membersOnlyRefusal();
    }
  }
  const headers = {
    'content-type': media.mime,
    'accept-ranges': 'bytes',
    'cache-control': access === 'public' ? PUBLIC_CACHE : PRIVATE_CACHE,
    'x-content-type-options': 'nosniff',
  };
  if (request.method === 'HEAD') {
    // A podcast app asks the length: the store says it without sending the file.
    const size = await store.size(file).catch((error: unknown) => {
      request.log.error({ err: error }, 'could not read an uploaded media file');
      throw storeUnavailable();
    });
    if (size === null) throw new HttpError(404, 'not_found', 'There is no such file.');
    // An empty stream: Fastify's HEAD answer keeps the length a stream's headers say (with no
    // body at all it would say 0), and reads nothing of the file.
    return reply.headers(headers).header('content-length', String(size)).send(Readable.from([]));
  }
  let found: StoredPart | null;
  try {
    found = await store.get(file, request.headers.range);
  } catch (error) {
    if (error instanceof RangeNotSatisfiableError) {
      return reply
        .code(416)
        .header('content-range', `bytes */${error.size}`)
        .header('accept-ranges', 'bytes')
        .send();
    }
    request.log.error({ err: error }, 'could not read an uploaded media file');
    throw storeUnavailable();
  }
  if (!found) throw new HttpError(404, 'not_found', 'There is no such file.');
  if (found.range) {
    void reply
      .code(206)
      .header('content-range', `bytes ${found.range.start}-${found.range.end}/${found.size}`);
  }
  return reply.headers(headers).header('content-length', String(found.length)).send(found.body);
}

export default uploadedImageRoutes;

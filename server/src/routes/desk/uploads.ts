import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { uploadUrl } from '../../../../contract/images.js';
import { HttpError } from '../../http/errors.js';
import type { ImageStore } from '../../uploads/image-store.js';
import { ImageStoreError, storeImage } from '../../uploads/store-image.js';
import { storeUnavailable } from '../uploads/index.js';
import { deskStaff } from './desk-staff.js';

export interface UploadRoutesOptions {
  store: ImageStore;
  /** The largest file taken (UPLOAD_MAX_MB). */
  maxBytes: number;
}

/** How long a refused upload's rest is read (and dropped) before its connection is cut. */
const LINGER_MS = 5_000;

/** Room for the multipart framing around the file (boundaries, part headers). */
const FRAMING_BYTES = 16 * 1024;

/** Answered before the rest of the body is read: the connection then closes. */
const tooLarge = (maxBytes: number) =>
  new HttpError(
    413,
    'file_too_large',
    `Upload an image of at most ${Math.round(maxBytes / 1024 / 1024)} MB.`,
    { connection: 'close' },
  );

/**
 * Images for posts (decision note 0017). `POST /api/desk/uploads` takes one file in the multipart field
 * `file` from any staff member (writers illustrate their drafts) and answers 201
 * `{image: {id, url, width, height}}`; a file over UPLOAD_MAX_MB is refused with 413 before it is
 * read whole (by its Content-Length when it says so, else when the stream passes the limit), and
 * anything but a JPEG, PNG, WebP, AVIF or GIF by its bytes with 415. routes/uploads serves the
 * copies to everyone.
 */
const deskUploadRoutes: FastifyPluginAsync<UploadRoutesOptions> = async (
  app,
  { store, maxBytes },
) => {
  await app.register(multipart, {
    limits: { files: 1, fileSize: maxBytes, fields: 0, parts: 2, headerPairs: 100 },
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
    if (Number.isFinite(declared) && declared > maxBytes + FRAMING_BYTES) {
      // Said too large up front: refused before a byte of it is read.
      throw tooLarge(maxBytes);
    }
    if (!request.isMultipart()) {
      throw new HttpError(
        400,
        'invalid_upload',
        'Send the image as multipart/form-data, field "file".',
      );
    }
    const part = await request.file().catch((error: unknown) => {
      throw asUploadError(error, maxBytes);
    });
    if (!part || part.fieldname !== 'file') {
      throw new HttpError(400, 'invalid_upload', 'Send one image in the field "file".');
    }
    const bytes = await part.toBuffer().catch((error: unknown) => {
      throw asUploadError(error, maxBytes);
    });
    if (part.file.truncated) throw tooLarge(maxBytes);
    if (bytes.length === 0) throw new HttpError(400, 'invalid_upload', 'The file is empty.');

    const { image } = await storeImage(app.db.pool, store, bytes, {
      fileName: part.filename,
      uploadedBy: staff.userId,
    }).catch((error: unknown) => {
      if (!(error instanceof ImageStoreError)) throw error;
      request.log.error({ err: error.cause }, 'could not store an uploaded image');
      throw storeUnavailable();
    });
    return reply.code(201).send({ image: { ...image, url: uploadUrl(image.id, image) } });
  });
};

/** The multipart reader's own errors, as the site's. */
function asUploadError(error: unknown, maxBytes: number): HttpError {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(maxBytes);
  return new HttpError(
    400,
    'invalid_upload',
    'Send one image as multipart/form-data, field "file".',
  );
}

export default deskUploadRoutes;

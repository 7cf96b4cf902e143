import type { FastifyPluginAsync } from 'fastify';
import { UPLOAD_FILE_NAME } from '../../../../contract/images.js';
import { HttpError } from '../../http/errors.js';
import type { ImageStore } from '../../uploads/image-store.js';
import { readShareCopy } from '../../uploads/share-copy.js';

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

/**
 * The uploaded images' copies (`GET /uploads/<file>`), served to everyone and cached for a year: a
 * name is never reused for other bytes. Staff upload them through the desk (routes/desk/uploads.ts).
 * A share copy (`<id>-<w>x<h>-share.jpg`, a post's og:image) not stored yet is made when first
 * asked for (uploads/share-copy.ts).
 */
const uploadedImageRoutes: FastifyPluginAsync<{ store: ImageStore }> = async (app, { store }) => {
  app.get<{ Params: { file: string } }>(
    '/uploads/:file',
    { config: { access: 'anyone', changesState: false } },
    async (request, reply) => {
      const { file } = request.params;
      let found: Awaited<ReturnType<ImageStore['get']>>;
      try {
        // Any other name is refused before the store is asked (readShareCopy checks its own).
        found = UPLOAD_FILE_NAME.test(file)
          ? await store.get(file)
          : await readShareCopy(store, file);
      } catch (error) {
        request.log.error({ err: error }, 'could not read an uploaded image');
        throw storeUnavailable();
      }
      if (!found) throw new HttpError(404, 'not_found', 'There is no such image.');
      return reply
        .header('content-type', CONTENT_TYPES[file.slice(file.lastIndexOf('.') + 1)] ?? '')
        .header('content-length', String(found.length))
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(found.body);
    },
  );
};

export default uploadedImageRoutes;

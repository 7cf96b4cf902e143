import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import { DeskImageRetrySchema, DeskMissingImagesSchema } from '../../../../contract/desk-api.js';
import { withTransaction } from '../../db/transaction.js';
import { findMissingImages, retryMissingImages } from '../../imports/missing-images.js';
import { writeAudit } from '../../staff/audit.js';
import { deskStaff } from './desk-staff.js';

const errors = { 403: ErrorResponseSchema };

/**
 * The images imported posts still show from their old addresses (server/src/imports/
 * missing-images.ts), for owners, as the imports are theirs: `GET` counts them from the posts,
 * `POST …/retry` (the Import page's "Try the missing images again", as `npm run import --
 * --retry-images`) fetches each again, stores it and rewrites the posts that showed it, in the
 * audit log. The retry answers when it is over: each fetch is bounded by the outbound guard's
 * time limit, four at a time.
 */
const deskMissingImageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const pool = app.db.pool;

  app.get(
    '/imports/missing-images',
    {
      schema: { response: { 200: DeskMissingImagesSchema, ...errors } },
      config: { access: 'owner' },
    },
    async () => findMissingImages(pool),
  );

  app.post(
    '/imports/missing-images/retry',
    {
      schema: { response: { 200: DeskImageRetrySchema, ...errors } },
      // A fetched image rewrites the posts that showed it from the old address.
      config: { access: 'owner-change', changesContent: true },
    },
    async (request) => {
      const staff = deskStaff(request);
      const retry = await retryMissingImages({
        pool,
        imageStore: app.imageStore,
        config: app.config,
      });
      await withTransaction(pool, (tx) =>
        writeAudit(tx, staff, {
          action: 'images_retry',
          targetUserId: null,
          before: null,
          after: {
            fetched: retry.fetched,
            postsUpdated: retry.postsUpdated,
            stillMissing: retry.missing.count,
          },
        }),
      );
      return retry;
    },
  );
};

export default deskMissingImageRoutes;

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import { HttpError } from '../../http/errors.js';
import {
  TRACKING_PATHS,
  createMailTracking,
  recordClick,
  recordOpen,
} from '../../newsletter/tracking.js';

export interface NewsletterTrackingOptions {
  siteUrl: string;
  sessionSecret: string;
  /** Whether opens and clicks are counted (NEWSLETTER_TRACKING): links keep working either way. */
  tracking: boolean;
}

/** A transparent 1×1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/**
 * The open pixel and the click redirect of newsletter mails (docs/newsletter.md#opens-and-clicks).
 * The pixel is the same image for every token, counted or not; a click goes at once (302) to the
 * URL its token was signed for, and a URL it was not signed for is refused, so no one can send
 * readers elsewhere through the site. A failed count never stops the reader.
 */
const newsletterTrackingRoutes: FastifyPluginAsyncTypebox<NewsletterTrackingOptions> = async (
  app,
  options,
) => {
  const tracking = createMailTracking(options.sessionSecret, options.siteUrl);

  app.get(
    `${TRACKING_PATHS.open}:file`,
    {
      schema: { params: Type.Object({ file: Type.String({ maxLength: 200 }) }) },
      config: { access: 'anyone', changesState: true },
    },
    async (request, reply) => {
      const deliveryId = tracking.verifyOpen(request.params.file.replace(/\.gif$/, ''));
      if (deliveryId && options.tracking) {
        await recordOpen(app.db.pool, deliveryId).catch((error: unknown) =>
          request.log.error({ err: error }, 'could not count a newsletter open'),
        );
      }
      return (
        reply
          .header('content-type', 'image/gif')
          .header('cache-control', 'no-store, private')
          .header('x-robots-tag', 'noindex')
          // Loaded by mail clients on other origins (a webmail's page, a sandboxed preview).
          .header('cross-origin-resource-policy', 'cross-origin')
          .send(PIXEL)
      );
    },
  );

  app.get(
    `${TRACKING_PATHS.click}:token`,
    {
      schema: {
        params: Type.Object({ token: Type.String({ maxLength: 200 }) }),
        querystring: Type.Object({ u: Type.String({ minLength: 1, maxLength: 4096 }) }),
        response: { 400: ErrorResponseSchema },
      },
      config: { access: 'anyone', changesState: true },
    },
    async (request, reply) => {
      const { u: url } = request.query;
      const deliveryId = tracking.verifyClick(request.params.token, url);
      if (!deliveryId) {
        throw new HttpError(
          400,
          'invalid_link',
          'This link is not one of ours: it was changed after it was mailed. Use the link from the mail.',
        );
      }
      if (options.tracking) {
        await recordClick(app.db.pool, deliveryId, url).catch((error: unknown) =>
          request.log.error({ err: error }, 'could not count a newsletter click'),
        );
      }
      return reply
        .header('cache-control', 'no-store, private')
        .header('x-robots-tag', 'noindex')
        .redirect(url, 302);
    },
  );
};

export default newsletterTrackingRoutes;

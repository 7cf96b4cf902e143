import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { parseUploadUrl } from '../../../../contract/images.js';
import { CUSTOM_CSS_PATH } from '../../../../contract/site-settings.js';
import { errorBody } from '../../http/errors.js';
import {
  customCssVersion,
  iconVersion,
  SITE_ICON_PREFIX,
  SITE_ICON_SIZES,
  type SiteIconSize,
} from '../../site/site-look.js';
import type { ImageStore } from '../../uploads/image-store.js';
import { readIconCopy } from '../../uploads/icon-copy.js';
import { storeUnavailable } from '../uploads/index.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * A file made from the publication's settings, at an address whose `?v=` names its version: the
 * version the settings hold now is cached for a year (a change is a new address), any other
 * address is revalidated each time (a page drawn before the change still gets today's file).
 */
function sendVersioned(
  reply: FastifyReply,
  asked: string | undefined,
  current: string,
  type: string,
  body: string | Buffer,
) {
  return reply
    .header('cache-control', asked === current ? IMMUTABLE : 'no-cache')
    .header('x-content-type-options', 'nosniff')
    .type(type)
    .send(body);
}

const isIconSize = (size: number): size is SiteIconSize =>
  (SITE_ICON_SIZES as readonly number[]).includes(size);

/**
 * The owners' stylesheet (settings `customCss`, linked after the site's by every page) and the
 * favicons and app icons made from the uploaded icon (settings `icon`), from the settings of the
 * content this server holds now (site/site-look.ts).
 */
const siteLookRoutes: FastifyPluginAsync<{ store: ImageStore }> = async (app, { store }) => {
  app.get<{ Querystring: { v?: string } }>(
    CUSTOM_CSS_PATH,
    { config: { access: 'anyone', changesState: false } },
    async (request, reply) => {
      const css = app.siteContent.current().settings.customCss;
      return sendVersioned(
        reply,
        request.query.v,
        customCssVersion(css),
        'text/css; charset=utf-8',
        css,
      );
    },
  );

  app.get<{ Params: { size: string }; Querystring: { v?: string } }>(
    `${SITE_ICON_PREFIX}:size.png`,
    { config: { access: 'anyone', changesState: false } },
    async (request, reply) => {
      const size = Number(request.params.size);
      const { settings } = app.siteContent.current();
      const version = iconVersion(settings);
      const image = settings.icon ? parseUploadUrl(settings.icon) : null;
      if (!isIconSize(size) || !version || !image) {
        return reply.code(404).send(errorBody('not_found', 'The site has no such icon.'));
      }
      let png: Buffer | null;
      try {
        png = await readIconCopy(store, image, size);
      } catch (error) {
        request.log.error({ err: error }, 'could not make the site icon');
        throw storeUnavailable();
      }
      if (!png) return reply.code(404).send(errorBody('not_found', 'The icon image is missing.'));
      return sendVersioned(reply, request.query.v, version, 'image/png', png);
    },
  );
};

export default siteLookRoutes;

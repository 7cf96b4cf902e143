import type { FastifyPluginAsync } from 'fastify';
import { uploadUrl } from '../../../../contract/images.js';
import {
  PODCAST_COVERS_PATH,
  privateFeedPath,
  type SectionPodcast,
} from '../../../../contract/podcasts.js';
import { errorBody } from '../../http/errors.js';
import { openFeedToken } from '../../podcasts/feed-tokens.js';
import { readPodcastCover } from '../../podcasts/podcast-cover.js';
import { renderPodcastFeed } from '../../podcasts/podcast-feed.js';
import { storeUnavailable } from '../uploads/index.js';

export interface PodcastFeedOptions {
  siteUrl: string;
  /** The sections that are podcasts now, by id. */
  podcasts: () => Promise<Map<number, SectionPodcast>>;
  /** A stored file's size in bytes, or null when it is not in the store. */
  sizeOf: (name: string) => Promise<number | null>;
}

const COVER_FILE = /^([a-z0-9]{20})-([1-9][0-9]{0,4})x([1-9][0-9]{0,4})\.jpg$/;

/**
 * A member's private feed of a podcast (`/feeds/<token>.xml`): the public episodes and the
 * restricted ones the member may read (contract/reading.ts), with their files. Podcast apps send no cookie, so the address's token is
 * the credential (podcasts/feed-tokens.ts): a token no feed has, a replaced one and one whose
 * member is no longer one all answer 404, as does a section that stopped being a podcast. And the
 * podcasts' covers as JPEG (`/feeds/covers/<id>-<w>x<h>.jpg`), for a show's cover only.
 */
const podcastFeedRoutes: FastifyPluginAsync<PodcastFeedOptions> = async (app, options) => {
  const { siteUrl } = options;
  const noFeed = () => errorBody('not_found', 'No such feed.');

  app.get<{ Params: { token: string } }>(
    '/feeds/:token.xml',
    { config: { access: 'anyone', changesState: false, limit: 'podcast-feed' } },
    async (request, reply) => {
      const { token } = request.params;
      const opened = await openFeedToken(app.db.pool, token);
      const podcast = opened && (await options.podcasts()).get(opened.sectionId);
      const content = app.siteContent.current();
      const section =
        opened && content.navigation.sections.find((each) => each.id === opened.sectionId);
      if (!podcast || !section) return reply.code(404).send(noFeed());
      let body: string;
      try {
        body = await renderPodcastFeed({
          show: { section, podcast },
          content,
          token,
          reader: opened.reader,
          siteUrl,
          self: `${siteUrl}${privateFeedPath(token)}`,
          sizeOf: options.sizeOf,
        });
      } catch (error) {
        request.log.error({ err: error }, 'could not read the podcast’s files');
        throw storeUnavailable();
      }
      return reply
        .header('cache-control', 'private, no-cache')
        .header('x-robots-tag', 'noindex')
        .type('application/rss+xml; charset=utf-8')
        .send(body);
    },
  );

  app.get<{ Params: { file: string } }>(
    `${PODCAST_COVERS_PATH}:file`,
    { config: { access: 'anyone', changesState: false } },
    async (request, reply) => {
      const [, id, width, height] = COVER_FILE.exec(request.params.file) ?? [];
      const image =
        id && width && height ? { id, width: Number(width), height: Number(height) } : null;
      const covers = [...(await options.podcasts()).values()].map((podcast) => podcast.image);
      if (!image || !covers.includes(uploadUrl(image.id, image))) {
        return reply.code(404).send(errorBody('not_found', 'No podcast has this cover.'));
      }
      let cover: Awaited<ReturnType<typeof readPodcastCover>>;
      try {
        cover = await readPodcastCover(app.imageStore, image);
      } catch (error) {
        request.log.error({ err: error }, 'could not make a podcast’s cover');
        throw storeUnavailable();
      }
      if (!cover) return reply.code(404).send(errorBody('not_found', 'The cover is missing.'));
      return reply
        .header('content-type', 'image/jpeg')
        .header('content-length', String(cover.length))
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(cover.body);
    },
  );
};

export default podcastFeedRoutes;

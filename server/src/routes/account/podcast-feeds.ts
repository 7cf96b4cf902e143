import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import {
  MemberPodcastFeedSchema,
  MemberPodcastFeedsSchema,
  type MemberPodcastFeed,
} from '../../../../contract/podcast-feeds.js';
import { PODCAST_FEEDS_API, privateFeedPath } from '../../../../contract/podcasts.js';
import { readPodcasts } from '../../content/section-store.js';
import { HttpError } from '../../http/errors.js';
import { makeFeedToken, readFeedTokens } from '../../podcasts/feed-tokens.js';
import { sessionOf } from '../../plugins/app/route-access.js';

const errors = {
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
  429: ErrorResponseSchema,
};

/**
 * A member's private feeds of the site's podcasts (contract/podcast-feeds.ts), for /account:
 * each podcast with its address once asked for; asking again makes a new address, and the old one
 * answers 404 from then on (podcasts/feed-tokens.ts).
 */
const podcastFeedAccountRoutes: FastifyPluginAsyncTypebox<{ siteUrl: string }> = async (
  app,
  { siteUrl },
) => {
  /** The site's podcasts in the menu's order, each with the member's address of it. */
  async function memberFeeds(userId: string): Promise<MemberPodcastFeed[]> {
    const [podcasts, tokens] = await Promise.all([
      readPodcasts(app.db.pool),
      readFeedTokens(app.db.pool, userId),
    ]);
    return app.siteContent
      .current()
      .navigation.sections.filter((section) => podcasts.has(section.id))
      .map((section) => {
        const token = tokens.get(section.id);
        return {
          sectionId: section.id,
          name: section.name,
          address: token === undefined ? null : `${siteUrl}${privateFeedPath(token)}`,
        };
      });
  }

  app.get(
    PODCAST_FEEDS_API,
    {
      schema: { response: { 200: MemberPodcastFeedsSchema, ...errors } },
      config: { access: 'member', changesState: false },
    },
    async (request) => ({ feeds: await memberFeeds(sessionOf(request).userId) }),
  );

  app.post(
    `${PODCAST_FEEDS_API}/:sectionId`,
    {
      schema: {
        params: Type.Object({ sectionId: Type.String({ pattern: '^[1-9][0-9]{0,8}$' }) }),
        response: { 200: Type.Object({ feed: MemberPodcastFeedSchema }), ...errors },
      },
      config: { access: 'member', changesState: true, limit: 'podcast-feed-address' },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const sectionId = Number(request.params.sectionId);
      const podcasts = await readPodcasts(app.db.pool);
      if (!podcasts.has(sectionId)) {
        throw new HttpError(404, 'not_found', 'The site has no such podcast.');
      }
      await makeFeedToken(app.db.pool, userId, sectionId);
      const feed = (await memberFeeds(userId)).find((each) => each.sectionId === sectionId);
      if (!feed) throw new HttpError(404, 'not_found', 'The site has no such podcast.');
      return { feed };
    },
  );
};

export default podcastFeedAccountRoutes;

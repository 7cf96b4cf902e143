import { Type, type Static } from 'typebox';

// A member's private feeds of the site's podcasts, on /account (server/src/routes/account/
// podcast-feeds.ts): one address per podcast, made when the member first asks, made again (the
// old one then stops) when they ask for a new one (at contract/podcasts.ts PODCAST_FEEDS_API).
// Members only.

export const MemberPodcastFeedSchema = Type.Object({
  /** The podcast's section. */
  sectionId: Type.Integer(),
  name: Type.String(),
  /** The private feed's address, absolute; null until the member asks for one. */
  address: Type.Union([Type.String(), Type.Null()]),
});
export type MemberPodcastFeed = Static<typeof MemberPodcastFeedSchema>;

/** GET /api/account/podcast-feeds: each podcast of the site, in the menu's order. */
export const MemberPodcastFeedsSchema = Type.Object({
  feeds: Type.Array(MemberPodcastFeedSchema),
});
export type MemberPodcastFeeds = Static<typeof MemberPodcastFeedsSchema>;

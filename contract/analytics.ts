import { Type, type Static, type TSchema } from 'typebox';

/**
 * Analytics in the site's own database (docs/analytics.md): the beacon's event, and the desk's
 * answers. No cookie, no IP address or user agent stored; a visitor is a daily hash.
 */

/** Where the site's pages send each view (with `navigator.sendBeacon`). */
export const EVENTS_PATH = '/api/events';
/** The desk's figures over a range of days. */
export const DESK_ANALYTICS_PATH = '/api/desk/analytics';
/** One post's figures for its editor page: `${DESK_ANALYTICS_PATH}/posts/${postId}`. */
export const deskPostAnalyticsPath = (postId: number) => `${DESK_ANALYTICS_PATH}/posts/${postId}`;

export const MAX_EVENT_PATH_LENGTH = 2048;
export const MAX_EVENT_REFERRER_LENGTH = 2048;
/** The longest range the desk may ask for, in days (both ends counted). */
export const MAX_ANALYTICS_DAYS = 400;
/** The source of a view with no `ref`, no `utm_source` and no outside referrer. */
export const DIRECT_SOURCE = 'Direct';

/**
 * POST /api/events: one page view. `path` is the page's path with its query string as the
 * address bar shows it (`location.pathname + location.search`), so `?ref=` and `utm_source` name
 * the source; `referrer` is `document.referrer` (omitted or '' when there is none). Send it as
 * JSON: `sendBeacon(EVENTS_PATH, new Blob([JSON.stringify(event)], {type: 'application/json'}))`
 * (the site reads no text/plain bodies). The answer is 202 with no body whether or not the view is
 * counted (a bot, an unknown page, an API path are quietly not counted); only a body that is not
 * this shape is a 400.
 */
export const PageviewEventSchema = Type.Object(
  {
    type: Type.Literal('pageview'),
    path: Type.String({ minLength: 1, maxLength: MAX_EVENT_PATH_LENGTH, pattern: '^/' }),
    referrer: Type.Optional(Type.String({ maxLength: MAX_EVENT_REFERRER_LENGTH })),
  },
  { additionalProperties: false },
);
export type PageviewEvent = Static<typeof PageviewEventSchema>;

/**
 * `?from=YYYY-MM-DD&to=YYYY-MM-DD`: UTC days, both ends included, `from` not after `to`, at most
 * MAX_ANALYTICS_DAYS; anything else is a 400 that says what is wrong.
 */
export const AnalyticsRangeQuerySchema = Type.Object({
  from: Type.String({ maxLength: 10 }),
  to: Type.String({ maxLength: 10 }),
});
export type AnalyticsRangeQuery = Static<typeof AnalyticsRangeQuerySchema>;

/**
 * Money and conversions are owners' and editors' figures. A writer's answer has the same shape,
 * with `signups`, `paidConversions` and `revenueCents` null everywhere (and only their own posts).
 */
const StaffOnly = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Count = Type.Integer({ minimum: 0 });

export const AnalyticsTotalsSchema = Type.Object({
  views: Count,
  /** Distinct visitors: a reader counts once a day, so a range's figure is the sum of its days. */
  visitors: Count,
  signups: StaffOnly(Count),
  paidConversions: StaffOnly(Count),
  /** In the site's currency's smallest unit (GET /api/desk/me's `currency`). */
  revenueCents: StaffOnly(Count),
});
export type AnalyticsTotals = Static<typeof AnalyticsTotalsSchema>;

/** Every day of the range, oldest first, zero when nothing was counted. */
export const AnalyticsDaySchema = Type.Object({
  date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
  views: Count,
  visitors: Count,
});
export type AnalyticsDay = Static<typeof AnalyticsDaySchema>;

export const AnalyticsPostSchema = Type.Object({
  postId: Type.Integer(),
  /** The post's address now. */
  path: Type.String(),
  title: Type.String(),
  views: Count,
  visitors: Count,
  signups: StaffOnly(Count),
  paidConversions: StaffOnly(Count),
  revenueCents: StaffOnly(Count),
});
export type AnalyticsPost = Static<typeof AnalyticsPostSchema>;

/** Where visitors came from: a `ref`/`utm_source` value, a referrer's host name, or "Direct". */
export const AnalyticsSourceSchema = Type.Object({
  source: Type.String(),
  visitors: Count,
  signups: StaffOnly(Count),
});
export type AnalyticsSource = Static<typeof AnalyticsSourceSchema>;

/** The paid conversions of a range for one tier: what was bought, by the tier it was for. */
export const AnalyticsTierSchema = Type.Object({
  slug: Type.String(),
  name: Type.String(),
  paidConversions: Count,
  revenueCents: Count,
});
export type AnalyticsTier = Static<typeof AnalyticsTierSchema>;

/**
 * GET /api/desk/analytics?from&to. Posts ranked by views (then visitors), at most 100; sources
 * ranked by visitors, at most 50. Views of pages that are not posts (the home page, a section, a
 * topic) count in `totals` and `days`, and their visitors' sources in `sources`. Owners and
 * editors see the whole site; writers see their own posts only (totals, days and sources then
 * count only views of those posts) and no money.
 */
export const DeskAnalyticsSchema = Type.Object({
  totals: AnalyticsTotalsSchema,
  days: Type.Array(AnalyticsDaySchema),
  posts: Type.Array(AnalyticsPostSchema),
  sources: Type.Array(AnalyticsSourceSchema),
  /** The paid conversions by tier, every tier in order (owners' and editors'; null to writers). */
  tiers: StaffOnly(Type.Array(AnalyticsTierSchema)),
});
export type DeskAnalytics = Static<typeof DeskAnalyticsSchema>;

/**
 * GET /api/desk/analytics/posts/:postId?from&to: one post's figures for its editor page. A writer
 * asking for a post that is not theirs gets 404, as for a post that does not exist.
 */
export const DeskPostAnalyticsSchema = Type.Object({
  postId: Type.Integer(),
  path: Type.String(),
  title: Type.String(),
  totals: AnalyticsTotalsSchema,
  days: Type.Array(AnalyticsDaySchema),
  sources: Type.Array(AnalyticsSourceSchema),
});
export type DeskPostAnalytics = Static<typeof DeskPostAnalyticsSchema>;

/** Facts both sides name. */

/**
 * The paths the Node server answers itself; every other path is the client's (nginx agrees).
 * `/art` and `/og` are the posts' artwork and link previews, drawn from the content; `/site` the
 * files made from the publication's settings (its stylesheet and icons); `/feeds` members' private
 * podcast feeds and the podcasts' covers.
 */
export const SERVER_PATHS = [
  '/api',
  '/webhooks',
  '/create-payment-intent',
  '/healthz',
  '/readyz',
  '/art',
  '/og',
  '/uploads',
  '/site',
  '/feeds',
];

/** The only thing sold through POST /create-payment-intent: the one-year early-access membership. */
export const EARLY_ACCESS_OFFER = 'early-access';

/** A user id: a UUID as `crypto.randomUUID()` writes it. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The publisher's desk (docs/decisions/0012): its pages live under this path, drawn only in the
 * browser and only for staff; never prerendered, never in the sitemap, disallowed to crawlers.
 */
export const DESK_PATH = '/desk';
/** The desk's API: every address under it answers 404 to anyone who is not staff. */
export const DESK_API = '/api/desk';

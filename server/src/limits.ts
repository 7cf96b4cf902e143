/** How many requests one client IP may make to one route in a window; past it the answer is 429. */
export interface Limit {
  max: number;
  timeWindow: '1 minute' | '10 minutes';
}

/**
 * Every rate limit of the app, by name. A route names its row (`config: { limit: 'login' }`) and
 * plugins/external/rate-limit.ts turns the name into @fastify/rate-limit's settings, refusing to
 * start on a name that is not here. Each route counts on its own, even where two share a row.
 * The rows whose max an operator may change name their variable (config.ts reads them into
 * `app.config.limits`; docs/operating.md lists them).
 */
export const LIMITS = {
  /** SESSION_RATE_LIMIT: POST /api/session, and a passkey sign-in's options (every /login asks). */
  session: { max: 60, timeWindow: '1 minute' },
  /** LOGIN_RATE_LIMIT: a password, a mailed code or a passkey checked. */
  login: { max: 10, timeWindow: '1 minute' },
  /**
   * ACCOUNT_RATE_LIMIT: registering, mailed links, password, email and passkey changes, deletion:
   * mostly routes that hash a password, so this comes on top of the global hashing queue.
   */
  account: { max: 10, timeWindow: '10 minutes' },
  'password-reset': { max: 5, timeWindow: '1 minute' },
  'password-reset-confirm': { max: 10, timeWindow: '1 minute' },
  'email-change-confirm': { max: 10, timeWindow: '1 minute' },
  /** NEWSLETTER_RATE_LIMIT: newsletter sign-ups. */
  newsletter: { max: 10, timeWindow: '10 minutes' },
  'newsletter-confirm': { max: 20, timeWindow: '1 minute' },
  'newsletter-unsubscribe': { max: 60, timeWindow: '1 minute' },
  'newsletter-resubscribe': { max: 20, timeWindow: '1 minute' },
  'newsletter-subscription': { max: 30, timeWindow: '10 minutes' },
  'newsletter-issues': { max: 300, timeWindow: '1 minute' },
  /** Against floods from one address only: a campus or a carrier puts many members behind one. */
  'perk-redemption': { max: 300, timeWindow: '1 minute' },
  /**
   * EVENTS_RATE_LIMIT: page views reported (docs/analytics.md#limits). A reader sends one a page,
   * so this is a household or an office behind one address reading two pages a second between
   * them; past it nothing is counted, which bounds the "visitors" one address can make by
   * changing its user agent. nginx's cohort_events zone, looser, stops a flood first.
   */
  events: { max: 120, timeWindow: '1 minute' },
  'comments-write': { max: 120, timeWindow: '1 minute' },
  'comments-edit': { max: 60, timeWindow: '1 minute' },
  'comment-likes': { max: 120, timeWindow: '1 minute' },
  'comment-reports': { max: 30, timeWindow: '10 minutes' },
  'comment-profile': { max: 100, timeWindow: '10 minutes' },
  'comment-mail-stop': { max: 30, timeWindow: '1 minute' },
  /** Ghost's Admin API (docs/ghost-api.md): posts and pages written, images, members changed. */
  'admin-api-posts': { max: 120, timeWindow: '1 minute' },
  'admin-api-images': { max: 60, timeWindow: '1 minute' },
  'admin-api-members': { max: 600, timeWindow: '1 minute' },
  /** The desk's bulk actions on posts (up to 1000 posts each): a person makes a few a minute. */
  'desk-posts-bulk': { max: 60, timeWindow: '1 minute' },
  /** An owner making, changing or deleting tiers: each locks every tier while it runs. */
  'desk-tiers': { max: 60, timeWindow: '1 minute' },
  /**
   * A member's private podcast feed (`/feeds/<token>.xml`): podcast apps ask every hour or so, a
   * household's several apps behind one address a few times a minute at most.
   */
  'podcast-feed': { max: 60, timeWindow: '1 minute' },
  /** A member's private feed address made, or made again (the old one then stops). */
  'podcast-feed-address': { max: 20, timeWindow: '10 minutes' },
  /** The owner's redirects replaced: each is checked and timed whole, a person saves a few a minute. */
  'desk-redirects': { max: 30, timeWindow: '1 minute' },
} as const satisfies Record<string, Limit>;

export type LimitName = keyof typeof LIMITS;
export type Limits = Record<LimitName, Limit>;

/** The table with an operator's maxes in place of the shipped ones; the windows stay. */
export function limitsWith(maxes: Partial<Record<LimitName, number>>): Limits {
  const names = Object.keys(LIMITS) as LimitName[];
  return Object.fromEntries(
    names.map((name) => [name, { ...LIMITS[name], max: maxes[name] ?? LIMITS[name].max }]),
  ) as Limits;
}

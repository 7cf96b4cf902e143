/** Where authors' pages are (`/authors/<slug>`, and each one's feed beside it: contract/authors.ts). */
export const AUTHORS_PATH = '/authors';

/**
 * The addresses of the site's screens: components link through these, never through string
 * literals. What each one is, and the screens whose paths have parameters, are in
 * contract/screens.ts.
 */
export const paths = {
  home: '/',
  health: '/health',
  wealth: '/wealth',
  directAction: '/direct-action',
  collective: '/collective',
  empowerment: '/empowerment',
  earlyAccess: '/early-access',
  /** A year bought for someone else (docs/payments.md#gifts). */
  gift: '/gift',
  /** The link mailed to a gift's recipient opens this page (`#token=`): its button claims it. */
  giftClaim: '/gift/claim',
  /** Solidarity seats: fund a year for a reader who cannot pay, or ask for one. */
  payItForward: '/pay-it-forward',
  register: '/register',
  /** The link mailed by /register opens this page (`#token=`): its button finishes it. */
  registerConfirm: '/register/confirm',
  login: '/login',
  /** The sign-in link mailed from /login opens this page (`#token=`): its button signs in. */
  signInLink: '/sign-in/link',
  account: '/account',
  resetPassword: '/reset-password',
  confirmEmail: '/confirm-email',
  newsletter: '/newsletter',
  newsletterConfirm: '/newsletter/confirm',
  newsletterUnsubscribe: '/newsletter/unsubscribe',
  perks: '/perks',
  /** Search (`?q=`): the server draws the results into the page, so it works without scripts. */
  search: '/search',
  /** Every topic, and each one's page (`/topics/<slug>`; contract/topics.ts). */
  topics: '/topics',
  /** Every article by month (`/archive`, `/archive/<yyyy>`, `/archive/<yyyy>/<mm>`: contract/archive.ts). */
  archive: '/archive',
  homeBuying: '/home-buying',
  studentDebtRelief: '/student-debt-relief',
  workAndJobs: '/work-and-jobs',
  media: '/media',
  legalResources: '/legal-resources',
  privacy: '/privacy',
  terms: '/terms',
  refunds: '/refunds',
  /**
   * The publisher's desk: staff only, never prerendered, never in the sitemap. The server's
   * DESK_PATH (contract/constants.ts), spelled out so the first load need not bring that module;
   * tests/e2e/desk.spec.ts holds the two together.
   */
  desk: '/desk',
} as const;

/** The seed's rule for a category's path: lower-case, first space to a hyphen. */
export function categoryPath(category: string): string {
  return `/${category.toLowerCase().replace(' ', '-')}`;
}

/**
 * Pages drawn from content/pages/<slug>.md, which the operator edits: the seed's topic pages (an
 * intro and related items; the footer's "More") and the policies a paid site needs.
 */
export const topicPages = [
  { path: paths.homeBuying, slug: 'home-buying', label: 'Home Buying' },
  { path: paths.studentDebtRelief, slug: 'student-debt-relief', label: 'Student Debt Relief' },
  { path: paths.workAndJobs, slug: 'work-and-jobs', label: 'Work and Jobs' },
  { path: paths.media, slug: 'media', label: 'Media' },
  { path: paths.legalResources, slug: 'legal-resources', label: 'Legal Resources' },
] as const;

export const policyPages = [
  { path: paths.privacy, slug: 'privacy', label: 'Privacy policy' },
  { path: paths.terms, slug: 'terms', label: 'Terms of use' },
  { path: paths.refunds, slug: 'refunds', label: 'Refunds' },
] as const;

export const contentPages = [...topicPages, ...policyPages] as const;

/**
 * What the server answers at the top of the site besides its pages, the paths of
 * contract/constants.ts (SERVER_PATHS) and the site's files (contract/site-index.ts SITE_FILES):
 * an offer's link, the metrics, the built client's folder and the icons index.html links. No page
 * of its own may take one of these addresses (contract/posts.ts pageSlugProblem).
 */
export const serverOwnPaths = {
  /** An offer's link: `/join?offer=CODE` leads to the plans (docs/payments.md#plans). */
  join: '/join',
  metrics: '/metrics',
  /** Vite's folder of hashed files. */
  assets: '/assets',
  indexHtml: '/index.html',
  favicon: '/favicon.ico',
  appleTouchIcon: '/apple-touch-icon.png',
} as const;

/** The addresses of the UI-kit demo the site grew from, and where they lead now. */
export const redirects = [
  { from: '/index', to: paths.home },
  { from: '/landing-page', to: paths.earlyAccess },
  { from: '/register-page', to: paths.register },
  { from: '/profile-page', to: paths.account },
] as const;

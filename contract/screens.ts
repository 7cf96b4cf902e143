import type { SectionLists } from './section-rules.js';
import { AUTHORS_PATH, contentPages, paths } from './site-paths.js';

// The site's screens, in one table: the client's router is built from it
// (client/src/app/screens.tsx), and the server matches a page's path against it
// (contract/screen-match.ts) to know what to draw (server/src/content/site-data.ts) and how to
// answer (server/src/routes/pages). A new screen is one row here and its component there. Plain
// data: the first load of every page carries it.

/**
 * What the server draws into a screen's page and its `/api/site-data` (contract/site-data.ts),
 * by name: `text` is the screen's text alone (`Screen.text`), `newsletter` the archive or, with
 * `:slug`, an issue, `search` nothing until a query comes (the server draws the results for that
 * request), `page` a page of its own (`/<slug>`).
 */
export type ScreenData =
  | 'home'
  | 'section'
  | 'article'
  | 'campaigns'
  | 'boycotts'
  | 'resources'
  | 'text'
  | 'perks'
  | 'newsletter'
  | 'search'
  | 'topics'
  | 'topic'
  | 'author'
  | 'archive'
  | 'page';

export interface Screen {
  /** Its component in the client (client/src/app/screens.tsx). */
  readonly name: string;
  /**
   * react-router's syntax (`/topics/:slug`, `:slug?` optional, `/*` below). A `:section` segment
   * is the slug of one of the publisher's sections that list `lists`, which each side puts in
   * from the navigation: never any word.
   */
  readonly path: string;
  /**
   * For a screen with `:section`: what its sections list (articles when left out). A special
   * kind's screen is at its one section's address, and nowhere when no section lists it.
   */
  readonly lists?: SectionLists;
  /**
   * What the server draws into its page, which is then in the sitemap when its item is
   * published; null: drawn only in the browser (sign-in, the account, links from mails), the
   * server sends the bare shell and no search engine lists it.
   */
  readonly data: ScreenData | null;
  /** The page post whose text the screen shows (`home`, `why`, `privacy`…: contract/posts.ts). */
  readonly text?: string;
  /** Only staff get it (the desk); anyone else gets the not-found page. */
  readonly access?: 'staff';
}

/** The placeholder of a section of articles' slug in a screen's path. */
export const SECTION_SEGMENT = ':section';

export const SCREENS = [
  { name: 'home', path: paths.home, data: 'home', text: 'home' },
  { name: 'articleList', path: `/${SECTION_SEGMENT}`, data: 'section' },
  { name: 'article', path: `/${SECTION_SEGMENT}/:slug`, data: 'article' },
  // The samples' Direct Action, Collective Action and Empowerment, wherever their sections are.
  { name: 'directAction', path: `/${SECTION_SEGMENT}`, lists: 'campaigns', data: 'campaigns' },
  {
    name: 'collective',
    path: `/${SECTION_SEGMENT}`,
    lists: 'boycotts',
    data: 'boycotts',
    text: 'collective',
  },
  {
    name: 'empowerment',
    path: `/${SECTION_SEGMENT}`,
    lists: 'resources',
    data: 'resources',
    text: 'empowerment',
  },
  ...contentPages.map(
    (page) => ({ name: 'contentPage', path: page.path, data: 'text', text: page.slug }) as const,
  ),
  { name: 'earlyAccess', path: paths.earlyAccess, data: 'text', text: 'why' },
  { name: 'gift', path: paths.gift, data: null },
  { name: 'giftClaim', path: paths.giftClaim, data: null },
  { name: 'payItForward', path: paths.payItForward, data: null },
  { name: 'register', path: paths.register, data: null },
  { name: 'registerConfirm', path: paths.registerConfirm, data: null },
  { name: 'login', path: paths.login, data: null },
  { name: 'signInLink', path: paths.signInLink, data: null },
  { name: 'account', path: paths.account, data: null },
  { name: 'resetPassword', path: paths.resetPassword, data: null },
  { name: 'confirmEmail', path: paths.confirmEmail, data: null },
  { name: 'perks', path: paths.perks, data: 'perks' },
  { name: 'newsletterConfirm', path: paths.newsletterConfirm, data: null },
  { name: 'newsletterUnsubscribe', path: paths.newsletterUnsubscribe, data: null },
  { name: 'search', path: paths.search, data: 'search' },
  { name: 'topics', path: paths.topics, data: 'topics' },
  { name: 'topic', path: `${paths.topics}/:slug`, data: 'topic' },
  { name: 'author', path: `${AUTHORS_PATH}/:slug`, data: 'author' },
  // The archive and each of its pages, years and months (contract/archive.ts reads the rest).
  { name: 'archive', path: `${paths.archive}/*`, data: 'archive' },
  { name: 'newsletter', path: `${paths.newsletter}/:slug?`, data: 'newsletter' },
  { name: 'desk', path: `${paths.desk}/*`, data: null, access: 'staff' },
  // A page of its own (`/about`); a word no page has is the not-found page. Any other row wins.
  { name: 'page', path: '/:slug', data: 'page' },
] as const satisfies readonly Screen[];

export type ScreenName = (typeof SCREENS)[number]['name'];

/** A section screen's path for one section (`/:section/:slug` → `/health/:slug`). */
export const pathInSection = (path: string, sectionSlug: string) =>
  path
    .split('/')
    .map((segment) => (segment === SECTION_SEGMENT ? sectionSlug : segment))
    .join('/');

/** Whether a screen is one per section (its path has `:section`): of articles, or of its kind. */
export const isSectionScreen = (screen: Pick<Screen, 'path'>) =>
  screen.path.split('/').includes(SECTION_SEGMENT);

/** What the sections of a section screen list (`articles` unless the row says otherwise). */
export const screenLists = (screen: Screen): SectionLists => screen.lists ?? 'articles';

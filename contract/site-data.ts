// What a page of the site needs of the content, as the server hands it over: in the page itself
// (a JSON <script>, for the first load) and from GET /api/site-data?path= (for each screen the
// reader moves to). Each screen reads only what its route needs; a field left out is not needed
// there, and an item missing from a list (an unknown slug) is the not-found page.
import type {
  ArticleSummary,
  Boycott,
  Campaign,
  HomeHighlights,
  PageCopy,
  ResourceGroup,
  StandalonePage,
} from './content-types.js';
import type { ArchiveView } from './archive.js';
import type { Author } from './authors.js';
import type { Comment } from './comments.js';
import type { MarkdownTree } from './markdown-tree.js';
import type { NewsletterListing } from './newsletters.js';
import type { Perk } from './perks.js';
import type { ReadingRule, TierName } from './reading.js';
import type { SearchResults } from './search.js';
import type { SiteNavigation } from './sections.js';
import type { SiteSettings } from './site-settings.js';
import type { Topic } from './topics.js';

export interface SiteData {
  /** Articles, newest first: a section's list, or an article with the others its page shows. */
  articles?: ArticleSummary[];
  campaigns?: Campaign[];
  boycotts?: Boycott[];
  resourceGroups?: ResourceGroup[];
  highlights?: HomeHighlights;
  /** Site copy by slug (`home`, `why`, `privacy`…). */
  pages?: Record<string, PageCopy>;
  newsletters?: NewsletterListing[];
  /** A page of its own (`/<slug>`), the one its screen shows; its body in `bodies`. */
  standalonePages?: StandalonePage[];
  /**
   * Bodies by key: `article/<slug>`, `newsletter/<slug>` (a restricted issue's only for a reader
   * who may read it), `page/<slug>` (a page of its own), `campaign/<slug>` and `boycott/<slug>`
   * (the story under its card).
   */
  bodies?: Record<string, MarkdownTree>;
  /**
   * Keys of `bodies` that hold only a restricted post's opening (the reader may not read the
   * rest: contract/reading.ts): the screen shows what unlocks it under it (`locks`).
   */
  teasers?: string[];
  /**
   * Who may read each restricted post the screen shows, by its key in `bodies`, whether this
   * reader reads it whole or not: what the screen says unlocks it (`unlockLabel`) and offers
   * (signing up or in, or the tiers to join).
   */
  locks?: Record<string, PostLock>;
  perks?: Perk[];
  /**
   * The search page's results for its `?q=` (drawn by the server into the page only; the page
   * asks GET /api/search as the reader types). `error`: the query was refused (too long).
   */
  search?: SearchResults & { error?: string };
  /** Topics: every one (/topics), or the one a topic's page shows, its posts in `articles`. */
  topics?: Topic[];
  /**
   * The sections and the navbar's and footer's links: in every page the server draws and every
   * GET /api/site-data answer, so a menu changed meanwhile shows at the reader's next move.
   */
  navigation?: SiteNavigation;
  /**
   * The publication's settings (its name, words and look): like the navigation, in every page the
   * server draws and every GET /api/site-data answer, so a change shows at the reader's next move.
   */
  settings?: SiteSettings;
  /** An archive page (`/archive…`: contract/archive.ts), its articles in `articles`. */
  archive?: ArchiveView;
  /** The author an author's page shows (`/authors/<slug>`), their articles in `articles`. */
  authors?: Author[];
  /** A post was here and was taken down (answered 410 Gone): the screen says it was removed. */
  removed?: true;
  /**
   * The comments under the screen's posts (an article, each campaign, each boycott), by post id
   * (docs/comments.md). Left out when comments are off.
   */
  comments?: Record<string, PostComments>;
}

/**
 * A post's comments as anyone may read them: the count and the first page (newest first), drawn
 * into the page so that they read without scripts; for a members-only post only that it is one,
 * since its comments reach only those who may read its body (the browser asks for them).
 */
export type PostComments =
  { count: number; comments: Comment[]; nextCursor: string | null } | { membersOnly: true };

/**
 * A restricted post's rule, with the tiers whose members may read it whole (their slugs and names,
 * in the tiers' order: `tiersUnlocking`): none for `registered`, where signing in is enough.
 */
export interface PostLock {
  rule: ReadingRule;
  tiers: TierName[];
}

/** The key of a body in SiteData.bodies. */
export const bodyKey = (
  kind: 'article' | 'newsletter' | 'page' | 'campaign' | 'boycott',
  slug: string,
) => `${kind}/${slug}`;

/** The id of the page's <script type="application/json"> holding its SiteData. */
export const SITE_DATA_ELEMENT_ID = 'site-data';

/**
 * The id of the <script type="application/json"> holding the navigation alone (SiteNavigation),
 * in the pages drawn only in the browser (sign-in, the account), which carry no SiteData.
 */
export const SITE_NAVIGATION_ELEMENT_ID = 'site-navigation';

/** The same for the publication's settings (SiteSettings), in those pages too. */
export const SITE_SETTINGS_ELEMENT_ID = 'site-settings';

/** GET ?path=/health/sleep-debt-reset → SiteData (200, an empty object for a path with none). */
export const SITE_DATA_PATH = '/api/site-data';

import { ARCHIVE_PAGE_SIZE, archiveDatePath, archivePagePath } from '../../../contract/archive.js';
import { authorFeedPath, authorPath } from '../../../contract/authors.js';
import { SITE_FILE_PATHS } from '../../../contract/site-index.js';
import { topicFeedPath, topicPath } from '../../../contract/topics.js';
import type { SiteContent } from '../content/site-content.js';

// Where the feed and archive addresses of the platforms a site comes from lead here (301): Ghost's
// `/rss/`, `/tag/<slug>/`, `/tag/<slug>/rss/`, `/author/<slug>/`; WordPress's `/feed/`,
// `/comments/feed/`, `/category/<slug>/`, `/tag/<slug>/`, `/author/<slug>/`, `/<yyyy>/`,
// `/<yyyy>/<mm>/`, `/page/<n>/` (and their `/feed/`s); Substack's `/feed` (its `/archive` is the
// site's own). Asked only where the site has no page, no post and no old post address of its own
// (routes/pages), so a post or a page at `/feed` always wins. Each leads, in one hop, to a page or
// feed that is there now; a tag, author or month the site does not have is no redirect (404).

/** What a redirect may lead to, and whether the site has it now. */
export interface AddressCheck {
  content: SiteContent;
  /** Whether the site draws a page at `path` (the sitemap's pages: routes/pages `pages.has`). */
  isPage: (path: string) => boolean;
}

/**
 * Where an old platform's address leads now, and whether the query goes along; `to` null: it is
 * one, but what it named is not here (an unknown tag, a month with nothing), which is the 404
 * page at once, never a redirect to nothing.
 */
export interface OldAddress {
  to: string | null;
  /** A feed's query meant something to the old platform's feed alone: only pages keep it. */
  keepQuery: boolean;
}

const NOWHERE: OldAddress = { to: null, keepQuery: false };

/**
 * WordPress lists ten posts a page unless its owner chose otherwise (its export does not say): its
 * `/page/<n>/` leads to the archive page that lists that page's first post.
 */
const WORDPRESS_POSTS_PER_PAGE = 10;

const page = (to: string): OldAddress => ({ to, keepQuery: true });
const feed = (to: string): OldAddress => ({ to, keepQuery: false });

/** Whether a trailing segment names a feed: Ghost's `rss`, WordPress's `feed` (and its kinds). */
const isFeedWord = (segment: string) => segment === 'rss' || segment === 'feed';

/**
 * The address here of an old platform's feed or archive address (`path`: without its query, a
 * trailing slash or not); null where it is not one.
 */
export function findOldPlatformAddress(path: string, check: AddressCheck): OldAddress | null {
  const bare = path.replace(/\/+$/, '');
  if (bare === '' || check.isPage(bare)) return null;
  const segments = bare.slice(1).split('/');
  const [first = '', second, third, fourth] = segments;
  if (fourth !== undefined) return null;
  const { content } = check;

  // The whole site's feed: Ghost's `/rss/`, WordPress's and Substack's `/feed`, WordPress's
  // `/feed/rss2/` and its kin. There is no feed of comments here: the nearest is the site's own.
  if (isFeedWord(first)) {
    const known = second === undefined || /^(rss2?|atom|rdf)$/.test(second);
    return known && third === undefined ? feed(SITE_FILE_PATHS.feed) : NOWHERE;
  }
  if (first === 'comments' && second === 'feed' && third === undefined) {
    return feed(SITE_FILE_PATHS.feed);
  }
  // Date archives: a year, a month, a day (its month: the archive has no days).
  if (/^[0-9]{4}$/.test(first)) {
    const month = second !== undefined && /^(0[1-9]|1[0-2])$/.test(second) ? second : undefined;
    if (second !== undefined && !month) return NOWHERE;
    if (third !== undefined && !/^(0[1-9]|[12][0-9]|3[01])$/.test(third)) return NOWHERE;
    const to = archiveDatePath(first, month);
    return check.isPage(to) ? page(to) : NOWHERE;
  }
  const wantsFeed = third !== undefined && isFeedWord(third);
  if (third !== undefined && !wantsFeed) return null;
  if ((first === 'tag' || first === 'category') && second) {
    const found = termAddress(
      decoded(second),
      first === 'tag' ? 'topic' : 'section',
      wantsFeed,
      content,
    );
    return found ?? NOWHERE;
  }
  if (first === 'author' && second) {
    const slug = decoded(second);
    if (!content.authors.has(slug)) return NOWHERE;
    return wantsFeed ? feed(authorFeedPath(slug)) : page(authorPath(slug));
  }
  if (first === 'page' && second && third === undefined) {
    if (!/^[1-9][0-9]{0,5}$/.test(second)) return NOWHERE;
    const firstPost = (Number(second) - 1) * WORDPRESS_POSTS_PER_PAGE;
    if (firstPost >= Math.max(content.articles.length, 1)) return NOWHERE;
    return page(archivePagePath(Math.floor(firstPost / ARCHIVE_PAGE_SIZE) + 1));
  }
  return null;
}

/**
 * A tag's or a category's address here: its topic (`/topics/<slug>`) or the section of articles
 * of that slug, the one the platform's word most likely became first (a tag a topic, a category a
 * section), each with its feed. WordPress tells apart two terms of one name by a number
 * (`media-2`), which an import makes one topic: without a match, the slug without it.
 */
function termAddress(
  slug: string,
  prefer: 'topic' | 'section',
  wantsFeed: boolean,
  content: SiteContent,
): OldAddress | null {
  for (const candidate of [slug, slug.replace(/-[0-9]+$/, '')]) {
    const topic = content.topics.has(candidate)
      ? wantsFeed
        ? feed(topicFeedPath(candidate))
        : page(topicPath(candidate))
      : null;
    const sectionFeed = content.index.sections.find((each) => each.path === `/${candidate}`);
    const section = [...content.sectionSlugs.values()].includes(candidate)
      ? wantsFeed
        ? sectionFeed && feed(sectionFeed.feedPath)
        : page(`/${candidate}`)
      : null;
    const found = prefer === 'topic' ? (topic ?? section) : (section ?? topic);
    if (found) return found;
  }
  return null;
}

/** A path segment with its escapes undone (`caf%C3%A9` → `café`), as sent where it cannot be. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

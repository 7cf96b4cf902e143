import type { ArticleCategory, PageCopy } from '../../../contract/content-types.js';
import { AUTHORS_PATH } from '../../../contract/site-paths.js';
import { NEWSLETTER_PATHS } from '../../../contract/newsletters.js';
import { bodyKey, type SiteData } from '../../../contract/site-data.js';
import { contentPages, paths } from '../../../contract/site-paths.js';
import type { MarkdownTree } from '../../../contract/markdown-tree.js';
import type { SiteContent } from './site-content.js';
import type { FastifyRequest } from 'fastify';
import { isMembershipActive } from '../memberships/memberships.js';
import { relatedArticles, topicOf } from './topics.js';

/** Who reads: a member gets members-only posts whole. */
export type Reader = 'public' | 'member';

/** The reader behind a request: a member while their membership gives access. */
export async function readerOf(request: FastifyRequest): Promise<Reader> {
  const session = await request.getSession();
  return isMembershipActive(session?.user?.membership ?? null) ? 'member' : 'public';
}

/**
 * What the screen at `path` draws (contract/site-data.ts): only that, so a page carries its own
 * content and no more. A path no content screen has gets an empty object; an unknown slug gets
 * lists without it, which the screen draws as the not-found page. The navigation (the sections
 * and links of the navbar and footer) goes into the pages the server draws (site-pages.ts).
 */
export function siteDataFor(
  content: SiteContent,
  path: string,
  reader: Reader = 'public',
): SiteData {
  const pages = (...slugs: string[]): Record<string, PageCopy> =>
    Object.fromEntries(
      slugs.flatMap((slug) => {
        const page = content.pages.get(slug);
        return page ? [[slug, page]] : [];
      }),
    );

  if (content.gone.has(path)) return { removed: true };
  switch (path) {
    case paths.home:
      return { pages: pages('home'), highlights: content.highlights };
    case paths.directAction:
      return { campaigns: content.campaigns, ...storiesOf(content, 'campaign', reader) };
    case paths.collective:
      return {
        pages: pages('collective'),
        boycotts: content.boycotts,
        ...storiesOf(content, 'boycott', reader),
      };
    case paths.empowerment:
      return { pages: pages('empowerment'), resourceGroups: content.resourceGroups };
    case paths.earlyAccess:
      return { pages: pages('why') };
    case paths.perks:
      return { perks: content.perks };
    case NEWSLETTER_PATHS.archive:
      return { newsletters: content.newsletterListings };
    case paths.topics:
      return { topics: [...content.topics.values()].map(topicOf) };
  }
  if (path.startsWith(`${paths.topics}/`)) {
    const topic = content.topics.get(path.slice(paths.topics.length + 1));
    if (!topic) return { topics: [] };
    return { topics: [topicOf(topic)], articles: topic.articles, campaigns: topic.campaigns };
  }
  const page = contentPages.find((item) => item.path === path);
  if (page) return { pages: pages(page.slug) };
  if (path.startsWith(`${AUTHORS_PATH}/`)) {
    const entry = content.authors.get(path.slice(AUTHORS_PATH.length + 1));
    return entry ? { authors: [entry.author], articles: entry.articles } : { authors: [] };
  }

  for (const [category, slug] of content.sectionSlugs) {
    const section = `/${slug}`;
    if (path === section) return { articles: inSection(content, category) };
    if (path.startsWith(`${section}/`))
      return articleData(content, category, path.slice(section.length + 1), reader);
  }
  if (path.startsWith(`${NEWSLETTER_PATHS.archive}/`)) {
    return issueData(content, path.slice(NEWSLETTER_PATHS.archive.length + 1));
  }
  const standalone = standaloneAt(content, path);
  if (standalone) {
    const whole = reader === 'member' ? standalone.memberBody : undefined;
    const key = bodyKey('page', standalone.page.slug);
    return {
      standalonePages: [standalone.page],
      bodies: { [key]: whole ?? standalone.body },
      ...(standalone.page.membersOnly && !whole && { teasers: [key] }),
    };
  }
  return {};
}

/** The page of its own at `path` (`/<slug>`), if one is published there. */
const standaloneAt = (content: SiteContent, path: string) =>
  /^\/[a-z0-9-]+$/.test(path) ? content.standalonePages.get(path.slice(1)) : undefined;

const inSection = (content: SiteContent, category: ArticleCategory) =>
  content.articles.filter((article) => article.category === category);

/** The article, the articles related to it, and its body as this reader may read it. */
function articleData(
  content: SiteContent,
  category: ArticleCategory,
  slug: string,
  reader: Reader,
): SiteData {
  const article = content.articles.find((item) => item.category === category && item.slug === slug);
  const whole = reader === 'member' ? content.memberBodies.get(slug) : undefined;
  const body = whole ?? content.articleBodies.get(slug);
  if (!article || !body) return { articles: [] };
  const more = relatedArticles(article, content.articles);
  const key = bodyKey('article', slug);
  return {
    articles: [article, ...more],
    bodies: { [key]: body },
    ...(article.membersOnly && !whole && { teasers: [key] }),
  };
}

/**
 * The stories of a list's campaigns or boycotts as this reader may read them: a members-only
 * one's opening for others (its key in `teasers`), the whole for members.
 */
function storiesOf(
  content: SiteContent,
  kind: 'campaign' | 'boycott',
  reader: Reader,
): Pick<SiteData, 'bodies' | 'teasers'> {
  const bodies: Record<string, MarkdownTree> = {};
  const teasers: string[] = [];
  for (const [key, story] of content.stories) {
    if (!key.startsWith(`${kind}/`)) continue;
    const whole = reader === 'member' ? story.memberBody : undefined;
    bodies[key] = whole ?? story.body;
    if (story.memberBody && !whole) teasers.push(key);
  }
  return {
    ...(Object.keys(bodies).length > 0 && { bodies }),
    ...(teasers.length > 0 && { teasers }),
  };
}

/**
 * Whether the screen at `path` shows members more than others (a members-only article, page,
 * campaign or boycott): its page and data then depend on who asks, and a member's copy is private.
 */
export function differsForMembers(content: SiteContent, path: string): boolean {
  if (standaloneAt(content, path)?.page.membersOnly) return true;
  if (path === paths.directAction) return content.campaigns.some((item) => item.membersOnly);
  if (path === paths.collective) return content.boycotts.some((item) => item.membersOnly);
  for (const [category, slug] of content.sectionSlugs) {
    const section = `/${slug}/`;
    if (path.startsWith(section)) {
      const slug = path.slice(section.length);
      return content.articles.some(
        (item) => item.category === category && item.slug === slug && item.membersOnly === true,
      );
    }
  }
  return false;
}

/** The issue, the articles it shows as cards, and its body unless it is for members. */
function issueData(content: SiteContent, slug: string): SiteData {
  const issue = content.newsletters.find((item) => item.slug === slug);
  const listing = content.newsletterListings.find((item) => item.slug === slug);
  if (!issue || !listing) return { newsletters: [] };
  const cards = new Set(listing.articles);
  return {
    newsletters: [listing],
    articles: content.articles.filter((article) => cards.has(article.slug)),
    ...(!issue.membersOnly && { bodies: { [bodyKey('newsletter', slug)]: issue.body } }),
  };
}

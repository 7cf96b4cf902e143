import type { ArticleCategory } from '../../../contract/content-types.js';
import { matchScreen } from '../../../contract/screen-match.js';
import { bodyKey, type SiteData } from '../../../contract/site-data.js';
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
 * What the screen at `path` draws (contract/site-data.ts): what its row of the screens table
 * names (contract/screens.ts), and only that, so a page carries its own content and no more. A
 * path no screen drawn by the server has gets an empty object; an unknown slug gets lists without
 * it, which the screen draws as the not-found page. The navigation (the sections and links of the
 * navbar and footer) goes into the pages the server draws (site-pages.ts).
 */
export function siteDataFor(
  content: SiteContent,
  path: string,
  reader: Reader = 'public',
): SiteData {
  if (content.gone.has(path)) return { removed: true };
  const match = matchScreen(path, content.sectionSlugs, content.specialSlugs);
  if (!match) return {};
  const { screen, params } = match;
  const slug = params.slug ?? '';
  const text = textOf(content, screen.text);
  switch (screen.data) {
    case 'home':
      return { ...text, highlights: content.highlights };
    case 'campaigns':
      return { campaigns: content.campaigns, ...storiesOf(content, 'campaign', reader) };
    case 'boycotts':
      return { ...text, boycotts: content.boycotts, ...storiesOf(content, 'boycott', reader) };
    case 'resources':
      return { ...text, resourceGroups: content.resourceGroups };
    case 'text':
      return text;
    case 'perks':
      return { perks: content.perks };
    case 'newsletter':
      return params.slug === undefined
        ? { newsletters: content.newsletterListings }
        : issueData(content, slug);
    case 'topics':
      return { topics: [...content.topics.values()].map(topicOf) };
    case 'topic': {
      const topic = content.topics.get(slug);
      if (!topic) return { topics: [] };
      return { topics: [topicOf(topic)], articles: topic.articles, campaigns: topic.campaigns };
    }
    case 'author': {
      const entry = content.authors.get(slug);
      return entry ? { authors: [entry.author], articles: entry.articles } : { authors: [] };
    }
    case 'section':
      return { articles: inSection(content, params.section ?? '') };
    case 'article':
      return articleData(content, params.section ?? '', slug, reader);
    case 'page':
      return standaloneData(content, slug, reader);
    default:
      return {};
  }
}

/** A screen's text (its page post), by its slug, or none when it is not published. */
function textOf(content: SiteContent, slug: string | undefined): Pick<SiteData, 'pages'> {
  const page = slug === undefined ? undefined : content.pages.get(slug);
  return { pages: slug !== undefined && page ? { [slug]: page } : {} };
}

/** A page of its own, its body as this reader may read it. */
function standaloneData(content: SiteContent, slug: string, reader: Reader): SiteData {
  const standalone = content.standalonePages.get(slug);
  if (!standalone) return {};
  const whole = reader === 'member' ? standalone.memberBody : undefined;
  const key = bodyKey('page', standalone.page.slug);
  return {
    standalonePages: [standalone.page],
    bodies: { [key]: whole ?? standalone.body },
    ...(standalone.page.membersOnly && !whole && { teasers: [key] }),
  };
}

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
  const match = matchScreen(path, content.sectionSlugs, content.specialSlugs);
  const slug = match?.params.slug;
  switch (match?.screen.data) {
    case 'page':
      return content.standalonePages.get(slug ?? '')?.page.membersOnly === true;
    case 'campaigns':
      return content.campaigns.some((item) => item.membersOnly);
    case 'boycotts':
      return content.boycotts.some((item) => item.membersOnly);
    case 'article':
      return content.articles.some(
        (item) =>
          item.category === match.params.section && item.slug === slug && item.membersOnly === true,
      );
    default:
      return false;
  }
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

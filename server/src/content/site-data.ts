import type { ArticleCategory } from '../../../contract/content-types.js';
import { matchScreen } from '../../../contract/screen-match.js';
import { bodyKey, type PostLock, type SiteData } from '../../../contract/site-data.js';
import type { MarkdownTree } from '../../../contract/markdown-tree.js';
import {
  mayRead,
  tiersUnlocking,
  VISITOR,
  type Reader,
  type ReadingRule,
} from '../../../contract/reading.js';
import { archiveData } from './archive-pages.js';
import type { SiteContent } from './site-content.js';
import { relatedArticles, topicOf } from './topics.js';

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
  reader: Reader = VISITOR,
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
        : issueData(content, slug, reader);
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
    case 'archive':
      return archiveData(content.articles, path);
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
  const key = bodyKey('page', standalone.page.slug);
  return {
    standalonePages: [standalone.page],
    ...bodiesFor(content, reader, [[key, standalone.body, standalone.memberBody]]),
  };
}

/**
 * Bodies by key as this reader may read them: a restricted post's whole (`whole`) where its rule
 * lets them, else what anyone reads (its opening, the key then in `teasers`), and what unlocks
 * each restricted one in `locks`.
 */
function bodiesFor(
  content: SiteContent,
  reader: Reader,
  entries: readonly (readonly [key: string, shown: MarkdownTree, whole?: MarkdownTree])[],
): Pick<SiteData, 'bodies' | 'teasers' | 'locks'> {
  const bodies: Record<string, MarkdownTree> = {};
  const teasers: string[] = [];
  const locks: Record<string, PostLock> = {};
  for (const [key, shown, whole] of entries) {
    const rule = content.rules.get(key);
    if (!rule || !whole) {
      bodies[key] = shown;
      continue;
    }
    locks[key] = lockOf(content, rule);
    if (mayRead(rule, reader)) bodies[key] = whole;
    else {
      bodies[key] = shown;
      teasers.push(key);
    }
  }
  return {
    ...(entries.length > 0 && { bodies }),
    ...(teasers.length > 0 && { teasers }),
    ...(Object.keys(locks).length > 0 && { locks }),
  };
}

/** A restricted post's rule and the tiers whose members read it (contract/reading.ts). */
const lockOf = (content: SiteContent, rule: ReadingRule): PostLock => ({
  rule: { visibility: rule.visibility, tiers: [...rule.tiers] },
  tiers: tiersUnlocking(rule, content.tiers).map(({ slug, name }) => ({ slug, name })),
});

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
  const body = content.articleBodies.get(slug);
  if (!article || !body) return { articles: [] };
  // Related reading is cards: titles and summaries, never a body.
  const more = relatedArticles(article, content.articles);
  const key = bodyKey('article', slug);
  return {
    articles: [article, ...more],
    ...bodiesFor(content, reader, [[key, body, content.memberBodies.get(slug)]]),
  };
}

/**
 * The stories of a list's campaigns or boycotts as this reader may read them: a restricted one's
 * opening for those its rule keeps out (its key in `teasers`), the whole for the others.
 */
function storiesOf(
  content: SiteContent,
  kind: 'campaign' | 'boycott',
  reader: Reader,
): Pick<SiteData, 'bodies' | 'teasers' | 'locks'> {
  const stories = [...content.stories].filter(([key]) => key.startsWith(`${kind}/`));
  return bodiesFor(
    content,
    reader,
    stories.map(([key, story]) => [key, story.body, story.memberBody] as const),
  );
}

/**
 * The rules of the restricted posts whose bodies the screen at `path` shows (an article, a page
 * of its own, a newsletter issue, the campaigns' or boycotts' stories): none where its page is
 * the same for every reader.
 */
export function rulesOnScreen(content: SiteContent, path: string): ReadingRule[] {
  const match = matchScreen(path, content.sectionSlugs, content.specialSlugs);
  const slug = match?.params.slug ?? '';
  const rule = (key: string) => {
    const found = content.rules.get(key);
    return found ? [found] : [];
  };
  switch (match?.screen.data) {
    case 'page':
      return content.standalonePages.has(slug) ? rule(bodyKey('page', slug)) : [];
    case 'campaigns':
    case 'boycotts': {
      const kind = match.screen.data === 'campaigns' ? 'campaign' : 'boycott';
      return [...content.stories.keys()].filter((key) => key.startsWith(`${kind}/`)).flatMap(rule);
    }
    case 'article':
      return content.articles.some(
        (item) => item.category === match.params.section && item.slug === slug,
      )
        ? rule(bodyKey('article', slug))
        : [];
    case 'newsletter':
      return match.params.slug === undefined ? [] : rule(bodyKey('newsletter', slug));
    default:
      return [];
  }
}

/**
 * Whom the screen at `path` is drawn for, for this reader: the reader where they may read more of
 * it than a visitor (their page is kept under their `readerKey`, for their browser alone), else
 * the visitor, whose page every reader shares.
 */
export function screenReader(content: SiteContent, path: string, reader: Reader): Reader {
  const rules = rulesOnScreen(content, path);
  return rules.some((rule) => mayRead(rule, reader) && !mayRead(rule, VISITOR)) ? reader : VISITOR;
}

/**
 * The issue, the articles it shows as cards, and its body: a restricted issue's only for those
 * who may read it (others read its summary; the page says what unlocks it).
 */
function issueData(content: SiteContent, slug: string, reader: Reader): SiteData {
  const issue = content.newsletters.find((item) => item.slug === slug);
  const listing = content.newsletterListings.find((item) => item.slug === slug);
  if (!issue || !listing) return { newsletters: [] };
  const cards = new Set(listing.articles);
  const key = bodyKey('newsletter', slug);
  const rule = content.rules.get(key);
  const readable = !rule || mayRead(rule, reader);
  return {
    newsletters: [listing],
    articles: content.articles.filter((article) => cards.has(article.slug)),
    ...(readable && { bodies: { [key]: issue.body } }),
    ...(rule && { locks: { [key]: lockOf(content, rule) } }),
  };
}

import { createHash } from 'node:crypto';
import type {
  ArticleSummary,
  Boycott,
  Campaign,
  HomeHighlights,
  PageCopy,
  RelatedItem,
  ResourceGroup,
  ResourceGroupSummary,
  StandalonePage,
} from '../../../contract/content-types.js';
import type { MarkdownTree } from '../../../contract/markdown-tree.js';
import type {
  NewsletterArticle,
  NewsletterFrontMatter,
  NewsletterIssue,
  NewsletterListing,
} from '../../../contract/newsletters.js';
import { compareNewestFirst } from '../../../contract/newest-first.js';
import { PERK_CATEGORIES, type Perk } from '../../../contract/perks.js';
import type {
  ArticleFrontMatter,
  BoycottFrontMatter,
  CampaignFrontMatter,
  PageFrontMatter,
  ResourceGroupFrontMatter,
} from '../../../contract/post-fields.js';
import { isScreenText, postPath, type PostKind } from '../../../contract/posts.js';
import {
  isRestricted,
  readersLabel,
  type ReadingRule,
  type TierName,
} from '../../../contract/reading.js';
import { bodyKey } from '../../../contract/site-data.js';
import {
  articleSectionSlugs,
  specialSectionSlugs,
  type SiteNavigation,
  type SpecialList,
} from '../../../contract/sections.js';
import { generateArtwork, type ArtworkTheme } from './generate-artwork.js';
import { defaultSiteSettings } from './site-settings.js';
import { homeSectionSlugs } from './home-settings.js';
import type { SiteSettings } from '../../../contract/site-settings.js';
import type { PostAddresses } from './post-addresses.js';
import type { SectionsData } from './section-store.js';
import { isoDay, type PostRow } from './post-row.js';
import type { PublishedPost } from './published-content.js';
import { indexSite } from './site-index.js';
import type { SiteIndex } from '../../../contract/site-index.js';
import { collectTopics, type TopicEntry } from './topics.js';
import { collectStories, type PostStory } from './post-stories.js';
import { collectAuthors, creditOf, indexAuthors, type AuthorEntry } from './site-authors.js';

/** How many of each section's newest items the home page shows. */
export const HOME_ITEMS_PER_SECTION = 3;

/** Where hero artwork is served: `/art/<seed>-<hash>.svg`, drawn from its name alone. */
export const ARTWORK_PREFIX = '/art/';

/**
 * Everything published, in the shapes the screens draw (contract/content-types.ts): lists newest
 * first, bodies by slug, and the artwork the lists name. Made from the published posts' rows
 * (published-content.ts) each time they change (server/src/site/), never by a build.
 */
export interface SiteContent {
  /** The publication's name, words and look (contract/site-settings.ts). */
  settings: SiteSettings;
  articles: ArticleSummary[];
  /** Each article's body as anyone may read it: a restricted one's opening only. */
  articleBodies: Map<string, MarkdownTree>;
  /**
   * Restricted articles' whole bodies, for the readers their rule lets in (`rules`; server only).
   */
  memberBodies: Map<string, MarkdownTree>;
  /**
   * Who may read each restricted post whole (contract/reading.ts), by its body key
   * (`article/<slug>`, `page/<slug>`, `campaign/<slug>`, `boycott/<slug>`, `newsletter/<slug>`):
   * a post not here is public. Ask `mayRead` of it, never the visibility's word.
   */
  rules: ReadonlyMap<string, ReadingRule>;
  /** The visible tiers, in their order: what a reader is told unlocks a post (`unlockLabel`). */
  tiers: readonly TierName[];
  campaigns: Campaign[];
  boycotts: Boycott[];
  /** The campaigns' and boycotts' stories, by body key (post-stories.ts). */
  stories: Map<string, PostStory>;
  resourceGroups: ResourceGroup[];
  highlights: HomeHighlights;
  /** The screens' text by slug (`home`, `privacy`…: contract/posts.ts PAGE_SCREENS). */
  pages: Map<string, PageCopy>;
  /**
   * Pages of their own (`/<slug>`) by slug: what anyone may read (a restricted page's opening
   * only) and, for a restricted page, its whole body for the readers its rule lets in (server only).
   */
  standalonePages: Map<
    string,
    { page: StandalonePage; body: MarkdownTree; memberBody?: MarkdownTree }
  >;
  /** Every issue with its body and article cards (restricted bodies included: server only). */
  newsletters: NewsletterIssue[];
  newsletterListings: NewsletterListing[];
  perks: Perk[];
  /** Hero artwork by file name (`<seed>-<hash>.svg`). */
  artwork: Map<string, string>;
  /** The tags of the articles and campaigns, by slug, ordered by name (content/topics.ts). */
  topics: Map<string, TopicEntry>;
  /** Every author of a published article, by slug (content/site-authors.ts). */
  authors: Map<string, AuthorEntry>;
  /** What the sitemap, the feeds and the pages' heads say about the whole site. */
  index: SiteIndex;
  /** Addresses of posts taken down lately (410 Gone). */
  gone: ReadonlySet<string>;
  /** Earlier addresses of live posts and of sections, to their address now (301). */
  moved: ReadonlyMap<string, string>;
  /** The sections and the navbar's and footer's links, which every page carries. */
  navigation: SiteNavigation;
  /** Each section of articles' slug, by its name (an article's `category`). */
  sectionSlugs: ReadonlyMap<string, string>;
  /** The slug of the section listing each special kind; a kind no section lists has none. */
  specialSlugs: ReadonlyMap<SpecialList, string>;
  /** The published posts it was made from (server only: Ghost's Content API reads them). */
  published: readonly PublishedPost[];
}

/** A page of its own as the site keeps it: its body as anyone reads it, and whole. */
export interface StandaloneEntry {
  page: StandalonePage;
  body: MarkdownTree;
  /** A restricted page's whole body (`body` is then its opening). */
  memberBody?: MarkdownTree;
}

/**
 * The site's content from the published posts (published-content.ts) and the partner perks
 * (files: they are not posts). `css`: the site's stylesheet, whose colours the web manifest names.
 */
export function createSiteContent(
  posts: readonly PublishedPost[],
  perks: readonly Perk[],
  css: string,
  addresses: PostAddresses = { gone: new Set(), moved: new Map() },
  /** Topics' descriptions as publishers wrote them, by slug. */
  topicDescriptions: ReadonlyMap<string, string> = new Map(),
  /** The sections table (section-store.ts): without it, no section and no menu. */
  sections: SectionsData = { navigation: { sections: [], links: [] }, oldSlugs: new Map() },
  /** The publication's settings (site-settings.ts): without them, a new site's. */
  settings: SiteSettings = defaultSiteSettings(),
  /** The visible tiers (memberships/tier-catalog.ts `tierNames`), in their order. */
  tiers: readonly TierName[] = [],
): SiteContent {
  const sectionSlugs = articleSectionSlugs(sections.navigation.sections);
  const specialSlugs = specialSectionSlugs(sections.navigation.sections);
  const artwork = new Map<string, string>();
  const heroImage = (seed: string, theme: ArtworkTheme) => {
    const svg = generateArtwork(seed, theme);
    const hash = createHash('sha256').update(svg).digest('hex').slice(0, 10);
    const fileName = `${seed}-${hash}.svg`;
    artwork.set(fileName, svg);
    return `${ARTWORK_PREFIX}${fileName}`;
  };

  const articlePosts = postsOf(posts, 'article');
  const articles: ArticleSummary[] = articlePosts
    .map(({ row, rule, teaser, authors: writers }) => {
      const fields = row.fields as ArticleFields;
      const { featureImage, featureImageAlt, ...seo } = presentation(row);
      return {
        ...fields,
        ...dated(row),
        ...seo,
        // The writer's own image where they set one, else artwork drawn from the slug.
        heroImage: featureImage ?? heroImage(row.slug, themeOf(fields.category)),
        ...(featureImage && featureImageAlt && { heroAlt: featureImageAlt }),
        ...(teaser && { membersOnly: true as const, readers: readersLabel(rule, tiers) }),
        ...(writers.length > 0 && { authors: writers.map(creditOf) }),
      };
    })
    .sort(compareNewestFirst);
  const authors = collectAuthors(
    articles,
    new Map(articlePosts.map(({ row, authors: profiles }) => [row.id, profiles])),
  );
  // What anyone may read: a restricted article's opening only. Whole bodies apart.
  const articleBodies = new Map(
    articlePosts.map(({ row, body, teaser }) => [row.slug, teaser ?? body ?? emptyBody()]),
  );
  const memberBodies = new Map(
    articlePosts.flatMap(({ row, body, teaser }) =>
      teaser ? [[row.slug, body ?? emptyBody()] as const] : [],
    ),
  );
  const campaigns: Campaign[] = postsOf(posts, 'campaign')
    .map(({ row, rule, body, teaser }) => ({
      ...(row.fields as CampaignFields),
      ...dated(row),
      heroImage: heroImage(row.slug, 'direct-action'),
      ...(teaser && body && { membersOnly: true as const, readers: readersLabel(rule, tiers) }),
    }))
    .sort(compareNewestFirst);
  const boycotts: Boycott[] = postsOf(posts, 'boycott')
    .map(({ row, rule, body, teaser }) => {
      const { boycottStatus, ...fields } = row.fields as BoycottFields;
      return {
        ...fields,
        id: row.id,
        slug: row.slug,
        title: row.title,
        status: boycottStatus,
        updates: [...fields.updates].sort((a, b) => b.date.localeCompare(a.date)),
        heroImage: heroImage(row.slug, 'collective'),
        ...(teaser && body && { membersOnly: true as const, readers: readersLabel(rule, tiers) }),
      };
    })
    .sort(compareNewestFirst);
  const resourcePosts = postsOf(posts, 'resources');
  const resourceGroups: ResourceGroup[] = resourcePosts
    .map(({ row }) => {
      const fields = row.fields as ResourceFields;
      return {
        ...fields,
        id: row.id,
        slug: row.slug,
        resources: fields.resources.map((resource) => ({
          ...resource,
          heroImage: heroImage(`${row.slug}-${resource.id}`, 'empowerment'),
        })),
      };
    })
    .sort((a, b) => a.id - b.id);
  const groupSummaries: ResourceGroupSummary[] = resourceGroups.map(
    ({ id, slug, category, description, resources }) => ({
      id,
      slug,
      category,
      description,
      resourceCount: resources.length,
      heroImage: resources[0]?.heroImage ?? heroImage(slug, 'empowerment'),
    }),
  );
  // A related slug whose post is not published (a draft, one taken off the site) is left out.
  const relatedItem = (slug: string): RelatedItem[] => {
    const article = articles.find((item) => item.slug === slug);
    if (article) return [{ kind: 'article', article }];
    const campaign = campaigns.find((item) => item.slug === slug);
    if (campaign) return [{ kind: 'campaign', campaign }];
    const group = groupSummaries.find((item) => item.slug === slug);
    if (group) return [{ kind: 'resource-group', group }];
    return [];
  };
  const pagePosts = postsOf(posts, 'page');
  const pages = new Map<string, PageCopy>(
    pagePosts
      .filter(({ row }) => isScreenText(row.slug))
      .map(({ row, body, teaser }) => {
        const { related, ...fields } = row.fields as PageFields;
        const items = related?.flatMap(relatedItem) ?? [];
        return [
          row.slug,
          {
            slug: row.slug,
            ...fields,
            id: row.id,
            title: row.title,
            ...presentation(row),
            ...(items.length > 0 && { related: items }),
            // A screen's text is everyone's: a restricted one shows its opening alone.
            body: teaser ?? body ?? emptyBody(),
          },
        ];
      }),
  );
  const standalonePages = new Map(
    pagePosts
      .filter(({ row }) => !isScreenText(row.slug))
      .map(({ row, body, teaser, authors: writers }): [string, StandaloneEntry] => {
        const { description, updatedAt } = row.fields as PageFields;
        const { featureImage, featureImageAlt, seoTitle, seoDescription } = presentation(row);
        const page: StandalonePage = {
          id: row.id,
          slug: row.slug,
          title: row.title,
          description,
          updatedAt,
          ...(featureImage && { featureImage, featureImageAlt: featureImageAlt ?? '' }),
          ...(seoTitle && { seoTitle }),
          ...(seoDescription && { seoDescription }),
          ...(teaser && { membersOnly: true as const }),
          ...(writers.length > 0 && { authors: writers.map(creditOf) }),
        };
        const whole = body ?? emptyBody();
        return [
          row.slug,
          teaser ? { page, body: teaser, memberBody: whole } : { page, body: whole },
        ];
      }),
  );

  // The pinned articles lead the home page, each once: their sections' rows go on without them.
  const pinned = new Map(articles.map((article) => [article.id, article]));
  const featured = settings.home.featured.flatMap((id) => pinned.get(id) ?? []);
  const newestBySection: Record<string, ArticleSummary[]> = {};
  for (const article of articles) {
    if (featured.includes(article)) continue;
    const newest = (newestBySection[article.category] ??= []);
    if (newest.length < HOME_ITEMS_PER_SECTION) newest.push(article);
  }
  const highlights: HomeHighlights = {
    featured,
    sections: homeSectionSlugs(settings.home, sections.navigation.sections, sections.oldSlugs),
    articles: newestBySection,
    campaigns: campaigns.slice(0, HOME_ITEMS_PER_SECTION),
    boycotts: boycotts
      .slice(0, HOME_ITEMS_PER_SECTION)
      .map(({ id, slug, title, status, reason, heroImage }) => ({
        id,
        slug,
        title,
        status,
        reason,
        heroImage,
      })),
    resourceGroups: groupSummaries,
  };

  const topics = collectTopics(articles, campaigns, topicDescriptions);
  const issues = createNewsletterIssues(posts, sectionSlugs);
  const newsletterListings: NewsletterListing[] = issues.map(
    ({ body: _body, articles: cards, ...issue }) => ({
      ...issue,
      articles: cards.map((card) => card.slug),
    }),
  );

  return {
    settings,
    published: posts,
    articles,
    articleBodies,
    memberBodies,
    rules: readingRules(posts),
    tiers,
    campaigns,
    boycotts,
    stories: collectStories(posts),
    resourceGroups,
    highlights,
    pages,
    standalonePages,
    newsletters: issues,
    newsletterListings,
    perks: sortPerks(perks),
    artwork,
    topics,
    authors,
    index: indexAuthors(
      indexSite(
        {
          articles,
          campaigns,
          boycotts,
          // Every page post, screens' text and pages of their own: when each last changed.
          pages: pagePosts.map(({ row }) => ({
            slug: row.slug,
            updatedAt: (row.fields as PageFields).updatedAt,
          })),
          resourceGroups: resourcePosts.map(({ row }) => row.fields as ResourceFields),
          perks,
          newsletters: issues,
        },
        css,
        [...topics.values()],
        [...sectionSlugs].map(([name, slug]) => ({ name, slug })),
        specialSlugs,
      ),
      authors,
    ),
    gone: addresses.gone,
    moved: withOldSectionAddresses(addresses.moved, sections.oldSlugs, articles, sectionSlugs),
    navigation: sections.navigation,
    sectionSlugs,
    specialSlugs,
  };
}

/**
 * Every newsletter issue (contract/newsletters.ts): its body as the same safe tree as articles',
 * and each article it names resolved to a card. Newest first.
 */
export function createNewsletterIssues(
  posts: readonly PublishedPost[],
  sectionSlugs?: ReadonlyMap<string, string>,
): NewsletterIssue[] {
  const articles = postsOf(posts, 'article');
  // An article that is not published (a draft, or one taken off the site) gets no card.
  const card = (slug: string): NewsletterArticle[] => {
    const article = articles.find(({ row }) => row.slug === slug);
    if (!article) return [];
    const { summary, category } = article.row.fields as ArticleFields;
    const path = postPath({ kind: 'article', slug, category }, sectionSlugs);
    return [{ slug, title: article.row.title, summary, path }];
  };
  return postsOf(posts, 'newsletter')
    .map(({ row, rule, body, authors: writers }) => {
      // A post written in the desk may leave out what a file's front matter defaults.
      const fields = row.fields as Partial<NewsletterFields> & Pick<NewsletterFields, 'summary'>;
      return {
        slug: row.slug,
        title: row.title,
        summary: fields.summary,
        publishedAt: publishedDay(row),
        // Restricted: its body leaves the server only for those who may read it.
        membersOnly: isRestricted(rule),
        articles: (fields.articles ?? []).flatMap(card),
        sample: fields.sample ?? false,
        ...(writers.length > 0 && { authors: writers.map(creditOf) }),
        body: body ?? emptyBody(),
      };
    })
    .sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || a.slug.localeCompare(b.slug));
}

/**
 * The redirects of posts' old addresses, and those of the sections' old slugs: a section's old
 * list and each of its articles at the old slug lead, in one hop, to where they are now.
 */
function withOldSectionAddresses(
  moved: ReadonlyMap<string, string>,
  oldSlugs: ReadonlyMap<string, string>,
  articles: readonly ArticleSummary[],
  sectionSlugs: ReadonlyMap<string, string>,
): ReadonlyMap<string, string> {
  if (oldSlugs.size === 0) return moved;
  const all = new Map(moved);
  for (const [old, now] of oldSlugs) {
    if (!all.has(`/${old}`)) all.set(`/${old}`, `/${now}`);
    for (const article of articles) {
      if (sectionSlugs.get(article.category) !== now) continue;
      const from = `/${old}/${article.slug}`;
      if (!all.has(from)) all.set(from, `/${now}/${article.slug}`);
    }
  }
  return all;
}

/** The rule of each restricted post that has a body to keep from some readers, by body key. */
function readingRules(posts: readonly PublishedPost[]): Map<string, ReadingRule> {
  const rules = new Map<string, ReadingRule>();
  for (const { row, rule, teaser } of posts) {
    if (!teaser || row.kind === 'resources') continue;
    rules.set(bodyKey(row.kind, row.slug), rule);
  }
  return rules;
}

const postsOf = (posts: readonly PublishedPost[], kind: PostKind) =>
  posts.filter(({ row }) => row.kind === kind);

const publishedDay = (row: PostRow) => isoDay(row.publishedAt ?? row.updatedAt);

/** What a dated post (an article, a campaign) has in columns of its own. */
const dated = (row: PostRow) => ({
  id: row.id,
  slug: row.slug,
  title: row.title,
  publishedAt: publishedDay(row),
});

/** What a writer set of how a post looks and is found: kept only where set. */
interface PostPresentation {
  featureImage?: string;
  featureImageAlt?: string;
  seoTitle?: string;
  seoDescription?: string;
}

function presentation(row: PostRow): PostPresentation {
  return {
    ...(row.featureImage && { featureImage: row.featureImage }),
    ...(row.featureImageAlt && { featureImageAlt: row.featureImageAlt }),
    ...(row.seoTitle && { seoTitle: row.seoTitle }),
    ...(row.seoDescription && { seoDescription: row.seoDescription }),
  };
}

// What each kind keeps in `fields`: its front matter without what is a column of its own.
type ArticleFields = Omit<ArticleFrontMatter, 'id' | 'slug' | 'title' | 'publishedAt'>;
type CampaignFields = Omit<CampaignFrontMatter, 'id' | 'slug' | 'title' | 'publishedAt'>;
type BoycottFields = Omit<BoycottFrontMatter, 'id' | 'slug' | 'title' | 'status'> & {
  boycottStatus: BoycottFrontMatter['status'];
};
type ResourceFields = Omit<ResourceGroupFrontMatter, 'id' | 'slug'>;
type PageFields = Omit<PageFrontMatter, 'id' | 'title'>;
type NewsletterFields = Omit<
  NewsletterFrontMatter,
  'id' | 'slug' | 'title' | 'publishedAt' | 'membersOnly'
>;

const emptyBody = (): MarkdownTree => ({ type: 'root', children: [] });

/** In the categories' order, then by partner: how /perks lists them. Nothing secret is here. */
function sortPerks(perks: readonly Perk[]): Perk[] {
  const rank = (perk: Perk) => PERK_CATEGORIES.indexOf(perk.category);
  return [...perks].sort((a, b) => rank(a) - rank(b) || a.partner.localeCompare(b.partner));
}

function themeOf(category: ArticleSummary['category']): ArtworkTheme {
  return category === 'Health' ? 'health' : 'wealth';
}

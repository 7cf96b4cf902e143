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
import type { NewsletterIssue, NewsletterListing } from '../../../contract/newsletters.js';
import { compareNewestFirst } from '../../../contract/newest-first.js';
import { PERK_CATEGORIES, type Perk } from '../../../contract/perks.js';
import { isScreenText } from '../../../contract/posts.js';
import { generateArtwork, type ArtworkTheme } from './generate-artwork.js';
import type { LoadedContent } from './load-content.js';
import type { PostAddresses } from './post-addresses.js';
import type { PostPresentation } from './published-content.js';
import { createNewslettersFile } from './newsletters-file.js';
import { createSiteIndex } from './site-index.js';
import type { SiteIndex } from '../../../contract/site-index.js';
import { collectTopics, type TopicEntry } from './topics.js';

/** How many of each section's newest items the home page shows. */
export const HOME_ITEMS_PER_SECTION = 3;

/** Where hero artwork is served: `/art/<seed>-<hash>.svg`, drawn from its name alone. */
export const ARTWORK_PREFIX = '/art/';

/**
 * Everything published, in the shapes the screens draw (contract/content-types.ts): lists newest
 * first, bodies by slug, and the artwork the lists name. Made from the posts each time they
 * change (server/src/site/), never by a build.
 */
export interface SiteContent {
  articles: ArticleSummary[];
  /** Each article's body as anyone may read it: a members-only one's opening only. */
  articleBodies: Map<string, MarkdownTree>;
  /** Members-only articles' whole bodies, for members alone (server only). */
  memberBodies: Map<string, MarkdownTree>;
  campaigns: Campaign[];
  boycotts: Boycott[];
  resourceGroups: ResourceGroup[];
  highlights: HomeHighlights;
  /** The screens' text by slug (`home`, `privacy`…: contract/posts.ts PAGE_SCREENS). */
  pages: Map<string, PageCopy>;
  /**
   * Pages of their own (`/<slug>`) by slug: what anyone may read (a members-only page's opening
   * only) and, for a members-only page, its whole body for members (server only).
   */
  standalonePages: Map<
    string,
    { page: StandalonePage; body: MarkdownTree; memberBody?: MarkdownTree }
  >;
  /** Every issue with its body and article cards (members-only bodies included: server only). */
  newsletters: NewsletterIssue[];
  newsletterListings: NewsletterListing[];
  perks: Perk[];
  /** Hero artwork by file name (`<seed>-<hash>.svg`). */
  artwork: Map<string, string>;
  /** The tags of the articles and campaigns, by slug, ordered by name (content/topics.ts). */
  topics: Map<string, TopicEntry>;
  /** What the sitemap, the feeds and the pages' heads say about the whole site. */
  index: SiteIndex;
  /** Addresses of posts taken down lately (410 Gone). */
  gone: ReadonlySet<string>;
  /** Earlier addresses of live posts, to their address now (301). */
  moved: ReadonlyMap<string, string>;
}

/** A page of its own as the site keeps it: its body as anyone reads it, and as members do. */
export interface StandaloneEntry {
  page: StandalonePage;
  body: MarkdownTree;
  /** A members-only page's whole body (`body` is then its opening). */
  memberBody?: MarkdownTree;
}

/** `css`: the site's stylesheet, whose colours the web manifest names. */
export function createSiteContent(
  content: LoadedContent,
  css: string,
  addresses: PostAddresses = { gone: new Set(), moved: new Map() },
  /** Topics' descriptions as publishers wrote them, by slug. */
  topicDescriptions: ReadonlyMap<string, string> = new Map(),
): SiteContent {
  const artwork = new Map<string, string>();
  const heroImage = (seed: string, theme: ArtworkTheme) => {
    const svg = generateArtwork(seed, theme);
    const hash = createHash('sha256').update(svg).digest('hex').slice(0, 10);
    const fileName = `${seed}-${hash}.svg`;
    artwork.set(fileName, svg);
    return `${ARTWORK_PREFIX}${fileName}`;
  };

  const articles: ArticleSummary[] = content.articles
    .map(({ data, teaser }) => {
      const { featureImage, featureImageAlt, ...rest } = data as typeof data & PostPresentation;
      return {
        ...rest,
        id: idOf(data),
        // The writer's own image where they set one, else artwork drawn from the slug.
        heroImage: featureImage ?? heroImage(data.slug, themeOf(data.category)),
        ...(featureImage && featureImageAlt && { heroAlt: featureImageAlt }),
        ...(teaser && { membersOnly: true as const }),
      };
    })
    .sort(compareNewestFirst);
  // What anyone may read: a members-only article's opening only. Members' bodies apart.
  const articleBodies = new Map(
    content.articles.map(({ data, body, teaser }) => [data.slug, teaser ?? body ?? emptyBody()]),
  );
  const memberBodies = new Map(
    content.articles.flatMap(({ data, body, teaser }) =>
      teaser ? [[data.slug, body ?? emptyBody()] as const] : [],
    ),
  );
  const campaigns: Campaign[] = content.campaigns
    .map(({ data }) => ({
      ...data,
      id: idOf(data),
      heroImage: heroImage(data.slug, 'direct-action'),
    }))
    .sort(compareNewestFirst);
  const boycotts: Boycott[] = content.boycotts
    .map(({ data }) => ({
      ...data,
      id: idOf(data),
      updates: [...data.updates].sort((a, b) => b.date.localeCompare(a.date)),
      heroImage: heroImage(data.slug, 'collective'),
    }))
    .sort(compareNewestFirst);
  const resourceGroups: ResourceGroup[] = content.resourceGroups
    .map(({ data }) => ({
      ...data,
      id: idOf(data),
      resources: data.resources.map((resource) => ({
        ...resource,
        heroImage: heroImage(`${data.slug}-${resource.id}`, 'empowerment'),
      })),
    }))
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
  const pages = new Map<string, PageCopy>(
    content.pages
      .filter(({ name }) => isScreenText(name))
      .map(({ name, data: { related, ...data }, body }) => {
        const items = related?.flatMap(relatedItem) ?? [];
        return [
          name,
          {
            slug: name,
            ...data,
            ...(items.length > 0 && { related: items }),
            body: body ?? emptyBody(),
          },
        ];
      }),
  );
  const standalonePages = new Map(
    content.pages
      .filter(({ name }) => !isScreenText(name))
      .map(({ name, data, body, teaser }): [string, StandaloneEntry] => {
        const { title, description, updatedAt } = data;
        const { featureImage, featureImageAlt, seoTitle, seoDescription } = data as typeof data &
          PostPresentation;
        const page: StandalonePage = {
          id: idOf(data),
          slug: name,
          title,
          description,
          updatedAt,
          ...(featureImage && { featureImage, featureImageAlt: featureImageAlt ?? '' }),
          ...(seoTitle && { seoTitle }),
          ...(seoDescription && { seoDescription }),
          ...(teaser && { membersOnly: true as const }),
        };
        const whole = body ?? emptyBody();
        return [name, teaser ? { page, body: teaser, memberBody: whole } : { page, body: whole }];
      }),
  );

  const highlights: HomeHighlights = {
    health: articles.filter((item) => item.category === 'Health').slice(0, HOME_ITEMS_PER_SECTION),
    wealth: articles.filter((item) => item.category === 'Wealth').slice(0, HOME_ITEMS_PER_SECTION),
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
  const { issues } = createNewslettersFile(content);
  const newsletterListings: NewsletterListing[] = issues.map(
    ({ body: _body, articles: cards, ...issue }) => ({
      ...issue,
      articles: cards.map((card) => card.slug),
    }),
  );

  return {
    articles,
    articleBodies,
    memberBodies,
    campaigns,
    boycotts,
    resourceGroups,
    highlights,
    pages,
    standalonePages,
    newsletters: issues,
    newsletterListings,
    perks: sortPerks(content.perks.map(({ data }) => data)),
    artwork,
    topics,
    index: createSiteIndex(content, css, [...topics.values()]),
    gone: addresses.gone,
    moved: addresses.moved,
  };
}

/** Posts from the database always have their id; only a folder's files may leave it out. */
const idOf = (data: { id?: number }) => data.id ?? 0;

const emptyBody = (): MarkdownTree => ({ type: 'root', children: [] });

/** In the categories' order, then by partner: how /perks lists them. Nothing secret is here. */
function sortPerks(perks: Perk[]): Perk[] {
  const rank = (perk: Perk) => PERK_CATEGORIES.indexOf(perk.category);
  return [...perks].sort((a, b) => rank(a) - rank(b) || a.partner.localeCompare(b.partner));
}

function themeOf(category: ArticleSummary['category']): ArtworkTheme {
  return category === 'Health' ? 'health' : 'wealth';
}

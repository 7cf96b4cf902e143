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
} from '../src/features/content/types.js';
import { PERK_CATEGORIES, type Perk } from '../../contract/perks.js';
import type { NewsletterListing } from '../../contract/newsletters.js';
import { compareNewestFirst } from '../src/features/content/newest-first.js';
import { generateArtwork, type ArtworkTheme } from './generate-artwork.js';
import type { LoadedContent } from './load-content.js';

/** The prefix of every content module the client imports, e.g. `virtual:content/articles`. */
export const CONTENT_MODULE_PREFIX = 'virtual:content/';

/** How many of each section's newest items the home page shows. */
export const HOME_ITEMS_PER_SECTION = 3;

export interface ArtworkFile {
  /** Path inside the build output, e.g. `assets/art/sleep-debt-reset-1a2b3c4d.svg`. */
  fileName: string;
  url: string;
  svg: string;
}

export interface ContentBundle {
  /** Module source by name (the part after CONTENT_MODULE_PREFIX). */
  modules: Map<string, string>;
  artwork: ArtworkFile[];
}

/**
 * Turns validated content into the modules the client imports and the artwork files the site
 * serves. Lists are small modules of metadata; each article body is a module of its own, so it
 * becomes its own chunk, loaded only when that article is read.
 */
export function createContentBundle(content: LoadedContent, base = '/'): ContentBundle {
  const artwork: ArtworkFile[] = [];
  const heroImage = (seed: string, theme: ArtworkTheme) => {
    const file = createArtworkFile(seed, theme, base);
    artwork.push(file);
    return file.url;
  };

  const articles: ArticleSummary[] = content.articles
    .map(({ data }) => ({ ...data, heroImage: heroImage(data.slug, themeOf(data.category)) }))
    .sort(compareNewestFirst);
  const campaigns: Campaign[] = content.campaigns
    .map(({ data }) => ({ ...data, heroImage: heroImage(data.slug, 'direct-action') }))
    .sort(compareNewestFirst);
  const boycotts: Boycott[] = content.boycotts
    .map(({ data }) => ({
      ...data,
      updates: [...data.updates].sort((a, b) => b.date.localeCompare(a.date)),
      heroImage: heroImage(data.slug, 'collective'),
    }))
    .sort(compareNewestFirst);
  const resourceGroups: ResourceGroup[] = content.resourceGroups
    .map(({ data }) => ({
      ...data,
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
  // The build has checked that each related slug names one of these (check-collections.ts).
  const relatedItem = (slug: string): RelatedItem => {
    const article = articles.find((item) => item.slug === slug);
    if (article) return { kind: 'article', article };
    const campaign = campaigns.find((item) => item.slug === slug);
    if (campaign) return { kind: 'campaign', campaign };
    const group = groupSummaries.find((item) => item.slug === slug);
    if (group) return { kind: 'resource-group', group };
    throw new Error(`No article, campaign or resource group has the slug "${slug}"`);
  };
  const pages: PageCopy[] = content.pages.map(({ name, data: { related, ...data }, body }) => ({
    slug: name,
    ...data,
    ...(related && { related: related.map(relatedItem) }),
    body: body ?? { type: 'root', children: [] },
  }));

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

  const modules = new Map<string, string>([
    ['articles', articlesModule(articles)],
    ['campaigns', exportConst('campaigns', campaigns)],
    ['boycotts', exportConst('boycotts', boycotts)],
    ['resource-groups', exportConst('resourceGroups', resourceGroups)],
    ['home-highlights', exportConst('highlights', highlights)],
    ['perks', exportConst('perks', sortPerks(content.perks.map(({ data }) => data)))],
  ]);
  for (const { data, body } of content.articles) {
    modules.set(`article-body/${data.slug}`, `export default ${JSON.stringify(body)};`);
  }
  // The archive lists every issue; only public issues' bodies become modules. A members-only
  // body stays in dist/newsletters.json, for the server to give to members.
  const issues = newslettersModule(content.newsletters);
  modules.set('newsletters', issues.source);
  for (const { data, body } of issues.publicIssues) {
    modules.set(`newsletter-body/${data.slug}`, exportDefault(body));
  }
  for (const page of pages) {
    modules.set(`page/${page.slug}`, exportDefault(page));
    modules.set(
      `page-head/${page.slug}`,
      exportDefault({ title: page.title, description: page.description }),
    );
  }
  return { modules, artwork };
}

/** In the categories' order, then by partner: how /perks lists them. Nothing secret is here. */
function sortPerks(perks: Perk[]): Perk[] {
  const rank = (perk: Perk) => PERK_CATEGORIES.indexOf(perk.category);
  return [...perks].sort((a, b) => rank(a) - rank(b) || a.partner.localeCompare(b.partner));
}

function articlesModule(articles: ArticleSummary[]): string {
  const loaders = articles.map(
    ({ slug }) =>
      `  ${JSON.stringify(slug)}: () => import(${JSON.stringify(`${CONTENT_MODULE_PREFIX}article-body/${slug}`)}),`,
  );
  return [
    exportConst('articles', articles),
    `export const articleBodies = {\n${loaders.join('\n')}\n};`,
  ].join('\n');
}

function newslettersModule(newsletters: LoadedContent['newsletters']) {
  const sorted = [...newsletters].sort(
    (a, b) =>
      b.data.publishedAt.localeCompare(a.data.publishedAt) ||
      a.data.slug.localeCompare(b.data.slug),
  );
  const listings: NewsletterListing[] = sorted.map(({ data }) => ({ ...data }));
  const publicIssues = sorted.filter(({ data }) => !data.membersOnly);
  const loaders = publicIssues.map(
    ({ data: { slug } }) =>
      `  ${JSON.stringify(slug)}: () => import(${JSON.stringify(`${CONTENT_MODULE_PREFIX}newsletter-body/${slug}`)}),`,
  );
  const source = [
    exportConst('newsletters', listings),
    `export const newsletterBodies = {\n${loaders.join('\n')}\n};`,
  ].join('\n');
  return { source, publicIssues };
}

function createArtworkFile(seed: string, theme: ArtworkTheme, base: string): ArtworkFile {
  const svg = generateArtwork(seed, theme);
  const hash = createHash('sha256').update(svg).digest('hex').slice(0, 10);
  const fileName = `assets/art/${seed}-${hash}.svg`;
  return { fileName, url: `${base}${fileName}`, svg };
}

function themeOf(category: ArticleSummary['category']): ArtworkTheme {
  return category === 'Health' ? 'health' : 'wealth';
}

const exportConst = (name: string, value: unknown) =>
  `export const ${name} = ${JSON.stringify(value)};`;
const exportDefault = (value: unknown) => `export default ${JSON.stringify(value)};`;

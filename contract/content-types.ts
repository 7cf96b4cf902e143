import type { AuthorCredit } from './authors.js';
// The shapes the content pipeline hands to the client. Bodies are Markdown trees
// (contract/markdown-tree.ts).
import type { MarkdownTree } from './markdown-tree.js';

/** The shipped sections of articles; the site's are the publisher's (contract/sections.ts). */
export const articleCategories = ['Health', 'Wealth'] as const;
/** An article's section: the name of one of the site's sections of articles. */
export type ArticleCategory = string;

export const boycottStatuses = ['Ongoing', 'Success'] as const;
export type BoycottStatus = (typeof boycottStatuses)[number];

export interface ArticleSummary {
  id: number;
  slug: string;
  category: ArticleCategory;
  title: string;
  summary: string;
  publishedAt: string;
  readingMinutes: number;
  heroImage: string;
  /** The feature image's alt text (the generated artwork has none: it is decorative). */
  heroAlt?: string;
  /** What search engines and link previews show, when the writer set one. */
  seoTitle?: string;
  seoDescription?: string;
  /** For members: others read the summary and what comes before the divider. */
  membersOnly?: true;
  /** With `membersOnly`: who reads it whole, for its badge (contract/reading.ts readersLabel). */
  readers?: string;
  /** Topic names (contract/topics.ts), as the writer set them. */
  tags?: string[];
  /** Its byline: who wrote it (contract/authors.ts); left out when credited to nobody. */
  authors?: AuthorCredit[];
}

export interface Campaign {
  id: number;
  slug: string;
  category: 'Direct Action';
  title: string;
  summary: string;
  publishedAt: string;
  externalLink: string;
  heroImage: string;
  tags?: string[];
  /** Its story is for members: others read what comes before the divider. */
  membersOnly?: true;
  /** With `membersOnly`: who reads its story whole, for its badge (readersLabel). */
  readers?: string;
}

export interface Boycott {
  id: number;
  slug: string;
  title: string;
  reason: string;
  status: BoycottStatus;
  alternative: { name: string; description: string };
  /** Newest first. */
  updates: { date: string; note: string }[];
  heroImage: string;
  /** Its story is for members: others read what comes before the divider. */
  membersOnly?: true;
  /** With `membersOnly`: who reads its story whole, for its badge (readersLabel). */
  readers?: string;
}

export interface Resource {
  id: number;
  title: string;
  summary: string;
  link: string;
  heroImage: string;
}

export interface ResourceGroup {
  id: number;
  slug: string;
  category: string;
  description: string;
  resources: Resource[];
}

/** Longer site copy from content/pages (the home pitch, section intros, the Why essay). */
export interface PageCopy {
  slug: string;
  title: string;
  description: string;
  /** Shipped wording for the operator to adapt: the page says so until the flag is removed. */
  template?: true;
  /** What the page lists under its text (front matter `related`), resolved at build. */
  related?: RelatedItem[];
  body: MarkdownTree;
}

/** A resource group as a card shows it: its heading, description and how many resources. */
export type ResourceGroupSummary = Pick<
  ResourceGroup,
  'id' | 'slug' | 'category' | 'description'
> & {
  resourceCount: number;
  heroImage: string;
};

export type RelatedItem =
  | { kind: 'article'; article: ArticleSummary }
  | { kind: 'campaign'; campaign: Campaign }
  | { kind: 'resource-group'; group: ResourceGroupSummary };

/**
 * A page of its own, at `/<slug>` (a page post whose slug is not a screen's: contract/posts.ts):
 * what its heading and head show. Its body is sent apart, like an article's.
 */
export interface StandalonePage {
  id: number;
  slug: string;
  title: string;
  description: string;
  /** The day its text last changed. */
  updatedAt: string;
  /** The writer's image above the text, when they set one, and its alt text. */
  featureImage?: string;
  featureImageAlt?: string;
  /** What search engines and link previews show, when the writer set one. */
  seoTitle?: string;
  seoDescription?: string;
  /** For members: others read what comes before the divider. */
  membersOnly?: true;
  /** Its byline (contract/authors.ts); left out when credited to nobody. */
  authors?: AuthorCredit[];
}

/** What a page's heading and meta description need, without its body. */
export type PageHead = Pick<PageCopy, 'title' | 'description'>;

/**
 * What the home page lists below its hero, as its settings choose (contract/site-settings.ts
 * HomeSettings): the pinned articles, then the newest items of each section it shows, only what
 * their cards show.
 */
export interface HomeHighlights {
  /** The pinned articles still published, in the owners' order. */
  featured: ArticleSummary[];
  /** The slugs of the sections listed, in order (renamed ones followed, deleted ones left out). */
  sections: string[];
  /** Each section of articles' newest, pinned ones aside, by the section's name (`category`). */
  articles: Record<string, ArticleSummary[]>;
  campaigns: Campaign[];
  boycotts: Pick<Boycott, 'id' | 'slug' | 'title' | 'status' | 'reason' | 'heroImage'>[];
  resourceGroups: ResourceGroupSummary[];
}

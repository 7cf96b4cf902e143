// The shapes the content pipeline hands to the client. Bodies are a safe subset of mdast: the
// build parses Markdown and keeps only these nodes, so the client never sees raw HTML.

export const articleCategories = ['Health', 'Wealth'] as const;
export type ArticleCategory = (typeof articleCategories)[number];

export const boycottStatuses = ['Ongoing', 'Success'] as const;
export type BoycottStatus = (typeof boycottStatuses)[number];

export type InlineNode =
  | { type: 'text'; value: string }
  | { type: 'strong' | 'emphasis'; children: InlineNode[] }
  | { type: 'link'; url: string; children: InlineNode[] }
  | { type: 'inlineCode'; value: string }
  | { type: 'break' };

export interface ListItemNode {
  type: 'listItem';
  children: BlockNode[];
}

export type BlockNode =
  | { type: 'paragraph'; children: InlineNode[] }
  | { type: 'heading'; depth: 2 | 3 | 4; children: InlineNode[] }
  | {
      type: 'list';
      ordered: boolean;
      start: number | null;
      spread: boolean;
      children: ListItemNode[];
    }
  | { type: 'blockquote'; children: BlockNode[] }
  | { type: 'code'; value: string }
  | { type: 'thematicBreak' };

export interface MarkdownTree {
  type: 'root';
  children: BlockNode[];
}

export interface ArticleSummary {
  id: number;
  slug: string;
  category: ArticleCategory;
  title: string;
  summary: string;
  publishedAt: string;
  readingMinutes: number;
  heroImage: string;
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
  body: MarkdownTree;
}

/** What a page's heading and meta description need, without its body. */
export type PageHead = Pick<PageCopy, 'title' | 'description'>;

/** The newest items of each section, for the home page: only what its cards show. */
export interface HomeHighlights {
  health: ArticleSummary[];
  wealth: ArticleSummary[];
  campaigns: Campaign[];
  boycotts: Pick<Boycott, 'id' | 'slug' | 'title' | 'status' | 'reason' | 'heroImage'>[];
  resourceGroups: (Pick<ResourceGroup, 'id' | 'slug' | 'category' | 'description'> & {
    resourceCount: number;
    heroImage: string;
  })[];
}

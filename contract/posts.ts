import { NEWSLETTER_PATHS } from './newsletters.js';
import { categoryPath, contentPages, paths } from './site-paths.js';

// Posts: every kind of editorial content, in the database (decision 16). A post's JSON uses the
// front-matter names of content/FORMAT.md (`slug`, `title`, `summary`, `category`, a boycott's
// `status` as `boycottStatus`…) plus what every post has.

export const POST_KINDS = [
  'article',
  'campaign',
  'boycott',
  'resources',
  'page',
  'newsletter',
] as const;
export type PostKind = (typeof POST_KINDS)[number];

/** Each kind's folder in a content folder (content/FORMAT.md). */
export const POST_FOLDERS: Record<PostKind, string> = {
  article: 'articles',
  campaign: 'campaigns',
  boycott: 'boycotts',
  resources: 'resources',
  page: 'pages',
  newsletter: 'newsletters',
};

export const POST_STATUSES = ['draft', 'scheduled', 'published'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

export const POST_VISIBILITIES = ['public', 'members'] as const;
export type PostVisibility = (typeof POST_VISIBILITIES)[number];

/** A post as the desk's API and the import and export see it. */
export interface PostJson {
  id: number;
  kind: PostKind;
  slug: string;
  title: string;
  status: PostStatus;
  visibility: PostVisibility;
  /** ISO date-time; for a scheduled post, when it goes live. */
  publishedAt: string | null;
  /** Markdown; empty for kinds without a body. */
  body: string;
  featureImage: string | null;
  featureImageAlt: string | null;
  seoTitle: string | null;
  seoDescription: string | null;
  version: number;
  updatedAt: string;
  /** Where it is seen on the site (contract postPath). */
  path: string;
  /** When a writer submitted it for publishing; null when not waiting. */
  submittedAt: string | null;
  /** The kind's other fields, by their front-matter names (contract/post-fields.ts). */
  [field: string]: unknown;
}

/** The screens a page's text appears on, by the page's slug: a page post is one of these. */
export const PAGE_SCREENS: Record<string, string> = {
  home: paths.home,
  why: paths.earlyAccess,
  collective: paths.collective,
  empowerment: paths.empowerment,
  ...Object.fromEntries(contentPages.map((page) => [page.slug, page.path])),
};

/**
 * Where a post is seen: its own page for an article or a newsletter issue, the screen that lists
 * it for the other kinds.
 */
export function postPath(post: { kind: PostKind; slug: string; category?: unknown }): string {
  switch (post.kind) {
    case 'article':
      return `${categoryPath(String(post.category ?? ''))}/${post.slug}`;
    case 'newsletter':
      return `${NEWSLETTER_PATHS.archive}/${post.slug}`;
    case 'campaign':
      return paths.directAction;
    case 'boycott':
      return paths.collective;
    case 'resources':
      return paths.empowerment;
    case 'page':
      return PAGE_SCREENS[post.slug] ?? paths.home;
  }
}

/** The kinds whose posts have an address of their own (so an old one can answer 301 or 410). */
export const KINDS_WITH_PAGES: readonly PostKind[] = ['article', 'newsletter'];

/**
 * The "members only from here" divider: a line of its own in a post's Markdown. In a members-only
 * post, visitors and non-members get what comes before it; without one, none of the body. An HTML
 * comment, so any other Markdown reader shows nothing for it.
 */
export const MEMBERS_DIVIDER = '<!-- members-only -->';
const DIVIDER_LINE = /^[ \t]*<!--\s*members-only\s*-->[ \t]*$/m;

/** A body split at its divider: what everyone may read, and the rest (null: no divider). */
export function splitAtDivider(markdown: string): { before: string; after: string | null } {
  const match = DIVIDER_LINE.exec(markdown);
  if (!match) return { before: markdown, after: null };
  return {
    before: markdown.slice(0, match.index).trimEnd(),
    after: markdown.slice(match.index + match[0].length).trimStart(),
  };
}

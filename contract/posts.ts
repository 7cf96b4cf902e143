import type { PostVisibility } from './reading.js';
import { articleCategories } from './content-types.js';
import { SERVER_PATHS } from './constants.js';
import { NEWSLETTER_PATHS } from './newsletters.js';
import { isSectionScreen, SCREENS, screenLists, type Screen } from './screens.js';
import { specialListPath, type SpecialList } from './sections.js';
import { MANIFEST_ICONS, SITE_FILES } from './site-index.js';
import { categoryPath, paths, redirects, serverOwnPaths } from './site-paths.js';

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

/**
 * The kinds that have a body: an article, a page and a newsletter issue need one; a campaign's
 * or a boycott's (the story behind it) is the writer's choice. A resource list has none, so
 * nothing of it can be for members only.
 */
export const KINDS_WITH_BODY: readonly PostKind[] = [
  'article',
  'page',
  'newsletter',
  'campaign',
  'boycott',
];
/** The kinds that cannot go live without a body. */
export const KINDS_NEEDING_BODY: readonly PostKind[] = ['article', 'page', 'newsletter'];

export const POST_STATUSES = ['draft', 'scheduled', 'published'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

export { POST_VISIBILITIES, type PostVisibility } from './reading.js';

/** A post as the desk's API and the import and export see it. */
export interface PostJson {
  id: number;
  kind: PostKind;
  slug: string;
  title: string;
  status: PostStatus;
  visibility: PostVisibility;
  /**
   * With visibility `tiers`: the slugs of the tiers whose members may read it; else empty. The
   * server always sends it; a post sent without it keeps its tiers.
   */
  tiers?: string[];
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
  /**
   * Its authors' slugs, in byline order (contract/authors.ts); empty: credited to nobody. The
   * server always sends it; a post sent without it keeps its authors.
   */
  authors?: string[];
  /** When it was deleted, for a post in the Trash (the desk's list with `status=deleted`). */
  deletedAt?: string;
  /** The kind's other fields, by their front-matter names (contract/post-fields.ts). */
  [field: string]: unknown;
}

/**
 * The screens a page's text appears on, by the page's slug: a page post with one of these slugs is
 * that screen's text; a page post with any other slug is a page of its own, at `/<slug>`.
 */
export const PAGE_SCREENS: Record<string, string> = Object.fromEntries(
  SCREENS.flatMap((screen: Screen) => (screen.text ? [[screen.text, screen.path]] : [])),
);

/** Whether a page post is the text of one of the site's screens (PAGE_SCREENS). */
export const isScreenText = (slug: string) => Object.hasOwn(PAGE_SCREENS, slug);

/** The screens' texts shown on a special kind's section (`collective`: boycotts), by slug. */
const SECTION_TEXTS: ReadonlyMap<string, SpecialList> = new Map(
  SCREENS.flatMap((screen: Screen) => {
    const lists = screenLists(screen);
    return screen.text && isSectionScreen(screen) && lists !== 'articles'
      ? [[screen.text, lists] as const]
      : [];
  }),
);

/** The kinds a section of a special kind lists, and which. */
export const KIND_SECTIONS = {
  campaign: 'campaigns',
  boycott: 'boycotts',
  resources: 'resources',
} as const satisfies Partial<Record<PostKind, SpecialList>>;

/** What the section listing posts of this kind lists, for the special kinds; else undefined. */
export const kindSection = (kind: PostKind): SpecialList | undefined =>
  (KIND_SECTIONS as Partial<Record<PostKind, SpecialList>>)[kind];

/**
 * Where a post is seen: its own page for an article, a newsletter issue or a page that is not a
 * screen's text, the screen that lists it for the other kinds.
 */
export function postPath(
  post: { kind: PostKind; slug: string; category?: unknown },
  /** Each article section's slug by its name (contract/sections.ts); else the seed's rule. */
  sectionSlugs?: ReadonlyMap<string, string>,
  /** The section of each special kind (contract/sections.ts specialSectionSlugs). */
  special?: ReadonlyMap<SpecialList, string>,
): string {
  switch (post.kind) {
    case 'article': {
      const category = String(post.category ?? '');
      const slug = sectionSlugs?.get(category);
      return `${slug ? `/${slug}` : categoryPath(category)}/${post.slug}`;
    }
    case 'newsletter':
      return `${NEWSLETTER_PATHS.archive}/${post.slug}`;
    case 'campaign':
    case 'boycott':
    case 'resources':
      return specialListPath(KIND_SECTIONS[post.kind], special);
    case 'page': {
      const lists = SECTION_TEXTS.get(post.slug);
      if (lists) return specialListPath(lists, special);
      return isScreenText(post.slug) ? (PAGE_SCREENS[post.slug] ?? paths.home) : `/${post.slug}`;
    }
  }
}

/** The kinds whose posts may have an address of their own (a page only when hasOwnAddress). */
export const KINDS_WITH_PAGES: readonly PostKind[] = ['article', 'newsletter', 'page'];

/**
 * Whether a post has an address of its own, so that an old one can answer 301 or 410: never a
 * screen's text (the screen stays whatever its text does).
 */
export function hasOwnAddress(post: { kind: PostKind; slug: string }): boolean {
  return post.kind === 'page' ? !isScreenText(post.slug) : KINDS_WITH_PAGES.includes(post.kind);
}

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Every first segment of an address the site or its server answers, and what answers it: the
 * screens (contract/screens.ts, and the shipped sections of articles), the
 * old addresses that redirect, what the server answers itself and the files of the built client.
 * A file's name counts without its extension as well: a slug has no dot.
 */
const TAKEN_SEGMENTS: ReadonlyMap<string, string> = (() => {
  const taken = new Map<string, string>();
  const take = (path: string, why: string) => {
    const segment = path.split('/')[1] ?? '';
    for (const name of [segment, segment.replace(/\.[^.]*$/, '')]) {
      if (name !== '' && !taken.has(name)) taken.set(name, why);
    }
  };
  const screen = (path: string) => `${path} is one of the site's own screens`;
  for (const path of [
    ...SCREENS.map((row) => row.path).filter((path) => !path.startsWith('/:')),
    ...articleCategories.map(categoryPath),
  ]) {
    take(path, screen(path.split('/').slice(0, 2).join('/')));
  }
  for (const { from } of redirects) take(from, `${from} leads to another screen of the site`);
  for (const path of [
    ...SERVER_PATHS,
    ...SITE_FILES,
    ...MANIFEST_ICONS.map((icon) => icon.src),
    ...Object.values(serverOwnPaths),
  ]) {
    take(path, `${path} is an address the site's server answers itself`);
  }
  return taken;
})();

/** What answers at `/<segment>` already (a screen, a server path, a file), or null. */
export const segmentTakenBy = (segment: string): string | null =>
  TAKEN_SEGMENTS.get(segment) ?? null;

/**
 * Why a page post may not have this slug as a page of its own at `/<slug>`, in words a publisher
 * understands; null when it may. A screen's slug (PAGE_SCREENS) names that screen's text, not a
 * page of its own.
 */
export function pageSlugProblem(slug: string): string | null {
  if (!SLUG_PATTERN.test(slug)) return 'must be lower-case words joined by hyphens';
  if (isScreenText(slug)) {
    const lists = SECTION_TEXTS.get(slug);
    const screen = lists ? `section of ${lists}` : `${PAGE_SCREENS[slug]} screen`;
    return `a page with the slug "${slug}" is the text of the site's ${screen}, not a page of its own`;
  }
  const taken = TAKEN_SEGMENTS.get(slug);
  return taken ? `${taken}: choose another slug` : null;
}

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

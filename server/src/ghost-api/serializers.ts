import { authorPath, type Author } from '../../../contract/authors.js';
import { isScreenText, postPath } from '../../../contract/posts.js';
import { mayRead, VISITOR } from '../../../contract/reading.js';
import { topicPath, topicSlug } from '../../../contract/topics.js';
import type { CardReadings } from '../content/markdown-to-tree.js';
import type { PostRow } from '../content/post-row.js';
import { publicPartOf, summaryOf } from '../content/post-summary.js';
import { ghostId, ghostUuid } from '../imports/ghost-ids.js';
import { absolute, htmlOfMarkdown } from '../imports/ghost-html.js';
import { ghostVisibilityOf, type GhostVisibility } from '../imports/ghost-visibility.js';

/**
 * Cohort's posts, topics and authors in the shapes of Ghost's APIs (docs/ghost-api.md), for the
 * Content API and the Admin API alike. What maps to what:
 *
 * - Articles, campaigns, boycotts and newsletter issues are Ghost **posts**; pages of their own
 *   (`/<slug>`) are Ghost **pages**. Resource lists and the screens' own text have no Ghost
 *   counterpart and are left out.
 * - An article's section is its first tag (so its `primary_tag`); then its topics, each a tag.
 *   Newsletter issues carry the internal tag `#newsletter`, as the Ghost export writes it.
 * - Ids are those the Ghost export writes (imports/ghost-export.ts): 24 hex digits and a UUID
 *   derived from the site's address and the row's id, so they are the same on every request and
 *   in an export. Authors' ids come from their slugs.
 * - `visibility` is in Ghost's words (imports/ghost-visibility.ts): `public`, `members` for a post
 *   for anyone signed in (Ghost's members include its free ones), `paid` for paying members,
 *   `tiers` for a tier's; the tiers themselves are ghost-tiers.ts's. `featured` is always false:
 *   Cohort has no such flag.
 */

/** What every serialiser needs of the site. */
export interface GhostSite {
  siteUrl: string;
  /** Each article section's slug by its name (SiteContent's `sectionSlugs`). */
  sectionSlugs: ReadonlyMap<string, string>;
}

export interface GhostTag {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  feature_image: null;
  visibility: 'public' | 'internal';
  og_image: null;
  og_title: null;
  og_description: null;
  twitter_image: null;
  twitter_title: null;
  twitter_description: null;
  meta_title: null;
  meta_description: null;
  codeinjection_head: null;
  codeinjection_foot: null;
  canonical_url: null;
  accent_color: null;
  url: string;
}

export interface GhostAuthor {
  id: string;
  name: string;
  slug: string;
  profile_image: string | null;
  cover_image: null;
  bio: string | null;
  website: string | null;
  location: null;
  facebook: null;
  twitter: null;
  meta_title: null;
  meta_description: null;
  url: string;
}

/** A Ghost post or page as the Content API answers it (with every include and format). */
export interface GhostPost {
  id: string;
  uuid: string;
  title: string;
  slug: string;
  html: string;
  plaintext: string;
  comment_id: string;
  feature_image: string | null;
  feature_image_alt: string | null;
  feature_image_caption: null;
  featured: boolean;
  visibility: GhostVisibility;
  /** Whether a reader with a content key alone (no member) may read it all. */
  access: boolean;
  created_at: string;
  updated_at: string;
  published_at: string | null;
  custom_excerpt: string | null;
  excerpt: string;
  codeinjection_head: null;
  codeinjection_foot: null;
  custom_template: null;
  canonical_url: null;
  url: string;
  reading_time: number;
  tags: GhostTag[];
  authors: GhostAuthor[];
  primary_tag: GhostTag | null;
  primary_author: GhostAuthor | null;
  og_image: null;
  og_title: null;
  og_description: null;
  twitter_image: null;
  twitter_title: null;
  twitter_description: null;
  meta_title: string | null;
  meta_description: string | null;
  email_subject: null;
  frontmatter: null;
}

/** Which Ghost resource a kind of post is, or null for kinds Ghost has no counterpart for. */
export function ghostTypeOf(row: Pick<PostRow, 'kind' | 'slug'>): 'post' | 'page' | null {
  const { kind } = row;
  if (kind === 'article' || kind === 'campaign' || kind === 'boycott' || kind === 'newsletter') {
    return 'post';
  }
  return kind === 'page' && !isScreenText(row.slug) ? 'page' : null;
}

const NEWSLETTER_TAG = '#newsletter';

/** A tag by its name as written (a topic, a section, an internal `#tag`). */
export function ghostTag(
  site: GhostSite,
  name: string,
  options: { slug?: string; description?: string | null; path?: string } = {},
): GhostTag {
  const internal = name.startsWith('#');
  const slug = options.slug ?? (internal ? `hash-${topicSlug(name)}` : topicSlug(name));
  return {
    id: ghostId(site.siteUrl, 'tag', slug),
    name,
    slug,
    description: options.description ?? null,
    feature_image: null,
    visibility: internal ? 'internal' : 'public',
    og_image: null,
    og_title: null,
    og_description: null,
    twitter_image: null,
    twitter_title: null,
    twitter_description: null,
    meta_title: null,
    meta_description: null,
    codeinjection_head: null,
    codeinjection_foot: null,
    canonical_url: null,
    accent_color: null,
    url: `${site.siteUrl}${options.path ?? topicPath(slug)}`,
  };
}

/** An author (a staff member's public profile). */
export function ghostAuthor(site: GhostSite, author: Author): GhostAuthor {
  return {
    id: ghostId(site.siteUrl, 'author', author.slug),
    name: author.name,
    slug: author.slug,
    profile_image: author.picture ? absolute(site.siteUrl, author.picture) : null,
    cover_image: null,
    bio: author.bio === '' ? null : author.bio,
    website: author.links[0] ?? null,
    location: null,
    facebook: null,
    twitter: null,
    meta_title: null,
    meta_description: null,
    url: `${site.siteUrl}${authorPath(author.slug)}`,
  };
}

/** A post's tags in Ghost's order: an article's section first, then its topics, then internal ones. */
export function ghostTagsOf(site: GhostSite, row: Pick<PostRow, 'kind' | 'fields'>): GhostTag[] {
  const tags: GhostTag[] = [];
  const category = row.fields.category;
  if (row.kind === 'article' && typeof category === 'string') {
    const slug = site.sectionSlugs.get(category);
    if (slug) tags.push(ghostTag(site, category, { slug, path: `/${slug}` }));
  }
  const topics = Array.isArray(row.fields.tags) ? row.fields.tags : [];
  for (const name of topics) {
    if (typeof name !== 'string') continue;
    const tag = ghostTag(site, name);
    if (tag.slug !== '' && !tags.some((held) => held.slug === tag.slug)) tags.push(tag);
  }
  if (row.kind === 'newsletter') tags.push(ghostTag(site, NEWSLETTER_TAG));
  return tags;
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** The text of HTML as Ghost's `plaintext` gives it: blocks on lines of their own. */
export function plaintextOf(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|h[1-6]|li|blockquote|pre|figure|figcaption|tr|table|ul|ol|div)>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) {
        return String.fromCodePoint(parseInt(name.slice(2), 16));
      }
      if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Ghost's reading time: 275 words a minute, at least one minute for any text. */
function readingTimeOf(plaintext: string, row: Pick<PostRow, 'fields'>): number {
  const given = row.fields.readingMinutes;
  if (typeof given === 'number') return given;
  const words = plaintext.split(/\s+/).filter((word) => word !== '').length;
  return words === 0 ? 0 : Math.max(1, Math.round(words / 275));
}

const textOf = (fields: Record<string, unknown>, name: string) => {
  const value = fields[name];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
};

/** A post's own summary, as Ghost's `custom_excerpt`. */
function customExcerptOf(row: Pick<PostRow, 'fields'>): string | null {
  return (
    textOf(row.fields, 'summary') ??
    textOf(row.fields, 'description') ??
    textOf(row.fields, 'reason')
  );
}

/**
 * A post or page in Ghost's shape. `reader`: `public` gives a restricted post's opening only (the
 * text before the divider, else nothing), as Ghost does for a content key, whose reader is no
 * member; `whole` gives all of it (the Admin API's staff and integrations).
 */
export function ghostPost(
  site: GhostSite,
  post: {
    row: PostRow;
    authors: readonly Author[];
    createdAt?: Date;
    /** What was read of the addresses its cards hold: its cards as Ghost's, with their titles. */
    cards?: CardReadings;
  },
  reader: 'public' | 'whole',
): GhostPost {
  const { row } = post;
  // A content key is no member: it reads what a visitor reads.
  const access = mayRead({ visibility: row.visibility, tiers: row.tiers }, VISITOR);
  const markdown = reader === 'public' ? publicPartOf(row) : row.body;
  const html = markdown.trim() === '' ? '' : htmlOfMarkdown(markdown, site.siteUrl, post.cards);
  const plaintext = plaintextOf(html);
  const tags = ghostTagsOf(site, row);
  const authors = post.authors.map((author) => ghostAuthor(site, author));
  const customExcerpt = customExcerptOf(row);
  const path = postPath(
    { kind: row.kind, slug: row.slug, category: row.fields.category },
    site.sectionSlugs,
  );
  return {
    id: ghostId(site.siteUrl, 'post', row.id),
    uuid: ghostUuid(site.siteUrl, 'post', row.id),
    title: row.title,
    slug: row.slug,
    html,
    plaintext,
    comment_id: String(row.id),
    feature_image: row.featureImage ? absolute(site.siteUrl, row.featureImage) : null,
    feature_image_alt: row.featureImageAlt,
    feature_image_caption: null,
    featured: false,
    visibility: ghostVisibilityOf(row.visibility),
    access,
    created_at: (post.createdAt ?? row.publishedAt ?? row.updatedAt).toISOString(),
    updated_at: row.updatedAt.toISOString(),
    published_at: row.status === 'draft' ? null : (row.publishedAt?.toISOString() ?? null),
    custom_excerpt: customExcerpt,
    // Made, when the post has no summary of its own, from what visitors read, whoever asks.
    excerpt: customExcerpt ?? summaryOf(row),
    codeinjection_head: null,
    codeinjection_foot: null,
    custom_template: null,
    canonical_url: null,
    url: `${site.siteUrl}${path}`,
    reading_time: readingTimeOf(plaintext, row),
    tags,
    authors,
    primary_tag: tags.find((tag) => tag.visibility === 'public') ?? null,
    primary_author: authors[0] ?? null,
    og_image: null,
    og_title: null,
    og_description: null,
    twitter_image: null,
    twitter_title: null,
    twitter_description: null,
    meta_title: row.seoTitle,
    meta_description: row.seoDescription,
    email_subject: null,
    frontmatter: null,
  };
}

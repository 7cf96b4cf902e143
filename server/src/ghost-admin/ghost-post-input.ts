import type { GhostPostInput } from '../../../contract/ghost-admin-api.js';
import { parseUploadUrl } from '../../../contract/images.js';
import type { PostVisibility } from '../../../contract/reading.js';
import { MAX_TAGS, topicSlug } from '../../../contract/topics.js';
import type { PostRow } from '../content/post-row.js';
import { cutAtWord, isMadeSummary, summaryOf } from '../content/post-summary.js';
import { DomainError } from '../domain-error.js';
import type { GhostTier } from '../ghost-api/ghost-tiers.js';
import { cleanSlug } from '../imports/clean-slug.js';
import { renderLexical, renderMobiledoc } from '../imports/ghost-cards.js';
import { wordCountOf } from '../content/markdown-text.js';
import { visibilityOfGhost } from '../imports/ghost-visibility.js';
import { htmlToMarkdown, rewriteImages } from '../imports/html-to-markdown.js';

/**
 * A post or page as Ghost's Admin API is sent it (`{posts: [{…}]}`), read into the site's terms
 * (docs/ghost-api.md#admin-api): its body from HTML (`?source=html`), Lexical or Mobiledoc, turned
 * into the site's Markdown by the importer's sanitising converter; Ghost's field names onto the
 * site's columns. What the site has no place for (`featured`, `codeinjection_*`, `og_*`…) is
 * taken and not kept.
 */

/** A refusal in Ghost's terms: 422 ValidationError, naming the field. */
export const invalidGhostField = (field: string, message: string) =>
  new DomainError(400, 'invalid_post', `Validation error, cannot save post: ${field} ${message}.`, {
    ghostType: 'ValidationError',
    ghostContext: `${field} ${message}`,
  });

/** A text field as sent (undefined: not sent), held to its length. */
const textOf = (value: string | null | undefined, field: string, max: number) => {
  if (value && value.length > max)
    throw invalidGhostField(field, `must be at most ${max} characters`);
  return value;
};

/** The site's Markdown for the body the input carries, or undefined when it carries none. */
export function markdownOf(input: GhostPostInput, siteUrl: string): string | undefined {
  let html: string | undefined;
  try {
    if (input.lexical !== undefined && input.lexical !== null) {
      html = renderLexical(input.lexical);
    } else if (input.mobiledoc !== undefined && input.mobiledoc !== null) {
      html = renderMobiledoc(input.mobiledoc);
    }
  } catch {
    throw invalidGhostField(input.lexical ? 'lexical' : 'mobiledoc', 'is not valid JSON');
  }
  if (html === undefined) {
    const given = textOf(input.html, 'html', 2_000_000);
    if (given === undefined) return undefined;
    html = given ?? '';
  }
  const { markdown } = htmlToMarkdown(html, { flavour: 'ghost', siteUrl });
  return rewriteImages(markdown, (image) => {
    const path = ownUploadPath(image.url, siteUrl);
    if (!path) return null;
    return { url: path, alt: image.alt?.trim() || image.caption?.trim() || 'Image' };
  }).trim();
}

/**
 * An image address as an upload of this site (`/uploads/…`, as images/upload/ answered it,
 * absolute or not); null for any other (kept as a link in a body: the site shows only its own).
 */
export function ownUploadPath(url: string, siteUrl: string): string | null {
  const path = url.startsWith(siteUrl) ? url.slice(siteUrl.length) : url;
  return parseUploadUrl(path) ? path : null;
}

/** Tags as Ghost sends them (names, `{name}` or `{slug}` objects) as the site's topic names. */
export function tagNamesOf(
  input: GhostPostInput,
  knownNames: ReadonlyMap<string, string>,
): string[] {
  const names: string[] = [];
  for (const tag of input.tags ?? []) {
    const name =
      typeof tag === 'string'
        ? tag
        : (tag.name ??
          (tag.slug === undefined
            ? null
            : (knownNames.get(tag.slug) ?? tag.slug.replace(/-/g, ' '))));
    if (name === null) throw invalidGhostField('tags', 'must be names or {name} or {slug}');
    const trimmed = name.trim();
    // Ghost's internal tags (`#…`) are for its themes: not topics.
    if (trimmed.startsWith('#') || topicSlug(trimmed) === '') continue;
    if (!names.some((other) => topicSlug(other) === topicSlug(trimmed))) {
      names.push(cutAtWord(trimmed, 40, ''));
    }
  }
  if (names.length > MAX_TAGS) throw invalidGhostField('tags', `must be at most ${MAX_TAGS}`);
  return names;
}

/** What a new post or a change says, in the site's columns (undefined: not said). */
export interface ReadGhostPost {
  title?: string;
  slug?: string;
  body?: string;
  visibility?: PostVisibility;
  /** The tiers' slugs, when the input named tiers (kept only with visibility `tiers`). */
  tiers?: string[];
  featureImage?: string | null;
  featureImageAlt?: string | null;
  seoTitle?: string | null;
  seoDescription?: string | null;
  excerpt?: string | null;
  tags?: string[];
  status?: 'draft' | 'scheduled' | 'published';
  publishedAt?: Date | null;
  updatedAt?: string;
}

/**
 * The slugs of the tiers the input names (`{id}`, `{slug}` or a slug), of `tiers` (every tier in
 * Ghost's shape), in the tiers' order; Ghost's free tier is left out, as Ghost leaves it out of a tier's post. A tier
 * the site does not have is a ValidationError naming the ones it has.
 */
export function tierSlugsOf(
  given: NonNullable<GhostPostInput['tiers']>,
  tiers: readonly GhostTier[],
): string[] {
  const slugs: string[] = [];
  for (const item of given) {
    const ref = typeof item === 'string' ? { slug: item } : item;
    const matches = (tier: GhostTier) =>
      (ref.id !== undefined && tier.id === ref.id) ||
      (ref.slug !== undefined && tier.slug === ref.slug);
    const tier = tiers.find((each) => each.type === 'paid' && matches(each));
    if (tier) {
      if (!slugs.includes(tier.slug)) slugs.push(tier.slug);
      continue;
    }
    if (tiers.some((each) => each.type === 'free' && matches(each))) continue;
    const named = ref.slug ?? ref.id;
    const known = tiers.filter((each) => each.type === 'paid').map((each) => `"${each.slug}"`);
    throw invalidGhostField(
      'tiers',
      named === undefined
        ? 'must be tiers as {id} or {slug}'
        : `names no tier "${named}": the tiers are ${known.join(', ')}`,
    );
  }
  // In the tiers' order, whatever the order sent.
  return tiers.map((tier) => tier.slug).filter((slug) => slugs.includes(slug));
}

export function readGhostPost(
  input: GhostPostInput,
  site: {
    siteUrl: string;
    topicNames: ReadonlyMap<string, string>;
    /** Every tier in Ghost's shape (ghost-api/ghost-tiers.ts), for `tiers`. */
    tiers: readonly GhostTier[];
  },
): ReadGhostPost {
  const read: ReadGhostPost = {};
  const title = textOf(input.title, 'title', 200);
  if (title !== undefined) {
    if (!title?.trim()) throw invalidGhostField('title', 'is required');
    read.title = title.replace(/\s+/g, ' ').trim();
  }
  const slug = textOf(input.slug, 'slug', 180);
  if (slug) read.slug = cleanSlug(slug, read.title ?? slug, slug);
  const body = markdownOf(input, site.siteUrl);
  if (body !== undefined) read.body = body;
  if (input.visibility !== undefined) {
    const visibility = visibilityOfGhost(input.visibility);
    if (!visibility) {
      throw invalidGhostField('visibility', 'must be public, members, paid or tiers');
    }
    read.visibility = visibility;
  }
  if (input.tiers !== undefined && input.tiers !== null) {
    read.tiers = tierSlugsOf(input.tiers, site.tiers);
  }
  const image = textOf(input.feature_image, 'feature_image', 2000);
  if (image !== undefined) {
    const path = image === null || image === '' ? null : ownUploadPath(image, site.siteUrl);
    if (image && !path) {
      throw invalidGhostField(
        'feature_image',
        'must be an image uploaded to this site first (images/upload/)',
      );
    }
    read.featureImage = path;
  }
  const alt = textOf(input.feature_image_alt, 'feature_image_alt', 500);
  if (alt !== undefined) read.featureImageAlt = alt?.trim() || null;
  const seoTitle = textOf(input.meta_title, 'meta_title', 120);
  if (seoTitle !== undefined) read.seoTitle = seoTitle?.trim() || null;
  const seoDescription = textOf(input.meta_description, 'meta_description', 300);
  if (seoDescription !== undefined) read.seoDescription = seoDescription?.trim() || null;
  const excerpt = textOf(input.custom_excerpt, 'custom_excerpt', 300);
  if (excerpt !== undefined) read.excerpt = excerpt?.trim() || null;
  if (input.tags !== undefined) read.tags = tagNamesOf(input, site.topicNames);
  if (input.status !== undefined) {
    if (input.status !== 'draft' && input.status !== 'scheduled' && input.status !== 'published') {
      throw invalidGhostField('status', 'must be draft, scheduled or published');
    }
    read.status = input.status;
  }
  const publishedAt = textOf(input.published_at, 'published_at', 40);
  if (publishedAt !== undefined) {
    const at = publishedAt === null ? null : new Date(publishedAt);
    if (at && Number.isNaN(at.getTime())) {
      throw invalidGhostField('published_at', 'must be an ISO date and time');
    }
    read.publishedAt = at;
  }
  if (read.status === 'scheduled' && !(read.publishedAt && read.publishedAt > new Date())) {
    throw invalidGhostField('published_at', 'must be in the future for a scheduled post');
  }
  const updatedAt = textOf(input.updated_at, 'updated_at', 40);
  if (updatedAt) read.updatedAt = updatedAt;
  return read;
}

/** Words a minute, for an article's reading time (as the importer counts it). */
const WORDS_PER_MINUTE = 230;

/** Where each kind the Admin API may change keeps its summary (Ghost's `custom_excerpt`). */
const SUMMARY_FIELDS: Partial<Record<PostRow['kind'], 'summary' | 'description'>> = {
  article: 'summary',
  campaign: 'summary',
  newsletter: 'summary',
  page: 'description',
};

/**
 * The summary a change leaves a post with, as `{field: summary}`, or nothing to keep it. An
 * excerpt sent is the writer's (null or empty: none, so one is made). Without one, a summary the
 * site made is made again from the post as changed, for its body, visibility or title may have
 * moved what visitors read; one a writer typed stays. A writing app that read the post and sends
 * its made summary back as `custom_excerpt` has typed nothing.
 */
export function summaryAfterChange(
  row: Pick<PostRow, 'kind' | 'title' | 'body' | 'visibility' | 'fields'>,
  read: ReadGhostPost,
): Record<string, string> {
  const field = SUMMARY_FIELDS[row.kind];
  if (!field) return {};
  const kept = row.fields[field];
  const stored = typeof kept === 'string' ? kept : '';
  const made = stored === '' || isMadeSummary(stored, row);
  const after = {
    title: read.title ?? row.title,
    body: read.body ?? row.body,
    visibility: read.visibility ?? row.visibility,
  };
  const given = made && read.excerpt === stored ? undefined : read.excerpt;
  if (given === undefined && !made) return {};
  const summary = summaryOf(after, given);
  return summary === stored ? {} : { [field]: summary };
}

export const readingMinutesOf = (body: string) =>
  Math.min(60, Math.max(1, Math.round(wordCountOf(body) / WORDS_PER_MINUTE)));

/** A slug from a title, for a post sent without one. */
export const slugFromTitle = (title: string) => cleanSlug('', title, 'post');

/**
 * Who may read the post after a change (`current`: as it is; null for a new post), as the post
 * store takes it: `tiers` needs the tiers it names, any other visibility names none. Undefined
 * when the change says nothing of either.
 */
export function readingAfter(
  read: Pick<ReadGhostPost, 'visibility' | 'tiers'>,
  current: { visibility: PostVisibility; tiers: readonly string[] } | null,
): { visibility: PostVisibility; tiers: string[] } | undefined {
  const visibility = read.visibility ?? current?.visibility ?? 'public';
  if (visibility !== 'tiers') {
    return read.visibility === undefined && current ? undefined : { visibility, tiers: [] };
  }
  const tiers = read.tiers ?? (current?.visibility === 'tiers' ? [...current.tiers] : []);
  if (tiers.length === 0) {
    throw invalidGhostField('tiers', 'must name at least one paid tier for visibility tiers');
  }
  if (read.visibility === undefined && read.tiers === undefined && current) return undefined;
  return { visibility, tiers };
}

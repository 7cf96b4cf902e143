import type { Author } from '../../../contract/authors.js';
import type { CardReading } from '../../../contract/embeds.js';
import type { BlockNode, MarkdownTree } from '../../../contract/markdown-tree.js';
import type { ReadingRule } from '../../../contract/reading.js';
import type { CardReadings } from '../content/markdown-to-tree.js';
import type { SiteContent } from '../content/site-content.js';
import { ghostId } from '../imports/ghost-ids.js';
import { ghostVisibilityOf, type GhostVisibility } from '../imports/ghost-visibility.js';
import { parseFilter, type FieldValues, type Filter } from './filter.js';
import { badRequest, notFound } from './ghost-error.js';
import { ghostPostTiers, type GhostTier } from './ghost-tiers.js';
import { listOf, paginate, parseOrder, pick, type GhostQuery } from './ghost-query.js';
import {
  ghostAuthor,
  ghostPost,
  ghostTagsOf,
  ghostTypeOf,
  type GhostAuthor,
  type GhostPost,
  type GhostSite,
  type GhostTag,
} from './serializers.js';

/**
 * What Ghost's Content API answers (docs/ghost-api.md), drawn from the same published content the
 * site's pages are (plugins/app/site-content-plugin.ts): one index per generation of that content,
 * made the first time the API is asked after a change. A post's HTML is drawn the first time it is
 * asked for; every answer's text is kept, by its query, until the content changes again, so a
 * front end asking the same page again costs a lookup.
 */

type Scalar = string | number | boolean | null;
type Row = Record<string, unknown>;

interface PostEntry {
  id: string;
  slug: string;
  title: string;
  publishedAt: string;
  updatedAt: string;
  visibility: GhostVisibility;
  /** Who may read it all (contract/reading.ts). */
  rule: ReadingRule;
  tags: GhostTag[];
  authors: GhostAuthor[];
  /** The post in Ghost's shape with its public text, drawn once when first asked for. */
  full(): GhostPost;
}

/** A tag or an author, and how many published posts (not pages) carry it. */
interface CountedEntry<Item extends GhostTag | GhostAuthor = GhostTag | GhostAuthor> {
  item: Item;
  posts: number;
}

export interface GhostContentIndex {
  posts: PostEntry[];
  pages: PostEntry[];
  tags: CountedEntry<GhostTag>[];
  authors: CountedEntry<GhostAuthor>[];
  /** Answers' bytes (JSON) by their query, for this generation of the content. */
  answers: Map<string, Buffer>;
  /**
   * Content keys found valid during this generation. Deleting an integration moves the content
   * generation (integrations/integrations.ts), so a deleted key is never held past it.
   */
  keys: Set<string>;
}

/** How many answers one generation keeps (a front end asks for a few dozen different ones). */
const MAX_KEPT_ANSWERS = 2_000;

const indexes = new WeakMap<SiteContent, GhostContentIndex>();

/** The index for this content, made once. */
export function ghostContentIndex(content: SiteContent, site: GhostSite): GhostContentIndex {
  let index = indexes.get(content);
  if (!index) {
    index = buildIndex(content, site);
    indexes.set(content, index);
  }
  return index;
}

function buildIndex(content: SiteContent, site: GhostSite): GhostContentIndex {
  const posts: PostEntry[] = [];
  const pages: PostEntry[] = [];
  const tags = new Map<string, CountedEntry<GhostTag>>();
  const authors = new Map<string, CountedEntry<GhostAuthor>>();
  for (const published of content.published) {
    const { row } = published;
    const type = ghostTypeOf(row);
    if (!type) continue;
    let drawn: GhostPost | null = null;
    const postTags = ghostTagsOf(site, row);
    const postAuthors = published.authors.map((author: Author) => ghostAuthor(site, author));
    const entry: PostEntry = {
      id: ghostId(site.siteUrl, 'post', row.id),
      slug: row.slug,
      title: row.title,
      publishedAt: (row.publishedAt ?? row.updatedAt).toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      visibility: ghostVisibilityOf(published.rule.visibility),
      rule: published.rule,
      tags: postTags,
      authors: postAuthors,
      full: () =>
        (drawn ??= ghostPost(
          site,
          { ...published, cards: cardReadingsOf([published.body, published.teaser]) },
          'public',
        )),
    };
    (type === 'post' ? posts : pages).push(entry);
    for (const tag of postTags) {
      const held = tags.get(tag.slug) ?? { item: tag, posts: 0 };
      if (type === 'post') held.posts += 1;
      tags.set(tag.slug, held);
    }
    for (const author of postAuthors) {
      const held = authors.get(author.slug) ?? { item: author, posts: 0 };
      if (type === 'post') held.posts += 1;
      authors.set(author.slug, held);
    }
  }
  for (const [slug, topic] of content.topics) {
    const held = tags.get(slug);
    if (held && topic.written) held.item = { ...held.item, description: topic.description };
  }
  const newestFirst = (a: PostEntry, b: PostEntry) => b.publishedAt.localeCompare(a.publishedAt);
  const byName = (a: CountedEntry, b: CountedEntry) => a.item.name.localeCompare(b.item.name);
  return {
    posts: posts.sort(newestFirst),
    pages: pages.sort(newestFirst),
    tags: [...tags.values()].sort(byName),
    authors: [...authors.values()].sort(byName),
    answers: new Map(),
    keys: new Set(),
  };
}

/**
 * An answer's JSON, kept for the generation by `key` (the resource and its query) as bytes: sent
 * again as they are, not encoded again.
 */
export function keptAnswer(index: GhostContentIndex, key: string, make: () => object): Buffer {
  const kept = index.answers.get(key);
  if (kept !== undefined) return kept;
  const bytes = Buffer.from(JSON.stringify(make()));
  if (index.answers.size >= MAX_KEPT_ANSWERS) index.answers.clear();
  index.answers.set(key, bytes);
  return bytes;
}

/** The fields a post filter may name, in the Content API and the Admin API's browse alike. */
export const POST_FILTER_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'slug',
  'title',
  'tag',
  'tags',
  'tags.slug',
  'author',
  'authors',
  'authors.slug',
  'primary_tag',
  'primary_tag.slug',
  'primary_author',
  'primary_author.slug',
  'featured',
  'visibility',
  'status',
  'published_at',
  'updated_at',
]);

function postValues(entry: PostEntry): FieldValues {
  return (field) => {
    switch (field) {
      case 'id':
        return [entry.id];
      case 'slug':
        return [entry.slug];
      case 'title':
        return [entry.title];
      case 'tag':
      case 'tags':
      case 'tags.slug':
        return entry.tags.map((tag) => tag.slug);
      case 'author':
      case 'authors':
      case 'authors.slug':
        return entry.authors.map((author) => author.slug);
      case 'primary_tag':
      case 'primary_tag.slug': {
        const primary = entry.tags.find((tag) => tag.visibility === 'public');
        return primary ? [primary.slug] : [null];
      }
      case 'primary_author':
      case 'primary_author.slug':
        return [entry.authors[0]?.slug ?? null];
      case 'featured':
        return ['false'];
      case 'visibility':
        return [entry.visibility];
      case 'status':
        return ['published'];
      case 'published_at':
        return [entry.publishedAt];
      default:
        return [entry.updatedAt];
    }
  };
}

const POST_ORDER: Record<string, (entry: PostEntry) => string> = {
  published_at: (entry) => entry.publishedAt,
  updated_at: (entry) => entry.updatedAt,
  created_at: (entry) => entry.publishedAt,
  title: (entry) => entry.title,
  slug: (entry) => entry.slug,
};

const POST_INCLUDES = new Set(['tags', 'authors', 'tiers']);
const FORMATS = new Set(['html', 'plaintext', 'mobiledoc', 'lexical']);

/**
 * A post as the query asks for it: with its includes (`tiers`: those its readers come from, of
 * `tiers`, every tier in Ghost's shape) and formats, and only its fields.
 */
function shapePost(entry: PostEntry, query: GhostQuery, tiers: readonly GhostTier[]): Row {
  const include = new Set(listOf(query.include));
  for (const name of include) {
    if (!POST_INCLUDES.has(name)) {
      throw badRequest(
        `Cannot include "${name}".`,
        'Posts and pages include tags, authors and tiers.',
      );
    }
  }
  const formats = listOf(query.formats);
  for (const format of formats) {
    if (!FORMATS.has(format)) {
      throw badRequest(`Unknown format "${format}".`, 'Formats: html, plaintext.');
    }
  }
  const wanted = new Set(formats.length === 0 ? ['html'] : formats);
  const {
    tags,
    authors,
    primary_tag: primaryTag,
    primary_author: primaryAuthor,
    html,
    plaintext,
    ...rest
  } = entry.full();
  const row: Row = {
    ...rest,
    ...(wanted.has('html') && { html }),
    ...(wanted.has('plaintext') && { plaintext }),
    ...(include.has('tags') && { tags, primary_tag: primaryTag }),
    ...(include.has('authors') && { authors, primary_author: primaryAuthor }),
    ...(include.has('tiers') && { tiers: ghostPostTiers(entry.rule, tiers) }),
  };
  return pick(row, listOf(query.fields));
}

function filterOf(query: GhostQuery, fields: ReadonlySet<string>): Filter | null {
  return query.filter === undefined || query.filter === ''
    ? null
    : parseFilter(query.filter, fields);
}

/** `posts/` or `pages/`: a page of them, newest first unless asked otherwise. */
function browsePosts(
  entries: readonly PostEntry[],
  query: GhostQuery,
  tiers: readonly GhostTier[],
) {
  const filter = filterOf(query, POST_FILTER_FIELDS);
  const order = parseOrder(query.order, POST_ORDER, (a, b) =>
    b.publishedAt.localeCompare(a.publishedAt),
  );
  const chosen = (
    filter ? entries.filter((entry) => filter(postValues(entry))) : [...entries]
  ).sort(order);
  const { items, pagination } = paginate(chosen, query);
  return { items: items.map((entry) => shapePost(entry, query, tiers)), meta: { pagination } };
}

/** `posts/:id/` or `posts/slug/:slug/`. */
function readPost(
  entries: readonly PostEntry[],
  by: { id: string } | { slug: string },
  query: GhostQuery,
  what: 'Post' | 'Page',
  tiers: readonly GhostTier[],
): Row {
  const entry = entries.find((candidate) =>
    'id' in by ? candidate.id === by.id : candidate.slug === by.slug,
  );
  if (!entry) throw notFound(`${what} not found.`);
  return shapePost(entry, query, tiers);
}

const COUNT_INCLUDE = 'count.posts';

function countIncluded(query: GhostQuery, what: string): boolean {
  const include = listOf(query.include);
  for (const name of include) {
    if (name !== COUNT_INCLUDE) {
      throw badRequest(`Cannot include "${name}".`, `${what} include count.posts.`);
    }
  }
  return include.length > 0;
}

/**
 * Tags and authors, browsed and read alike: what a filter may name, and the filter of a browse
 * that sends none (Ghost's default: only public tags).
 */
const COUNTED = {
  tags: {
    what: 'Tag',
    filterFields: new Set(['id', 'slug', 'name', 'visibility']),
    defaultFilter: parseFilter('visibility:public', new Set(['visibility'])),
  },
  authors: { what: 'Author', filterFields: new Set(['id', 'slug', 'name']), defaultFilter: null },
} as const satisfies Record<
  string,
  { what: string; filterFields: ReadonlySet<string>; defaultFilter: Filter | null }
>;
type CountedResource = keyof typeof COUNTED;

const countedValues =
  ({ item }: CountedEntry): FieldValues =>
  (field) => [(item as unknown as Record<string, Scalar>)[field] ?? null];

/** `tags/` or `authors/`: a page of them, by name unless asked otherwise. */
function browseCounted(
  resource: CountedResource,
  entries: readonly CountedEntry[],
  query: GhostQuery,
) {
  const { what, filterFields, defaultFilter } = COUNTED[resource];
  const withCount = countIncluded(query, `${what}s`);
  const filter = filterOf(query, filterFields) ?? defaultFilter;
  const chosen = filter ? entries.filter((entry) => filter(countedValues(entry))) : entries;
  const order = parseOrder<CountedEntry>(
    query.order,
    {
      name: (entry) => entry.item.name,
      slug: (entry) => entry.item.slug,
      'count.posts': (entry) => entry.posts,
    },
    (a, b) => a.item.name.localeCompare(b.item.name),
  );
  const { items, pagination } = paginate([...chosen].sort(order), query);
  return {
    items: items.map((entry) => shapeCounted(entry, withCount, query)),
    meta: { pagination },
  };
}

/** `tags/:id/`, `tags/slug/:slug/` and the same of `authors/`. */
function readCounted(
  resource: CountedResource,
  entries: readonly CountedEntry[],
  by: { id: string } | { slug: string },
  query: GhostQuery,
) {
  const { what } = COUNTED[resource];
  const withCount = countIncluded(query, `${what}s`);
  const entry = entries.find(({ item }) =>
    'id' in by ? item.id === by.id : item.slug === by.slug,
  );
  if (!entry) throw notFound(`${what} not found.`);
  return shapeCounted(entry, withCount, query);
}

function shapeCounted({ item, posts }: CountedEntry, withCount: boolean, query: GhostQuery) {
  const row: Row = { ...item, ...(withCount && { count: { posts } }) };
  return pick(row, listOf(query.fields));
}

/** What the Content API lists: the published posts and pages, and the tags and authors they carry. */
export type GhostResource = 'posts' | 'pages' | CountedResource;

/**
 * A browse of `resource`: a page of it, as the query asks, with its pagination. `tiers`: every
 * tier in Ghost's shape (ghost-tiers.ts), for posts' `include=tiers`.
 */
export function browseResource(
  index: GhostContentIndex,
  resource: GhostResource,
  query: GhostQuery,
  tiers: readonly GhostTier[],
) {
  return resource === 'posts' || resource === 'pages'
    ? browsePosts(index[resource], query, tiers)
    : browseCounted(resource, index[resource], query);
}

/** A read of one of `resource` by its id or slug; a 404 when there is none. */
export function readResource(
  index: GhostContentIndex,
  resource: GhostResource,
  by: { id: string } | { slug: string },
  query: GhostQuery,
  tiers: readonly GhostTier[],
): Row {
  return resource === 'posts' || resource === 'pages'
    ? readPost(index[resource], by, query, resource === 'posts' ? 'Post' : 'Page', tiers)
    : readCounted(resource, index[resource], by, query);
}

/**
 * What was read of a published post's cards, as its trees hold it: the content was built with
 * every reading kept, so the Content API's HTML shows the same titles and pictures as its pages.
 */
function cardReadingsOf(trees: readonly (MarkdownTree | null | undefined)[]): CardReadings {
  const cards = new Map<string, CardReading>();
  const visit = (nodes: readonly BlockNode[]) => {
    for (const node of nodes) {
      if (node.type === 'embed') {
        const { url, provider, player, title, author, thumbnail, aspect } = node;
        const card = { kind: 'embed', provider, player, title, author, thumbnail, aspect } as const;
        cards.set(url, { url, state: 'read', card });
      } else if (node.type === 'bookmark') {
        const { url, title, description, siteName, image } = node;
        const card = { kind: 'bookmark', title, description, siteName, image } as const;
        cards.set(url, { url, state: 'read', card });
      } else if (node.type === 'blockquote') {
        visit(node.children);
      } else if (node.type === 'list' || node.type === 'footnotes') {
        for (const item of node.children) visit(item.children);
      }
    }
  };
  for (const tree of trees) if (tree) visit(tree.children);
  return cards;
}

// WordPress's export (WXR 1.0 to 1.2: RSS with WordPress's own elements) as a SourceBundle.
// The file is checked by safe-xml.ts before the parser sees it; posts and pages come along,
// attachments fill `bundle.attachments` (what featured images and galleries name), and every
// other item is reported in `skipped` with its type.
import { XMLParser } from 'fast-xml-parser';
import { checkXml } from './safe-xml.js';
import {
  ImportFileError,
  type SourceAuthor,
  type SourceBundle,
  type SourceComment,
  type SourceImage,
  type SourcePost,
} from './source.js';
import { emptyBundle, parseDate, textOfHtml } from './source-values.js';

type Node = Record<string, unknown>;

const WORDPRESS_NAMESPACES = {
  wp: /^https?:\/\/wordpress\.org\/export\/1\.[0-2]\/$/,
  excerpt: /^https?:\/\/wordpress\.org\/export\/1\.[0-2]\/excerpt\/$/,
  content: /^https?:\/\/purl\.org\/rss\/1\.0\/modules\/content\/$/,
  dc: /^https?:\/\/purl\.org\/dc\/elements\/1\.1\/$/,
};

const REPEATED = new Set([
  'item',
  'category',
  'wp:author',
  'wp:postmeta',
  'wp:comment',
  'wp:category',
  'wp:tag',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // Numeric character references (&#8217;) are XML; entity declarations never reach here.
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name) => REPEATED.has(name),
});

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An element's text, whether the parser gave a string or an object with attributes. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (isNode(value)) return textOf(value['#text']);
  return '';
}

function field(node: Node, name: string): string {
  return textOf(node[name]).trim();
}

function list(node: Node, name: string): Node[] {
  const value = node[name];
  return Array.isArray(value) ? value.filter(isNode) : [];
}

function postmeta(item: Node): Map<string, string> {
  return new Map(
    list(item, 'wp:postmeta').map((meta) => [
      field(meta, 'wp:meta_key'),
      textOf(meta['wp:meta_value']),
    ]),
  );
}

function statusOf(status: string): SourcePost['status'] | 'trash' | null {
  switch (status) {
    case 'publish':
      return 'published';
    case 'future':
      return 'scheduled';
    // A private post was for the site's own editors: it comes along where only they see it.
    case 'draft':
    case 'pending':
    case 'auto-draft':
    case 'private':
      return 'draft';
    case 'trash':
      return 'trash';
    default:
      return null;
  }
}

/** Category and tag names, in the file's order, each once (WXR 1.0 repeats them). */
function termsOf(item: Node): string[] {
  const names: string[] = [];
  for (const category of list(item, 'category')) {
    const domain = typeof category['@_domain'] === 'string' ? category['@_domain'] : undefined;
    if (domain !== undefined && domain !== 'category' && domain !== 'post_tag' && domain !== 'tag')
      continue;
    const name = textOf(category).trim();
    // A category and a tag of the same name (Markup, markup) become one topic.
    if (name && !names.some((known) => known.toLowerCase() === name.toLowerCase()))
      names.push(name);
  }
  return names;
}

function readAttachment(item: Node): SourceImage | null {
  const url = field(item, 'wp:attachment_url') || field(item, 'guid');
  if (!url) return null;
  const image: SourceImage = { url };
  const alt = postmeta(item).get('_wp_attachment_image_alt')?.trim();
  const caption = field(item, 'excerpt:encoded');
  if (alt) image.alt = alt;
  if (caption) image.caption = caption;
  return image;
}

/**
 * The comments that were on the post's page: approved (`1`), and written by a reader (not a
 * pingback or trackback), each with its thread (`wp:comment_parent`, 0 for none).
 */
function approvedCommentsOf(item: Node): SourceComment[] {
  return list(item, 'wp:comment').flatMap((comment) => {
    const type = field(comment, 'wp:comment_type');
    if (field(comment, 'wp:comment_approved') !== '1') return [];
    if (type !== '' && type !== 'comment') return [];
    const sourceId = field(comment, 'wp:comment_id');
    const createdAt =
      parseDate(field(comment, 'wp:comment_date_gmt')) ??
      parseDate(field(comment, 'wp:comment_date'));
    const html = field(comment, 'wp:comment_content');
    if (!sourceId || !createdAt || html.trim() === '') return [];
    const parent = field(comment, 'wp:comment_parent');
    return [
      {
        sourceId,
        parentSourceId: parent && parent !== '0' ? parent : null,
        authorName: textOfHtml(field(comment, 'wp:comment_author')),
        createdAt,
        html,
      },
    ];
  });
}

/** Comments worth counting: spam and binned ones were never on the page. */
function commentsOf(item: Node): number {
  return list(item, 'wp:comment').filter((comment) => {
    const approved = field(comment, 'wp:comment_approved');
    return approved !== 'spam' && approved !== 'trash';
  }).length;
}

function dateOf(item: Node): Date | undefined {
  // post_date_gmt is UTC; post_date is the site's own time zone, which the file does not give.
  return (
    parseDate(field(item, 'wp:post_date_gmt')) ??
    parseDate(field(item, 'wp:post_date')) ??
    parseDate(field(item, 'pubDate'))
  );
}

function readItem(
  item: Node,
  authors: Map<string, SourceAuthor>,
  bundle: SourceBundle,
): SourcePost | null {
  const postId = field(item, 'wp:post_id');
  const type = field(item, 'wp:post_type') || 'post';
  // WordPress titles and excerpts are HTML (`Tide &amp; time`, `A <em>title</em>`); here they are text.
  const title = textOfHtml(field(item, 'title'));
  const slug = field(item, 'wp:post_name');
  const label = title || slug || `${type} ${postId}`;
  if (type !== 'post' && type !== 'page') {
    if (type !== 'attachment')
      bundle.skipped.push({
        item: label,
        reason: `a WordPress "${type}" item, not a post or page`,
      });
    return null;
  }
  const status = statusOf(field(item, 'wp:status'));
  if (status === 'trash') {
    bundle.skipped.push({ item: label, reason: 'in the WordPress bin (trash)' });
    return null;
  }
  if (!status) {
    bundle.skipped.push({
      item: label,
      reason: `status "${field(item, 'wp:status')}" is not one Cohort knows`,
    });
    return null;
  }
  const meta = postmeta(item);
  const creator = field(item, 'dc:creator');
  const author = authors.get(creator) ?? (creator ? { name: creator, slug: creator } : null);
  const link = field(item, 'link');
  const comments = commentsOf(item);
  const post: SourcePost = {
    sourceId: postId,
    type,
    slug,
    title,
    html: textOf(item['content:encoded']),
    flavour: 'wordpress',
    status,
    authors: author ? [author] : [],
    tags: termsOf(item),
    // A password-protected post was for the few who had the password: members only here.
    visibility: field(item, 'wp:post_password') === '' ? 'public' : 'members',
    tiers: [],
    oldPaths: [],
    comments,
    approvedComments: approvedCommentsOf(item),
  };
  const excerpt = textOfHtml(field(item, 'excerpt:encoded'));
  if (excerpt) post.excerpt = excerpt;
  const publishedAt = dateOf(item);
  // A draft keeps no date: it goes out when it is published here.
  if (publishedAt && status !== 'draft') post.publishedAt = publishedAt;
  const updatedAt =
    parseDate(field(item, 'wp:post_modified_gmt')) ?? parseDate(field(item, 'wp:post_modified'));
  if (updatedAt) post.updatedAt = updatedAt;
  const thumbnail = meta.get('_thumbnail_id')?.trim();
  const featureImage = thumbnail ? bundle.attachments.get(thumbnail) : undefined;
  if (featureImage) post.featureImage = featureImage;
  if (link) post.oldPaths.push(link);
  if (postId) post.oldPaths.push(type === 'page' ? `/?page_id=${postId}` : `/?p=${postId}`);
  bundle.comments += comments;
  return post;
}

/** A WXR file's text as a bundle. */
export function readWordPress(xml: string): SourceBundle {
  const text = xml.startsWith('\uFEFF') ? xml.slice(1) : xml;
  checkXml(text, WORDPRESS_NAMESPACES);
  const parsed: unknown = parser.parse(text);
  const channel = isNode(parsed) && isNode(parsed.rss) ? parsed.rss.channel : undefined;
  if (!isNode(channel))
    throw new ImportFileError(
      'Not a WordPress export: expected <rss><channel> with WordPress items',
    );
  if (
    !field(channel, 'wp:wxr_version') &&
    list(channel, 'item').every((item) => !item['wp:post_type'])
  ) {
    throw new ImportFileError(
      'Not a WordPress export: the feed has no wp:wxr_version and no WordPress items',
    );
  }
  const bundle = emptyBundle('wordpress');
  const siteUrl = field(channel, 'link') || field(channel, 'wp:base_blog_url');
  if (siteUrl) bundle.siteUrl = siteUrl;

  const authors = new Map<string, SourceAuthor>();
  for (const author of list(channel, 'wp:author')) {
    const login = field(author, 'wp:author_login');
    if (!login) continue;
    const entry: SourceAuthor = {
      name: field(author, 'wp:author_display_name') || login,
      slug: login,
    };
    const email = field(author, 'wp:author_email');
    if (email) entry.email = email;
    authors.set(login, entry);
  }

  const items = list(channel, 'item');
  // Attachments first: a post's featured image may name one that comes later in the file.
  const attachedTo = new Map<string, { id: string; order: number }[]>();
  for (const item of items) {
    if (field(item, 'wp:post_type') !== 'attachment') continue;
    const image = readAttachment(item);
    if (!image) continue;
    const id = field(item, 'wp:post_id');
    bundle.attachments.set(id, image);
    const parent = field(item, 'wp:post_parent');
    if (parent && parent !== '0') {
      const order = Number(field(item, 'wp:menu_order')) || 0;
      attachedTo.set(parent, [...(attachedTo.get(parent) ?? []), { id, order }]);
    }
  }
  for (const item of items) {
    const post = readItem(item, authors, bundle);
    if (!post) continue;
    post.html = withGalleryIds(post.html, attachedTo.get(field(item, 'wp:post_id')) ?? []);
    bundle.posts.push(post);
  }
  return bundle;
}

/**
 * A `[gallery]` that names no images shows, in WordPress, the images uploaded to that post (its
 * attachments, in their menu order, then by id): it is given their ids here, so the converter
 * finds them like any `[gallery ids="…"]`.
 */
function withGalleryIds(html: string, attached: readonly { id: string; order: number }[]): string {
  if (attached.length === 0) return html;
  const ids = [...attached]
    .sort((a, b) => a.order - b.order || Number(a.id) - Number(b.id))
    .map((each) => each.id)
    .join(',');
  return html.replace(
    /\[gallery(?![^\]]*\bids=)([^\]]*)\]/g,
    (_whole, rest: string) => `[gallery ids="${ids}"${rest}]`,
  );
}

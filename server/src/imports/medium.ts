// Medium's account export (the folder or the zip): each post is a whole HTML page under posts/,
// marked up with microformats (h1.p-name, time.dt-published, a.p-canonical). The pages are
// parsed into a tree and read from it; the body is handed on as HTML for the converter.
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import { decodeText, type ExportArchive } from './archive.js';
import { textOf } from './html-nodes.js';
import {
  ImportFileError,
  type SourceAuthor,
  type SourceBundle,
  type SourcePost,
} from './source.js';
import { emptyBundle, parseDate } from './source-values.js';

type Parent = Root | Element;

function classesOf(element: Element): string[] {
  const value = element.properties.className;
  return Array.isArray(value) ? value.map(String) : [];
}

function hasClass(element: Element, name: string): boolean {
  return classesOf(element).includes(name);
}

/** Every element under `parent`, in document order, that `test` accepts. */
function findAll(parent: Parent, test: (element: Element) => boolean): Element[] {
  const found: Element[] = [];
  const visit = (node: RootContent | ElementContent) => {
    if (node.type !== 'element') return;
    if (test(node)) found.push(node);
    node.children.forEach(visit);
  };
  parent.children.forEach(visit);
  return found;
}

function findFirst(parent: Parent, test: (element: Element) => boolean): Element | undefined {
  return findAll(parent, test)[0];
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function attribute(element: Element | undefined, name: string): string {
  const value = element?.properties[name];
  return typeof value === 'string' ? value : '';
}

function removeElement(parent: Parent, target: Element): void {
  const index = parent.children.indexOf(target);
  if (index >= 0) {
    parent.children.splice(index, 1);
    return;
  }
  for (const child of parent.children) if (child.type === 'element') removeElement(child, target);
}

/** Medium ends a post's last address segment with its id: `my-title-1a2b3c4d5e6f`. */
const MEDIUM_ID_SUFFIX = /-([0-9a-f]{8,16})$/;

interface Canonical {
  path: string;
  slug: string;
  id: string;
}

function readCanonical(href: string): Canonical | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  const last = url.pathname.split('/').filter(Boolean).at(-1) ?? '';
  const suffix = MEDIUM_ID_SUFFIX.exec(last);
  // An address with no words before the id (medium.com/@name/1a2b3c4d) gives no slug: the
  // writer makes one from the title.
  if (suffix)
    return { path: url.pathname, slug: last.slice(0, suffix.index), id: suffix[1] as string };
  return { path: url.pathname, slug: /^[0-9a-f]+$/i.test(last) ? '' : last, id: last };
}

function isResponse(article: Parent, body: Element): boolean {
  // Medium exports a reader's response to another post as a post of its own: no subtitle, and
  // no title heading of its own inside the body.
  const subtitle = findFirst(article, (element) => attribute(element, 'dataField') === 'subtitle');
  const titleHeading = findFirst(body, (element) => hasClass(element, 'graf--title'));
  return !subtitle && !titleHeading;
}

/** One exported page as a post, or the reason it is not one. */
export function readMediumPost(html: string, fileName: string): SourcePost | { skipped: string } {
  const tree = fromHtml(html);
  const article = findFirst(tree, (element) => element.tagName === 'article') ?? tree;
  const body = findFirst(article, (element) => attribute(element, 'dataField') === 'body');
  if (!body) return { skipped: 'no body (section data-field="body") in the page' };
  if (isResponse(article, body)) return { skipped: 'a response to another post, not a post' };

  const nameHeading = findFirst(
    article,
    (element) => element.tagName === 'h1' && hasClass(element, 'p-name'),
  );
  const titleElement = findFirst(tree, (element) => element.tagName === 'title');
  const title = clean(textOf(nameHeading ?? titleElement ?? tree));
  const subtitleElement = findFirst(
    article,
    (element) => attribute(element, 'dataField') === 'subtitle',
  );
  const subtitle = subtitleElement ? clean(textOf(subtitleElement)) : '';

  // The body repeats the title (and subtitle) as its first headings: the post has them already.
  for (const repeated of findAll(
    body,
    (element) => hasClass(element, 'graf--title') || hasClass(element, 'graf--subtitle'),
  )) {
    const words = clean(textOf(repeated));
    if (words === title || words === subtitle) removeElement(body, repeated);
  }

  const time = findFirst(
    article,
    (element) => element.tagName === 'time' && hasClass(element, 'dt-published'),
  );
  const canonicalLink = findFirst(
    article,
    (element) => element.tagName === 'a' && hasClass(element, 'p-canonical'),
  );
  const canonical = readCanonical(attribute(canonicalLink, 'href'));
  const authorLink = findFirst(article, (element) => hasClass(element, 'p-author'));
  const authorName = authorLink ? clean(textOf(authorLink)) : '';
  const tags = findAll(article, (element) => element.tagName === 'a' && hasClass(element, 'p-tag'))
    .map((element) => clean(textOf(element)))
    .filter(Boolean);
  const publishedAt = parseDate(attribute(time, 'dateTime'));
  // Medium names drafts draft_…; an exported draft also has neither a date nor an address.
  const draft = fileName.startsWith('draft_') || (!publishedAt && !canonical);

  const author: SourceAuthor | null = authorName ? { name: authorName } : null;
  const authorHandle = /\/@([^/]+)/.exec(attribute(authorLink, 'href'))?.[1];
  if (author && authorHandle) author.slug = authorHandle;
  // Medium's short address (medium.com/p/<id>) names drafts too, which have no canonical link.
  const shortId = findAll(article, (element) => element.tagName === 'a')
    .map(
      (element) => /^https:\/\/medium\.com\/p\/([0-9a-f]+)$/.exec(attribute(element, 'href'))?.[1],
    )
    .find(Boolean);
  const post: SourcePost = {
    sourceId: canonical?.id || shortId || fileName.replace(/\.html?$/i, ''),
    type: 'post',
    slug: canonical?.slug ?? '',
    title,
    html: toHtml(body.children),
    flavour: 'medium',
    status: draft ? 'draft' : 'published',
    authors: author ? [author] : [],
    tags: [...new Set(tags)],
    // Medium's export does not say which stories were for paying members: all come in public.
    visibility: 'public',
    tiers: [],
    oldPaths: canonical && !draft ? [canonical.path] : [],
    comments: 0,
  };
  if (subtitle) post.excerpt = subtitle;
  if (publishedAt && !draft) post.publishedAt = publishedAt;
  return post;
}

/** A Medium export (folder or zip) as a bundle: posts/*.html; the profile is not content. */
export async function readMedium(archive: ExportArchive): Promise<SourceBundle> {
  const pages = [...archive.entries.values()]
    .filter(
      (entry) =>
        /(^|\/)posts\/[^/]+\.html?$/i.test(entry.path) && !entry.path.startsWith('__MACOSX/'),
    )
    .sort((a, b) => a.path.localeCompare(b.path));
  if (pages.length === 0)
    throw new ImportFileError(
      'Not a Medium export: there is no posts/ folder of .html pages in it',
    );
  const bundle = emptyBundle('medium');
  for (const page of pages) {
    const fileName = page.path.split('/').at(-1) as string;
    const result = readMediumPost(decodeText(await page.read()), fileName);
    if ('skipped' in result)
      bundle.skipped.push({ item: `posts/${fileName}`, reason: result.skipped });
    else bundle.posts.push(result);
  }
  return bundle;
}

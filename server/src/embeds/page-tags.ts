import type { Element, Nodes } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { cleanLineOrNull } from '../../../contract/text-hygiene.js';

/**
 * What a page says of itself for link previews: its Open Graph and Twitter tags, else its
 * `<title>` and description. Only the head is read: a page's preview tags are all there.
 */

export interface PageTags {
  title: string | null;
  description: string | null;
  siteName: string | null;
  /** The preview image's absolute address (og:image, twitter:image), or null. */
  image: string | null;
  /** The video's frame, for its aspect (og:video:width and height), or null. */
  videoWidth: number | null;
  videoHeight: number | null;
}

/** The longest texts a card keeps: a preview, not the page. */
export const TEXT_LIMITS = { title: 300, description: 500, siteName: 100 } as const;

/** The page's text from its bytes: in the charset its server or its head names, else UTF-8. */
export function decodePage(body: Buffer, charset: string | null): string {
  const named =
    charset ??
    /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(body.subarray(0, 4096).toString('latin1'))?.[1];
  try {
    return new TextDecoder(named ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

export function readPageTags(html: string, base: URL): PageTags {
  const end = html.search(/<\/head\s*>/i);
  const tree = fromHtml(end === -1 ? html : html.slice(0, end), { fragment: false });
  const meta = new Map<string, string>();
  let title: string | null = null;
  visit(tree, (element) => {
    if (element.tagName === 'title' && title === null) title = textOf(element);
    if (element.tagName !== 'meta') return;
    const key = text(element.properties.property) ?? text(element.properties.name);
    const content = text(element.properties.content);
    if (!key || content === null) return;
    // The first of each wins: a page that repeats a tag (several og:image) means its first.
    if (!meta.has(key.toLowerCase())) meta.set(key.toLowerCase(), content);
  });
  const first = (...keys: string[]) =>
    keys.map((key) => cleanLineOrNull(meta.get(key))).find((value) => value !== null) ?? null;
  const image = first(
    'og:image:secure_url',
    'og:image',
    'og:image:url',
    'twitter:image',
    'twitter:image:src',
  );
  return {
    title: limit(first('og:title', 'twitter:title') ?? cleanLineOrNull(title), TEXT_LIMITS.title),
    description: limit(
      first('og:description', 'twitter:description', 'description'),
      TEXT_LIMITS.description,
    ),
    siteName: limit(first('og:site_name', 'application-name'), TEXT_LIMITS.siteName),
    image: image === null ? null : absolute(image, base),
    videoWidth: size(first('og:video:width')),
    videoHeight: size(first('og:video:height')),
  };
}

/** The first paragraph's text of an HTML fragment (an oEmbed answer's quoted post), or null. */
export function firstParagraphOf(html: string): string | null {
  const tree = fromHtml(html, { fragment: true });
  let found: string | null = null;
  visit(tree, (element) => {
    if (found === null && element.tagName === 'p') found = cleanLineOrNull(textOf(element));
  });
  return found;
}

/** An attribute's value in an HTML fragment (`data-bluesky-uri`), the first found, or null. */
export function attributeIn(html: string, name: string): string | null {
  const tree = fromHtml(html, { fragment: true });
  let found: string | null = null;
  visit(tree, (element) => {
    found ??= text(element.properties[name]);
  });
  return found;
}

/** A text cut to `max` characters at a word, with an ellipsis; null stays null. */
export function limit(value: string | null, max: number): string | null {
  if (value === null || value.length <= max) return value;
  const cut = value.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function absolute(address: string, base: URL): string | null {
  try {
    const url = new URL(address, base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

function size(value: string | null): number | null {
  const number = value === null ? NaN : Number(value);
  return Number.isInteger(number) && number > 0 && number < 100_000 ? number : null;
}

function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return Array.isArray(value) ? value.join(' ') : null;
}

function textOf(node: Nodes): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element' && (node.tagName === 'script' || node.tagName === 'style')) {
    return '';
  }
  if (node.type === 'element' || node.type === 'root') return node.children.map(textOf).join('');
  return '';
}

function visit(node: Nodes, each: (element: Element) => void): void {
  if (node.type === 'element') each(node);
  if (node.type === 'element' || node.type === 'root') {
    for (const child of node.children) visit(child, each);
  }
}

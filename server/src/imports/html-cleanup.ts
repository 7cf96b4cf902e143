import type { Element, ElementContent, Root, RootContent } from 'hast';
import { isSafeHref } from '../../../contract/safe-href.js';
import {
  bareAddress,
  captionOf,
  cardOf,
  mediaElement,
  rewriteEmbed,
  type EmbedContext,
} from './html-embeds.js';
import type { HtmlFlavour } from './source.js';
import { markFootnotes } from './html-footnotes.js';
import {
  attribute,
  classesOf,
  dataAttrs,
  DIVIDER_TAG,
  element,
  fileWords,
  find,
  findAll,
  FOOTNOTE_TAG,
  hasClass,
  stringIn,
  text,
  textOf,
  words,
} from './html-nodes.js';
import { note } from './wordpress-html.js';

/*
 * The clean-ups a post's HTML gets before the sanitiser sees it, while the platforms' classes,
 * ids and data attributes are still there to say what a piece of markup is: cards and widgets
 * become the plain HTML they stand for (a figure, a link, a quote), what the site cannot show is
 * removed and named in `dropped`, and every address is made absolute or a site path. The
 * footnotes are html-footnotes.ts's; the embeds, players and media html-embeds.ts's; the node
 * helpers html-nodes.ts's.
 */

export interface CleanupContext {
  flavour: HtmlFlavour;
  /** The old site's address without a trailing slash, when the export says it. */
  siteUrl: string | undefined;
  dropped: string[];
}

/** Removed with what they hold, and named in `dropped`: they run code or draw on their own. */
const REPORTED = new Set([
  'script',
  'style',
  'object',
  'embed',
  'applet',
  'form',
  'svg',
  'math',
  'canvas',
]);
/** Removed with what they hold, unmentioned: a document's head, form controls, fallbacks. */
const SILENT = new Set([
  'head',
  'title',
  'meta',
  'link',
  'base',
  'noscript',
  'template',
  'input',
  'button',
  'select',
  'textarea',
  'option',
  'source',
  'track',
]);

/** Substack's calls to subscribe, share and comment: nothing a reader here can use. */
const WIDGET_CLASSES = [
  'subscription-widget-wrap',
  'subscription-widget-wrap-editor',
  'subscription-widget',
  'subscribe-widget',
  'captioned-button-wrap',
  'share-dialog',
  'install-substack-app-embed',
  'kg-signup-card',
];
const SUBSCRIBE_OR_SHARE =
  /\/subscribe\b|[?&]action=share\b|\/comments\/?(?:$|[?#])|\/share\/?(?:$|[?#])/i;

/** Medium repeats the post's title and subtitle at the top of its body, and marks its sections. */
const MEDIUM_REPEATS = ['graf--title', 'graf--subtitle', 'section-divider'];

export function cleanUpHtml(tree: Root, context: CleanupContext): void {
  if (context.flavour === 'medium') keepMediumBody(tree);
  markFootnotes(tree);
  rewriteChildren(tree, (node) => rewriteElement(node, context));
}

// ————— walking the tree —————

/** Elements that may hold paragraphs (anything else holds text). */
const FLOW_PARENTS = new Set([
  'article',
  'aside',
  'blockquote',
  'body',
  'dd',
  'details',
  'div',
  'figure',
  'footer',
  'header',
  'li',
  'main',
  'section',
  'td',
  'th',
  FOOTNOTE_TAG,
]);

/** What a node becomes: undefined keeps it (its children are visited), an array replaces it. */
type Rewrite = (node: Element) => ElementContent[] | undefined;

/** Nodes these clean-ups made: not rewritten again (their children still are). */
const finished = new WeakSet<Element>();

function rewriteChildren(parent: Root | Element, rewrite: Rewrite): void {
  const children: RootContent[] = [];
  for (const child of parent.children) {
    if (child.type === 'comment') {
      // Ghost's members-only card; every other comment (editor blocks, `more`) goes.
      if (/^\s*members-only\s*$/i.test(child.value)) children.push(element(DIVIDER_TAG));
    } else if (child.type !== 'element' || finished.has(child)) {
      if (child.type === 'element') rewriteChildren(child, rewrite);
      children.push(child);
    } else {
      const replaced = rewrite(child);
      if (replaced === undefined) {
        rewriteChildren(child, rewrite);
        children.push(child);
      } else {
        const holder = element('div', {}, replaced);
        rewriteChildren(holder, rewrite);
        // A paragraph made for an embed or an image, inside text: its content joins the text.
        const inText = parent.type === 'element' && !FLOW_PARENTS.has(parent.tagName);
        children.push(
          ...holder.children.flatMap((made) =>
            inText && made.type === 'element' && made.tagName === 'p' ? made.children : [made],
          ),
        );
      }
    }
  }
  parent.children = children as typeof parent.children;
}

/** A paragraph holding one link (an embed, a bookmark, a button). */
function linkParagraph(href: string, label: string, context: CleanupContext): ElementContent[] {
  const url = resolveLink(href, context.siteUrl);
  if (url === null || !/^https?:|^\//.test(url)) return [];
  const link = element('a', { href: url }, [text(words(label) || url)]);
  finished.add(link);
  return [element('p', {}, [link])];
}

// ————— one element —————

function rewriteElement(node: Element, context: CleanupContext): ElementContent[] | undefined {
  const { dropped } = context;
  dropEventHandlers(node, dropped);
  const tag = node.tagName;
  if (SILENT.has(tag)) return [];
  if (REPORTED.has(tag)) {
    note(dropped, tag);
    return [];
  }
  const classes = classesOf(node);
  if (classes.some((name) => WIDGET_CLASSES.includes(name))) {
    note(dropped, 'subscribe widget');
    return [];
  }
  if (classes.some((name) => MEDIUM_REPEATS.includes(name))) return [];

  const card = rewriteCard(node, classes, context);
  if (card !== undefined) return card;
  const embed = rewriteEmbed(node, classes, embedContextOf(context));
  if (embed !== undefined) return embed;

  switch (tag) {
    case 'figure':
      return imageFigure(node, context);
    case 'img':
      return image(node, undefined, context);
    case 'a':
      return link(node, context);
    case 'p':
      return context.flavour === 'wordpress' ? bareAddress(node) : undefined;
    case 'pre':
      moveLanguageToCode(node);
      return undefined;
    default:
      return undefined;
  }
}

function dropEventHandlers(node: Element, dropped: string[]): void {
  const handlers = Object.keys(node.properties).filter((name) => /^on/i.test(name));
  if (handlers.length === 0) return;
  for (const name of handlers) note(dropped, `event handler (${name.toLowerCase()})`);
  node.properties = Object.fromEntries(
    Object.entries(node.properties).filter(([name]) => !handlers.includes(name)),
  );
}

/** The platforms' cards and widgets that stand for something plainer. */
function rewriteCard(
  node: Element,
  classes: string[],
  context: CleanupContext,
): ElementContent[] | undefined {
  const has = (name: string) => classes.includes(name);

  if (has('kg-bookmark-card')) {
    // Its address alone on its line, a card again: the site reads the page for its title.
    const anchor = find(node, (child) => child.tagName === 'a');
    const title = find(node, (child) => hasClass(child, 'kg-bookmark-title'));
    const href = anchor && attribute(anchor, 'href');
    if (!href) return [];
    const url = resolveLink(href, context.siteUrl);
    const card = url && /^https?:/.test(url) ? cardOf(url, captionOf(node)) : null;
    return card ?? linkParagraph(href, title ? textOf(title) : href, context);
  }
  if (has('kg-embed-card')) {
    // The address the writer gave, when the card says it (a lexical card's, this site's export),
    // else one that is all the card holds (a link, a gist's script): a card again. A player's
    // frame or a provider's quote is html-embeds.ts's to read.
    const given = attribute(node, 'dataUrl');
    const alone = find(node, (child) => EMBED_CODE.has(child.tagName))
      ? undefined
      : (attribute(find(node, (child) => child.tagName === 'a') ?? node, 'href') ??
        gistPageOf(find(node, (child) => child.tagName === 'script')));
    const address = given ?? alone;
    const url = address ? resolveLink(address, context.siteUrl) : null;
    const card = url && /^https?:/.test(url) ? cardOf(url, captionOf(node)) : null;
    if (card) return card;
  }
  if (has('kg-callout-card')) {
    const emoji = find(node, (child) => hasClass(child, 'kg-callout-emoji'));
    const body = find(node, (child) => hasClass(child, 'kg-callout-text'));
    const lead = emoji ? [text(`${words(textOf(emoji))} `)] : [];
    return [element('blockquote', {}, [element('p', {}, [...lead, ...(body?.children ?? [])])])];
  }
  if (has('kg-audio-card')) {
    const media = find(node, (child) => child.tagName === 'audio' || child.tagName === 'video');
    const title = find(node, (child) => hasClass(child, 'kg-audio-title'));
    return media ? mediaPlayer(media, title ? textOf(title) : 'Audio', context) : [];
  }
  if (has('kg-video-card')) {
    // Ghost's video card has a caption and no title: the title is the file's, or what the link
    // inside the player names it (this site's export writes it there).
    const video = find(node, (child) => child.tagName === 'video');
    if (!video) return [];
    const named = find(video, (child) => child.tagName === 'a');
    const title = named ? words(textOf(named)) : '';
    const caption = words(captionOf(node).map(textOf).join(''));
    return mediaElement(video, embedContextOf(context), {
      // A file's name or address is no title: the file's words are (html-embeds.ts mediaOf).
      ...(title && !/^(?:https?:|\/)|\.[a-z0-9]{2,5}$/i.test(title) && { title }),
      ...(caption && { caption }),
    });
  }
  if (has('kg-file-card')) {
    const anchor = find(node, (child) => child.tagName === 'a');
    const title = find(node, (child) => hasClass(child, 'kg-file-card-title'));
    const href = anchor && attribute(anchor, 'href');
    return href ? linkParagraph(href, title ? textOf(title) : 'Download', context) : [];
  }
  if (has('button-wrapper') || (node.tagName === 'a' && has('button'))) {
    const anchor = node.tagName === 'a' ? node : find(node, (child) => child.tagName === 'a');
    const href = (anchor && attribute(anchor, 'href')) ?? stringIn(dataAttrs(node), 'url');
    if (!href || SUBSCRIBE_OR_SHARE.test(href)) {
      note(context.dropped, 'button (subscribe, share or comment)');
      return [];
    }
    return linkParagraph(href, anchor ? textOf(anchor) : href, context);
  }
  if (has('graf--mixtapeEmbed')) {
    const anchor = find(node, (child) => child.tagName === 'a' && !hasClass(child, 'mixtapeImage'));
    const href = anchor && attribute(anchor, 'href');
    if (!anchor || !href) return [];
    const title = find(anchor, (child) => child.tagName === 'strong');
    return linkParagraph(href, textOf(title ?? anchor), context);
  }
  return undefined;
}

/** The tags that hold a provider's embed code in Ghost's embed card. */
const EMBED_CODE = new Set(['iframe', 'blockquote']);

/** The gist a gist's embed script (`gist.github.com/<user>/<id>.js`) shows, or null. */
function gistPageOf(script: Element | undefined): string | null {
  const src = script && attribute(script, 'src');
  const match = src && /^https:\/\/gist\.github\.com\/([\w-]+\/[0-9a-f]+)\.js$/.exec(src);
  return match ? `https://gist.github.com/${match[1]}` : null;
}

/** What the embeds' clean-ups (html-embeds.ts) need of the post's. */
function embedContextOf(context: CleanupContext): EmbedContext {
  return {
    dropped: context.dropped,
    resolveMedia: (raw) => {
      const resolved = resolveImage(raw, context.siteUrl);
      return 'url' in resolved ? resolved.url : null;
    },
  };
}

/** A card's `<audio>` or `<video>` as a player of its file, with the card's title. */
function mediaPlayer(node: Element, title: string, context: CleanupContext): ElementContent[] {
  return mediaElement(node, embedContextOf(context), { title });
}

/** A figure's images, each on a line of its own, the caption going with the last. */
function imageFigure(node: Element, context: CleanupContext): ElementContent[] | undefined {
  const images = findAll(node, (child) => child.tagName === 'img');
  if (images.length === 0) return undefined;
  const figcaption = find(node, (child) => child.tagName === 'figcaption');
  const caption = figcaption ? words(textOf(figcaption)) : '';
  return images.flatMap((img, index) =>
    image(img, index === images.length - 1 && caption ? caption : undefined, context),
  );
}

/** An image as a paragraph of its own, its address absolute and its alt text never empty. */
function image(
  node: Element,
  caption: string | undefined,
  context: CleanupContext,
): ElementContent[] {
  // Substack keeps the original upload's address in its data; lazy loaders keep it in data-src.
  const candidates = [
    stringIn(dataAttrs(node), 'src'),
    attribute(node, 'src'),
    attribute(node, 'dataSrc'),
    attribute(node, 'dataLazySrc'),
    firstOfSrcset(node),
  ].filter((value): value is string => !!value && value.trim() !== '');
  const usable = candidates.find((value) => !/^\s*data:/i.test(value)) ?? candidates[0];
  const resolved = resolveImage(usable ?? '', context.siteUrl);
  if ('refused' in resolved) {
    note(context.dropped, resolved.refused);
    return [];
  }
  const title = caption ?? (words(attribute(node, 'title') ?? '') || undefined);
  const alt = words(attribute(node, 'alt') ?? '') || title || fileWords(resolved.url);
  const img = element('img', { src: resolved.url, alt, ...(title ? { title } : {}) });
  finished.add(img);
  return [element('p', {}, [img])];
}

/** The first address of an image's `srcset`, for an image that has no `src`. */
function firstOfSrcset(node: Element): string | undefined {
  const value: unknown = node.properties.srcSet;
  const first = Array.isArray(value) ? value[0] : typeof value === 'string' ? value : undefined;
  return typeof first === 'string' ? first.trim().split(/\s+/)[0] : undefined;
}

function link(node: Element, context: CleanupContext): ElementContent[] | undefined {
  const content = node.children.filter(
    (child) => !(child.type === 'text' && child.value.trim() === ''),
  );
  const [only] = content;
  // A linked image: the image alone (an image on the site is never inside a link).
  if (content.length === 1 && only?.type === 'element') {
    const img = only.tagName === 'img' ? only : find(only, (child) => child.tagName === 'img');
    if (img && words(textOf(only)) === '') return [img];
  }
  const raw = attribute(node, 'href');
  const url = raw === undefined ? null : resolveLink(raw, context.siteUrl);
  if (url === null) {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(cleanUrl(raw ?? ''))?.[1]?.toLowerCase();
    if (scheme) note(context.dropped, `${scheme}: link`);
    return node.children;
  }
  if (url.startsWith('mailto:') && !SITE_TAKES_MAILTO) {
    // The site shows only web links: the address stays readable as text.
    const address = decodeURIComponent(url.slice('mailto:'.length).split('?')[0] ?? '');
    return words(textOf(node)) === address
      ? node.children
      : [...node.children, text(` (${address})`)];
  }
  const title = attribute(node, 'title');
  // Its choice of tab, which the site keeps (contract/link-target.ts); keywords in any case.
  const target = attribute(node, 'target')?.toLowerCase();
  node.properties = {
    href: url,
    ...(title ? { title } : {}),
    ...(target === '_blank' || target === '_self' ? { target } : {}),
  };
  return undefined;
}

const SITE_TAKES_MAILTO = isSafeHref('mailto:someone@example.com');

/** Prism and highlight.js mark the language on the <pre>; the converter reads it on <code>. */
function moveLanguageToCode(node: Element): void {
  const language = classesOf(node).find((name) => /^(?:language|lang)-./.test(name));
  const code = node.children.find(
    (child): child is Element => child.type === 'element' && child.tagName === 'code',
  );
  if (!language || !code || classesOf(code).some((name) => name.startsWith('language-'))) return;
  code.properties.className = [language.replace(/^lang-/, 'language-')];
}

// ————— addresses —————

/** What a browser ignores in an address: spaces and controls around it, tabs and newlines in it. */
function cleanUrl(raw: string): string {
  // eslint-disable-next-line no-control-regex
  return raw.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
}

const GHOST_URL = '__GHOST_URL__';
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/**
 * A link's target on the site: an http(s) or mailto address, or a path on this site (a link to
 * the old site's own posts keeps working through their redirects); null for anything else
 * (`javascript:`, `data:`, a fragment whose anchor does not come along).
 */
export function resolveLink(raw: string, siteUrl: string | undefined): string | null {
  let url = cleanUrl(raw);
  if (url.startsWith(GHOST_URL)) url = url.slice(GHOST_URL.length) || '/';
  if (url === '' || url.startsWith('#')) return null;
  if (url.startsWith('//')) url = `https:${url}`;
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'mailto') return /^mailto:[^\s<>]+@[^\s<>]+$/i.test(url) ? url : null;
  if (scheme === 'http' || scheme === 'https') return absolute(url);
  if (scheme) return null;
  if (url.startsWith('/')) return url.startsWith('/\\') ? null : url;
  return siteUrl ? absolute(url, `${siteUrl}/`) : null;
}

/** An image's address, absolute (or a path on the old site, when its address is not known). */
export function resolveImage(
  raw: string,
  siteUrl: string | undefined,
): { url: string } | { refused: string } {
  let url = cleanUrl(raw);
  if (url.startsWith(GHOST_URL)) {
    const path = url.slice(GHOST_URL.length);
    return { url: siteUrl ? `${siteUrl}${path}` : path };
  }
  if (url === '') return { refused: 'image (no address)' };
  if (url.startsWith('//')) url = `https:${url}`;
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  if (scheme && scheme !== 'http' && scheme !== 'https') {
    return { refused: `image (${scheme}: address)` };
  }
  const resolved = scheme
    ? absolute(url)
    : url.startsWith('/') && !url.startsWith('/\\')
      ? siteUrl
        ? absolute(url, siteUrl)
        : url
      : siteUrl
        ? absolute(url, `${siteUrl}/`)
        : null;
  return resolved ? { url: resolved } : { refused: `image (relative address ${url})` };
}

function absolute(url: string, base?: string): string | null {
  try {
    const parsed = new URL(url, base);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

// ————— platform-wide shapes —————

/** Medium's export is a whole page: only its body section is the post. */
function keepMediumBody(tree: Root): void {
  const body = find(
    tree,
    (node) => attribute(node, 'dataField') === 'body' || hasClass(node, 'e-content'),
  );
  if (body) tree.children = [body];
}

import type { Element, Root as HtmlRoot } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { sanitize, type Schema } from 'hast-util-sanitize';
import { toMdast, type Handle } from 'hast-util-to-mdast';
import type {
  Code,
  Heading,
  Image,
  Link,
  ListItem,
  Nodes,
  Paragraph,
  Parents,
  PhrasingContent,
  Root,
  RootContent,
  TableCell,
  Text,
} from 'mdast';
import { gfmFootnoteToMarkdown } from 'mdast-util-gfm-footnote';
import { gfmStrikethroughToMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { toMarkdown, type Options as ToMarkdownOptions } from 'mdast-util-to-markdown';
import { MEMBERS_DIVIDER, splitAtDivider } from '../../../contract/posts.js';
import { isSafeHref } from '../../../contract/safe-href.js';
import { parseSiteMarkdown } from '../content/markdown-to-tree.js';
import { cleanUpHtml } from './html-cleanup.js';
import {
  dedent,
  markStructures,
  STRUCTURE_HANDLERS,
  STRUCTURE_WRITERS,
} from './html-structures.js';
import { readLinkWithTarget, writeLinkWithTarget } from './link-targets.js';
import {
  CARD_TAG,
  DIVIDER_TAG,
  FOOTNOTE_LABEL_TAG,
  FOOTNOTE_REF_TAG,
  FOOTNOTE_TAG,
  MEDIA_TAG,
  textOf as htmlTextOf,
} from './html-nodes.js';
import type { HtmlFlavour, SourceImage } from './source.js';
import { prepareWordPressHtml } from './wordpress-html.js';

/*
 * A post's HTML from another platform, as the site's Markdown (content/FORMAT.md, read by
 * content/markdown-to-tree.ts): parsed (hast-util-from-html), cleaned of each platform's habits
 * (html-cleanup.ts, wordpress-html.ts), sanitised to what the site can show, turned into
 * Markdown's tree (hast-util-to-mdast), tidied to the site's rules and written out
 * (mdast-util-to-markdown with GFM tables, footnotes and strikethrough).
 */

export interface HtmlToMarkdownOptions {
  flavour: HtmlFlavour;
  /** The old site's address: relative images and links are resolved against it. */
  siteUrl?: string;
  /** WordPress's attachments by post id, for `[gallery ids="…"]`. */
  attachments?: Map<string, SourceImage>;
  /** False: embeds and media files stay links, in text that shows neither (a comment). */
  cards?: boolean;
}

export interface ConvertedHtml {
  markdown: string;
  /** Every image the Markdown shows, by its original address (once each), for the writer to fetch. */
  images: SourceImage[];
  /** Its audio and video files, written as images are, for the writer to store (alt: title). */
  media: SourceImage[];
  /** What was removed, by name: `script`, `iframe (evil.example)`, `subscribe widget`. */
  dropped: string[];
}

export function htmlToMarkdown(html: string, options: HtmlToMarkdownOptions): ConvertedHtml {
  const dropped: string[] = [];
  const siteUrl = options.siteUrl?.trim().replace(/\/+$/, '') || undefined;
  try {
    const source =
      options.flavour === 'wordpress'
        ? prepareWordPressHtml(html, options.attachments ?? new Map(), dropped)
        : html;
    const hast = fromHtml(source, { fragment: true });
    cleanUpHtml(hast, { flavour: options.flavour, siteUrl, dropped });
    markStructures(hast);
    const safe = sanitize(hast, SCHEMA) as HtmlRoot;
    const tree = toMdast(safe, { handlers: HANDLERS }) as Root;
    if (options.cards === false) embedsAsLinks(tree);
    const { images, media } = tidyTree(tree);
    return { markdown: writeMarkdown(tree), images, media, dropped };
  } catch (error) {
    // Elements nested thousands deep (a broken or hostile export) are past what the tree tools
    // can walk: the post keeps its words, and the report says its markup went.
    if (!(error instanceof RangeError)) throw error;
    return {
      markdown: writeMarkdown({ type: 'root', children: paragraphsOfText(html) }),
      images: [],
      media: [],
      dropped: [...dropped, 'markup nested too deeply (kept as plain text)'],
    };
  }
}

/** The words of HTML that could not be parsed, a paragraph per block. */
function paragraphsOfText(html: string): Paragraph[] {
  const entities: Record<string, string> = {
    amp: '&',
    lt: '<',
    gt: '>',
    quot: '"',
    apos: "'",
    nbsp: ' ',
  };
  return html
    .replace(/<(script|style|template|noscript)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(
      /<\/?(?:p|div|h[1-6]|li|blockquote|pre|tr|br|hr|section|article|figure)\b[^>]*>/gi,
      '\n\n',
    )
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      const code = /^#x/i.test(name)
        ? parseInt(name.slice(2), 16)
        : /^#/.test(name)
          ? Number(name.slice(1))
          : NaN;
      if (Number.isNaN(code)) return entities[name.toLowerCase()] ?? whole;
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
    })
    .split(/\n\s*\n/)
    .map((block) => block.replace(/\s+/g, ' ').trim())
    .filter((block) => block !== '')
    .map((block) => ({ type: 'paragraph', children: [text(block)] }));
}

/** What the site can show, and nothing else: every other element keeps only its text. */
const SCHEMA: Schema = {
  tagNames: [
    'p',
    'br',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'dl',
    'dt',
    'dd',
    'strong',
    'b',
    'em',
    'i',
    'del',
    's',
    'strike',
    'a',
    'ul',
    'ol',
    'li',
    'blockquote',
    'pre',
    'code',
    'hr',
    'table',
    'caption',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'img',
    DIVIDER_TAG,
    FOOTNOTE_REF_TAG,
    FOOTNOTE_TAG,
    FOOTNOTE_LABEL_TAG,
    CARD_TAG,
    MEDIA_TAG,
  ],
  attributes: {
    // A link's choice of tab, and no other value (contract/link-target.ts).
    a: ['href', 'title', ['target', '_blank', '_self']],
    img: ['src', 'alt', 'title'],
    [CARD_TAG]: ['href'],
    [MEDIA_TAG]: ['src', 'alt', 'title'],
    ol: ['start', 'reversed'],
    code: [['className', /^language-./]],
    th: ['align'],
    td: ['align'],
  },
  protocols: { href: ['http', 'https', 'mailto'], src: ['http', 'https'] },
  ancestors: {
    tbody: ['table'],
    tfoot: ['table'],
    thead: ['table'],
    tr: ['table'],
    td: ['table'],
    th: ['table'],
    caption: ['table'],
  },
  strip: [
    'script',
    'style',
    'title',
    'template',
    'noscript',
    'svg',
    'math',
    'iframe',
    'object',
    'embed',
    'form',
    'textarea',
    'select',
    'button',
    'audio',
    'video',
    'canvas',
  ],
  clobber: [],
  allowComments: false,
  allowDoctypes: false,
};

declare module 'mdast' {
  interface LinkData {
    /** An address alone on its line, written as it is: a card (contract/embeds.ts). */
    card?: true;
  }
  interface ImageData {
    /** An audio or video file, which the writer stores as media rather than as an image. */
    media?: true;
  }
}

const HANDLERS: Record<string, Handle> = {
  ...STRUCTURE_HANDLERS,
  a: readLinkWithTarget,
  [DIVIDER_TAG]: () => ({ type: 'html', value: MEMBERS_DIVIDER }),
  [CARD_TAG]: (_state, node) => {
    const url = String(node.properties.href ?? '');
    return { type: 'link', url, title: null, children: [text(url)], data: { card: true } };
  },
  [MEDIA_TAG]: (_state, node) => ({
    type: 'image',
    url: String(node.properties.src ?? ''),
    alt: String(node.properties.alt ?? ''),
    title: typeof node.properties.title === 'string' ? node.properties.title : null,
    data: { media: true },
  }),
  [FOOTNOTE_REF_TAG]: (_state, node) => {
    const label = htmlTextOf(node).trim();
    return { type: 'footnoteReference', identifier: label, label };
  },
  [FOOTNOTE_TAG]: (state, node) => {
    const [first, ...rest] = node.children;
    const label = first ? htmlTextOf(first).trim() : '';
    const body: Element = { ...node, children: rest };
    return {
      type: 'footnoteDefinition',
      identifier: label,
      label,
      children: state.toFlow(state.all(body)),
    };
  },
};

const WRITE_OPTIONS: ToMarkdownOptions = {
  bullet: '-',
  emphasis: '*',
  strong: '*',
  rule: '-',
  fences: true,
  listItemIndent: 'one',
  resourceLink: false,
  handlers: {
    ...STRUCTURE_WRITERS,
    // A card is its address as typed: a link in any other form would not be one.
    link: (node: Link, ...rest) =>
      node.data?.card ? node.url : writeLinkWithTarget(node, ...rest),
  },
  extensions: [gfmTableToMarkdown(), gfmFootnoteToMarkdown(), gfmStrikethroughToMarkdown()],
};

function writeMarkdown(tree: Root): string {
  return tree.children.length === 0 ? '' : toMarkdown(tree, WRITE_OPTIONS).trim();
}

// ————— the site's rules, on Markdown's tree —————

/**
 * Headings from ## (the title is the page's only #), every image, media file and card a
 * paragraph of its own (or, where one cannot stand alone, a link to it), no empty paragraphs or
 * links, the members-only divider only between blocks at the top, code without the indentation of
 * the HTML it came from. Answers the images and the media files, once each.
 */
function tidyTree(root: Root): { images: SourceImage[]; media: SourceImage[] } {
  const images = new Map<string, SourceImage>();
  const media = new Map<string, SourceImage>();
  let divider = false;
  const keepDivider = (node: Nodes, atTop: boolean): boolean => {
    if (node.type !== 'html') return true;
    const wanted = atTop && !divider && splitAtDivider(node.value.trim()).after !== null;
    divider ||= wanted;
    return wanted;
  };

  const flow = (nodes: RootContent[], atTop: boolean): RootContent[] =>
    nodes.flatMap((node): RootContent[] => {
      switch (node.type) {
        case 'html':
          return keepDivider(node, atTop) ? [node] : [];
        case 'paragraph':
          return paragraphs(node, atTop);
        case 'heading': {
          const children = trimBreaks(phrasing(node.children, 'heading'));
          if (!hasText(children)) return [];
          return [{ ...node, depth: Math.max(node.depth, 2) as Heading['depth'], children }];
        }
        case 'code':
          return [{ ...node, value: dedent(node.value) } satisfies Code];
        case 'table': {
          const rows = node.children
            .map((row) => ({ ...row, children: row.children.map(cell) }))
            .filter((row) => row.children.length > 0);
          // A table without header cells keeps its empty header row: the page draws none.
          return rows.length > 0 ? [{ ...node, children: rows }] : [];
        }
        case 'list': {
          const items = flow(node.children, false) as ListItem[];
          if (items.length === 0) return [];
          return [{ ...node, spread: items.some((item) => item.spread), children: items }];
        }
        case 'listItem': {
          // Loose only where an item holds paragraphs of its own (not for a nested list).
          const children = flow(node.children, false);
          const paragraphs = children.filter((child) => child.type === 'paragraph').length;
          return [{ ...node, spread: paragraphs > 1, children } as ListItem];
        }
        case 'blockquote':
        case 'footnoteDefinition': {
          const children = flow(node.children, false);
          if (node.type === 'blockquote' && children.length === 0) return [];
          return [{ ...node, children } as RootContent];
        }
        default:
          return [node];
      }
    });

  /** A paragraph split around its images and cards; a divider alone in one stands alone. */
  const paragraphs = (node: Paragraph, atTop: boolean): RootContent[] => {
    const content = node.children.filter(
      (child) => child.type !== 'html' || child.value !== MEMBERS_DIVIDER,
    );
    if (content.length !== node.children.length && !hasText(content)) {
      const html: RootContent = { type: 'html', value: MEMBERS_DIVIDER };
      return keepDivider(html, atTop) ? [html] : [];
    }
    const out: RootContent[] = [];
    let run: PhrasingContent[] = [];
    const flush = () => {
      const children = trimBreaks(run);
      if (hasText(children)) out.push({ type: 'paragraph', children });
      run = [];
    };
    for (const child of content) {
      if (child.type === 'image') {
        flush();
        const image = keptImage(child);
        if (image) out.push({ type: 'paragraph', children: [image] });
      } else if (child.type === 'link' && child.data?.card) {
        flush();
        out.push({ type: 'paragraph', children: [child] });
      } else {
        run.push(...phrasing([child], 'paragraph'));
      }
    }
    flush();
    return out;
  };

  const keptImage = (node: Image): Image | null => {
    if (!/^https?:|^\//.test(node.url)) return null;
    const caption = node.title?.trim() || undefined;
    const kept = node.data?.media ? media : images;
    if (!kept.has(node.url)) {
      kept.set(node.url, { url: node.url, alt: node.alt ?? '', ...(caption ? { caption } : {}) });
    }
    return node;
  };

  /** Inline content where an image cannot stand alone: it becomes a link to the image. */
  const phrasing = (
    nodes: PhrasingContent[],
    within: 'paragraph' | 'heading' | 'link' | 'cell',
  ): PhrasingContent[] =>
    nodes.flatMap((node): PhrasingContent[] => {
      switch (node.type) {
        case 'html':
          return [];
        case 'break':
          return within === 'heading' || within === 'cell' ? [text(' ')] : [node];
        case 'image': {
          const label = text(node.alt?.trim() || 'image');
          if (within === 'link' || !/^https?:|^\//.test(node.url)) return [label];
          return [{ type: 'link', url: node.url, title: null, children: [label] } satisfies Link];
        }
        case 'link': {
          const children = phrasing(node.children, 'link');
          const safe = isSafeHref(node.url) && !node.url.startsWith('#');
          if (!safe && !node.url.startsWith('mailto:')) return children;
          // A card among words (or in a heading, a link, a cell) is a link to its address.
          const data = { ...node.data };
          delete data.card;
          return hasText(children) ? [{ ...node, data, children }] : [];
        }
        case 'emphasis':
        case 'strong':
        case 'delete': {
          // **bold **inside** bold** is bold once, and spaces at its edges stay outside it.
          const inner = phrasing(node.children, within).flatMap((child) =>
            child.type === node.type ? child.children : [child],
          );
          const content = inner.map(textOf).join('');
          const children = trimBreaks(inner);
          if (!hasText(children)) return content === '' ? [] : [text(' ')];
          return [
            ...(/^\s/.test(content) ? [text(' ')] : []),
            { ...node, children } as PhrasingContent,
            ...(/\s$/.test(content) ? [text(' ')] : []),
          ];
        }
        default:
          return [node];
      }
    });

  /** A table cell holds one line of inline content. */
  const cell = (node: TableCell): TableCell => ({
    ...node,
    children: trimBreaks(phrasing(inlineOf(node.children as Nodes[]), 'cell')),
  });

  root.children = withoutStrayRules(flow(root.children, true));
  return { images: [...images.values()], media: [...media.values()] };
}

/** Cards and media files as the links they are in text that shows neither. */
function embedsAsLinks(root: Root): void {
  visit(root, (node, parent) => {
    if (node.type === 'link') delete node.data?.card;
    if (node.type !== 'image' || !node.data?.media || !parent) return;
    const children = parent.children as Nodes[];
    children[children.indexOf(node)] = {
      type: 'link',
      url: node.url,
      title: node.title ?? null,
      children: [text(node.alt || node.url)],
    } satisfies Link;
  });
}

/** No rule at the very start or end of a body, nor two in a row (what removed widgets leave). */
function withoutStrayRules(nodes: RootContent[]): RootContent[] {
  const kept = nodes.filter(
    (node, index) => node.type !== 'thematicBreak' || nodes[index - 1]?.type !== 'thematicBreak',
  );
  while (kept[0]?.type === 'thematicBreak') kept.shift();
  while (kept.at(-1)?.type === 'thematicBreak') kept.pop();
  return kept;
}

/** Block content flattened to inline content (a list or paragraphs in a table cell). */
function inlineOf(nodes: Nodes[]): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  for (const node of nodes) {
    if (isPhrasing(node)) {
      out.push(node);
    } else if ('children' in node) {
      if (out.length > 0) out.push(text(' '));
      out.push(...inlineOf(node.children as Nodes[]));
    } else if (node.type === 'code') {
      out.push({ type: 'inlineCode', value: node.value });
    }
  }
  return out;
}

const PHRASING_TYPES = new Set([
  'text',
  'emphasis',
  'strong',
  'delete',
  'link',
  'linkReference',
  'image',
  'imageReference',
  'inlineCode',
  'break',
  'footnoteReference',
  'html',
]);
const isPhrasing = (node: Nodes): node is PhrasingContent => PHRASING_TYPES.has(node.type);

const text = (value: string): Text => ({ type: 'text', value });

/** The text of inline content. */
function textOf(node: PhrasingContent): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  if (node.type === 'break') return ' ';
  return 'children' in node ? node.children.map(textOf).join('') : '';
}

function hasText(nodes: readonly PhrasingContent[]): boolean {
  return nodes.some((node) => {
    if (node.type === 'text') return node.value.trim() !== '';
    if (node.type === 'break' || node.type === 'html') return false;
    if ('children' in node) return hasText(node.children);
    return true;
  });
}

/** No line break (nor blank text) at the start or end of a paragraph: Markdown cannot end on one. */
function trimBreaks(nodes: PhrasingContent[]): PhrasingContent[] {
  const blank = (node: PhrasingContent | undefined) =>
    node?.type === 'break' || (node?.type === 'text' && node.value.trim() === '');
  let start = 0;
  let end = nodes.length;
  while (start < end && blank(nodes[start])) start += 1;
  while (end > start && blank(nodes[end - 1])) end -= 1;
  const kept = nodes.slice(start, end);
  const first = kept[0];
  if (first?.type === 'text') kept[0] = text(first.value.trimStart());
  const last = kept.at(-1);
  if (last?.type === 'text') kept[kept.length - 1] = text(last.value.trimEnd());
  return kept;
}

// ————— the Markdown once converted —————

function visit(
  node: Nodes,
  callback: (node: Nodes, parent: Parents | null) => void,
  parent: Parents | null = null,
): void {
  callback(node, parent);
  if ('children' in node) for (const child of node.children) visit(child, callback, node);
}

/**
 * Each image swapped for what `resolve` answers (the stored upload's address), or, when it
 * answers null, for a link to the image's original address, so nothing is lost. The rest of the
 * Markdown is left exactly as it was.
 */
export function rewriteImages(
  markdown: string,
  resolve: (image: SourceImage) => { url: string; alt: string } | null,
): string {
  const edits: { start: number; end: number; value: string }[] = [];
  visit(parseSiteMarkdown(markdown), (node) => {
    if (node.type !== 'image') return;
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) return;
    const caption = node.title?.trim() || undefined;
    const stored = resolve({ url: node.url, alt: node.alt ?? '', ...(caption ? { caption } : {}) });
    const replacement: PhrasingContent = stored
      ? { type: 'image', url: stored.url, alt: stored.alt, title: caption ?? null }
      : {
          type: 'link',
          url: node.url,
          title: caption ?? null,
          children: [text(node.alt?.trim() || node.url)],
        };
    const value = toMarkdown({ type: 'paragraph', children: [replacement] }, WRITE_OPTIONS).trim();
    edits.push({ start, end, value });
  });
  return edits
    .sort((a, b) => b.start - a.start)
    .reduce((out, edit) => out.slice(0, edit.start) + edit.value + out.slice(edit.end), markdown);
}

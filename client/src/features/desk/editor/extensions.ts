import { Extension, Node, type AnyExtension } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import Link from '@tiptap/extension-link';
import { Markdown } from '@tiptap/markdown';
import { ReactNodeViewRenderer } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import {
  readLinkTarget,
  writeLinkTarget,
  type LinkTarget,
} from '../../../../../contract/link-target';
import { MEMBERS_DIVIDER, splitAtDivider } from '../../../../../contract/posts';
import {
  BLOCK_PIECE,
  CardLines,
  EmbedCard,
  Media,
  mediaNodeOf,
  writeImageMarkdown,
} from './cards-and-media';
import { ImageFigure } from './image-figure';

/**
 * The members-only divider (contract/posts.ts) as a block the writer sees and can move or delete:
 * "Members only from here". In Markdown it is its HTML comment on a line of its own.
 */
export const MembersDivider = Node.create({
  name: 'membersDivider',
  ...BLOCK_PIECE,
  parseHTML() {
    return [{ tag: 'div[data-members-divider]' }];
  },
  renderHTML() {
    return [
      'div',
      { 'data-members-divider': '', class: 'editor__divider', contenteditable: 'false' },
      'Members only from here',
    ];
  },
  markdownTokenName: 'html',
  parseMarkdown: (token, helpers) =>
    splitAtDivider(String(token.raw ?? '').trim()).after !== null
      ? helpers.createNode('membersDivider')
      : // Any other HTML is not kept (the site refuses it): its text, if any, stays.
        helpers.createTextNode(String(token.text ?? '')),
  renderMarkdown: () => MEMBERS_DIVIDER,
});

/**
 * A table or a footnote's text, kept exactly as its Markdown was written: the editor has no table
 * of its own, so it shows the source read-only, in a box that moves and deletes as one piece, and
 * writes it back unchanged. Selected, its Markdown is edited beside the body (body-editor.tsx).
 */
export const MarkdownSource = Node.create({
  name: 'markdownSource',
  ...BLOCK_PIECE,
  addAttributes() {
    return {
      kind: { default: 'table' },
      source: { default: '' },
    };
  },
  parseHTML() {
    return [
      {
        tag: 'figure[data-markdown-source]',
        getAttrs: (element) => ({
          kind: element.getAttribute('data-markdown-source') === 'footnote' ? 'footnote' : 'table',
          source: element.querySelector('pre')?.textContent ?? '',
        }),
      },
    ];
  },
  renderHTML({ node }) {
    const kind = node.attrs.kind === 'footnote' ? 'footnote' : 'table';
    return [
      'figure',
      { 'data-markdown-source': kind, class: 'editor__source', contenteditable: 'false' },
      [
        'figcaption',
        {},
        kind === 'table'
          ? 'Table: select it to edit its Markdown'
          : 'Footnote: select it to edit its Markdown',
      ],
      ['pre', {}, String(node.attrs.source)],
    ];
  },
  // Its words, for the word count: the cells' or the note's text without the Markdown around it.
  renderText: ({ node }) =>
    String(node.attrs.source)
      .replace(/^ {0,3}\[\^[^\]\s]+\]:|(?<!\\)\|[\s:|-]*(?=(?<!\\)\||$)|(?<!\\)\|/gm, ' ')
      .replace(/\\\|/g, '|')
      .replace(/[ \t]+/g, ' ')
      .trim(),
  markdownTokenName: 'table',
  parseMarkdown: (token, helpers) =>
    helpers.createNode('markdownSource', {
      kind: 'table',
      source: String(token.raw ?? '').replace(/\s+$/, ''),
    }),
  renderMarkdown: (node) => String(node.attrs?.source ?? ''),
});

/** `[^label]: text` and the lines that carry on its note (indented, or a paragraph's next line). */
const FOOTNOTE_DEFINITION = /^ {0,3}\[\^[^\]\s]+\]:/;
/** A line that starts a block of its own, so it cannot carry on a note's paragraph. */
const BLOCK_START =
  /^ {0,3}(?:#{1,6}(?:\s|$)|>|[-+*](?:\s|$)|\d{1,9}[.)](?:\s|$)|```|~~~|(?:[-*_][ \t]*){3,}$|<|\[\^[^\]\s]+\]:)/;

/** The footnote definition at the start of `src`: its lines, as GitHub's Markdown reads them. */
export function footnoteDefinitionAt(src: string): string | null {
  if (!FOOTNOTE_DEFINITION.test(src)) return null;
  const lines = src.split('\n');
  let end = 1;
  for (let index = 1; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (/^( {4}|\t)/.test(line) && line.trim() !== '') end = index + 1;
    else if (line.trim() === '') {
      // Blank lines belong to the note only when an indented line follows them.
      const next = lines.slice(index).find((later) => later.trim() !== '');
      if (next === undefined || !/^( {4}|\t)/.test(next)) break;
    } else if ((lines[index - 1] ?? '').trim() !== '' && !BLOCK_START.test(line)) end = index + 1;
    else break;
  }
  return lines.slice(0, end).join('\n') + (end < lines.length ? '\n' : '');
}

export const FootnoteDefinition = MarkdownSource.extend({
  name: 'footnoteDefinition',
  parseHTML: () => [],
  markdownTokenName: 'footnoteDefinition',
  markdownTokenizer: {
    name: 'footnoteDefinition',
    level: 'block',
    start: (src) => src.search(/^ {0,3}\[\^[^\]\s]+\]:/m),
    tokenize: (src) => {
      const raw = footnoteDefinitionAt(src);
      return raw === null ? undefined : { type: 'footnoteDefinition', raw };
    },
  },
  parseMarkdown: (token, helpers) =>
    helpers.createNode('markdownSource', {
      kind: 'footnote',
      source: String(token.raw ?? '').replace(/\s+$/, ''),
    }),
});

/** `[^label]`: a reference to a footnote, kept as one piece (its brackets are not text to escape). */
export const FootnoteReference = Node.create({
  name: 'footnoteReference',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  addAttributes() {
    return { label: { default: '' } };
  },
  parseHTML() {
    return [
      {
        tag: 'sup[data-footnote-ref]',
        getAttrs: (element) => ({ label: element.getAttribute('data-footnote-ref') ?? '' }),
      },
    ];
  },
  renderHTML({ node }) {
    const label = String(node.attrs.label);
    return [
      'sup',
      {
        'data-footnote-ref': label,
        class: 'editor__footnote-ref',
        contenteditable: 'false',
        title: `Footnote ${label}`,
      },
      `[^${label}]`,
    ];
  },
  markdownTokenName: 'footnoteReference',
  markdownTokenizer: {
    name: 'footnoteReference',
    level: 'inline',
    start: (src) => src.indexOf('[^'),
    tokenize: (src) => {
      const match = /^\[\^([^\]\s]+)\]/.exec(src);
      return match ? { type: 'footnoteReference', raw: match[0], label: match[1] } : undefined;
    },
  },
  parseMarkdown: (token, helpers) =>
    helpers.createNode('footnoteReference', { label: String(token.label ?? '') }),
  renderMarkdown: (node) => `[^${String(node.attrs?.label ?? '')}]`,
});

/**
 * The document, written as its blocks one blank line apart, without its empty paragraphs: the
 * lines a writer leaves (or the editor keeps at the end) draw nothing on the site, and TipTap's
 * own document would write them as `&nbsp;` paragraphs. A stored `&nbsp;` line still reads as an
 * empty paragraph, and goes at the next save.
 */
const BodyDocument = Node.create({
  name: 'doc',
  topNode: true,
  content: 'block+',
  renderMarkdown: (node, helpers) =>
    (node.content ?? [])
      .filter((child) => !isEmptyParagraph(child))
      .map((child) => countDown(child, helpers.renderChildren([child])))
      .filter((block) => block !== '')
      .join('\n\n'),
});

/** An item's marker at the start of a line, `3.` or `3)`, indented as `indent` says. */
const markerAt = (line: string | undefined, indent = ' {0,3}') =>
  new RegExp(`^(${indent})(\\d{1,9})([.)])(?=[ \\t]|$)`).exec(line ?? '');

/** Whether a list's Markdown counts down: its second item's number below its first's. */
function countsDown(raw: string): boolean {
  const [first, ...rest] = raw.split('\n');
  const opening = markerAt(first);
  if (!opening) return false;
  const next = rest.map((line) => markerAt(line, opening[1] ?? '')).find(Boolean);
  return !!next && Number(next[2]) < Number(opening[2]);
}

/** A reversed list's Markdown with its items numbered downwards from its start, as it was read. */
function countDown(node: { type?: string; attrs?: Record<string, unknown> }, written: string) {
  if (node.type !== 'orderedList' || node.attrs?.reversed !== true) return written;
  const start = typeof node.attrs.start === 'number' ? node.attrs.start : 1;
  let index = 0;
  return written
    .split('\n')
    .map((line) => {
      const marker = markerAt(line, '');
      if (!marker) return line;
      const number = Math.max(start - index, 0);
      index += 1;
      return `${number}${marker[3]}${line.slice(marker[0].length)}`;
    })
    .join('\n');
}

/**
 * A list numbered downwards (`3.`, `2.`, `1.`: an imported `<ol reversed>`): shown counting down
 * and written back as it came. Only a list at the top of the body: a nested one is written back
 * counting up, its items kept.
 */
const ReversedLists = Extension.create({
  name: 'reversedLists',
  priority: 1000,
  addGlobalAttributes: () => [
    {
      types: ['orderedList'],
      attributes: {
        reversed: {
          default: false,
          parseHTML: (element: HTMLElement) => element.hasAttribute('reversed'),
          renderHTML: (attributes: Record<string, unknown>) =>
            attributes.reversed ? { reversed: '' } : {},
        },
      },
    },
  ],
  markdownTokenName: 'list',
  // Read before the lists' own reader, which then reads the list (the token marked as seen here).
  parseMarkdown: (token, helpers) => {
    if (!token.ordered || token.countedDown || !countsDown(String(token.raw ?? ''))) return [];
    const [list] = helpers.parseChildren([{ ...token, countedDown: true }]);
    return list ? { ...list, attrs: { ...list.attrs, reversed: true } } : [];
  },
});

const isEmptyParagraph = (node: { type?: string; content?: unknown[] }) =>
  node.type === 'paragraph' && (node.content ?? []).length === 0;

/**
 * How `~~struck~~` text is read: Markdown's own reader strikes `~one tilde~` through as well, which
 * the site does not (server/src/content/markdown-to-tree.ts), so that stays text as written. Read
 * before StarterKit's strike (a higher priority), which still writes the mark back as `~~`.
 */
const TwoTildeStrike = Extension.create({
  name: 'twoTildeStrike',
  priority: 101,
  markdownTokenName: 'del',
  parseMarkdown: (token, helpers) =>
    String(token.raw ?? '').startsWith('~~')
      ? helpers.applyMark('strike', helpers.parseInline(token.tokens ?? []))
      : helpers.createTextNode(String(token.raw ?? '')),
});

const isLinkTarget = (value: unknown): value is LinkTarget =>
  value === '_blank' || value === '_self';

/**
 * A link, with its own choice of tab when the writer made one (the link dialog's "Open in a new
 * tab"): `target` is null for the site's rule, and written after the link's Markdown as
 * `{target="_blank"}` or `{target="_self"}` (contract/link-target.ts).
 */
const BodyLink = Link.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      target: {
        default: null,
        parseHTML: (element: HTMLElement) => {
          const target = element.getAttribute('target');
          return isLinkTarget(target) ? target : null;
        },
      },
      rel: { default: null },
    };
  },
  renderMarkdown(node, helpers, context) {
    const written = this.parent?.(node, helpers, context) ?? '';
    const target: unknown = node.attrs?.target;
    return isLinkTarget(target) ? written + writeLinkTarget(target) : written;
  },
});

/**
 * `[words](address){target="_blank"}`: a link and its choice of tab, read as one piece. Markdown's
 * own reader would read the link and leave the choice as text after it. A link it does not
 * match (brackets nested twice, say) is read as a link, its choice kept as text.
 */
const TARGETED_LINK =
  /^\[((?:\\.|[^[\]\\]|\[(?:\\.|[^[\]\\])*\])*)\]\([ \t]*(<[^<>\n]*>|(?:[^()\s\\]|\\.|\((?:[^()\s\\]|\\.)*\))+)(?:[ \t]+"((?:\\.|[^"\\])*)")?[ \t]*\)/;
const unescapeMarkdown = (text: string) => text.replace(/\\([!-/:-@[-`{-~])/g, '$1');

const TargetedLink = Extension.create({
  name: 'targetedLink',
  markdownTokenName: 'targetedLink',
  markdownTokenizer: {
    name: 'targetedLink',
    level: 'inline',
    start: (src) => src.indexOf('['),
    tokenize: (src, _tokens, lexer) => {
      const match = TARGETED_LINK.exec(src);
      if (!match) return undefined;
      const choice = readLinkTarget(src.slice(match[0].length));
      if (!choice) return undefined;
      const [whole, text = '', address = '', title] = match;
      return {
        type: 'targetedLink',
        raw: whole + src.slice(match[0].length, match[0].length + choice.length),
        href: unescapeMarkdown(address.replace(/^<|>$/g, '')),
        title: title === undefined ? null : unescapeMarkdown(title),
        target: choice.target,
        tokens: lexer.inlineTokens(text),
      };
    },
  },
  parseMarkdown: (token, helpers) =>
    helpers.applyMark('link', helpers.parseInline(token.tokens ?? []), {
      href: token.href,
      title: token.title ?? null,
      target: token.target,
    }),
});

/**
 * An uploaded image, drawn with its alt text and caption to edit under it (image-figure.tsx). An
 * upload's address that names audio or video is read as that player (cards-and-media.ts).
 */
const BodyImage = Image.extend({
  addNodeView: () => ReactNodeViewRenderer(ImageFigure),
  parseMarkdown: (token, helpers) =>
    mediaNodeOf(token) ??
    helpers.createNode('image', { src: token.href, title: token.title, alt: token.text }),
  renderMarkdown: (node) =>
    writeImageMarkdown(
      String(node.attrs?.alt ?? ''),
      String(node.attrs?.src ?? ''),
      typeof node.attrs?.title === 'string' ? node.attrs.title : null,
    ),
});

/** What the page around the editor gives it (body-editor.tsx); the tests give nothing. */
export interface BodyOptions {
  /** The title the server read of a card's address, if it has. */
  cardTitle?: (url: string) => string | null;
  /** `/embed` and Enter on an empty line: the page asks for an address. */
  onEmbedCommand?: () => void;
}

/**
 * What a post's body can hold in the editor: exactly what the site draws (contract/markdown-tree):
 * headings ## to ######, bold, italic, strike-through, links, lists, quotes, code, rules, uploaded
 * images with alt text and a caption (Markdown's image title), uploaded audio and video, cards (an
 * address alone on its line), the members-only divider, footnote references, and tables and
 * footnotes' text kept as written. Markdown in, Markdown out (@tiptap/markdown); shortcuts as you
 * type come with each node (`## `, `- `, `1. `, `> `).
 */
export function bodyExtensions(options: BodyOptions = {}): AnyExtension[] {
  return [
    BodyDocument,
    StarterKit.configure({
      document: false,
      // ## to ###### as the site draws them: an imported post keeps its smallest headings.
      heading: { levels: [2, 3, 4, 5, 6] },
      // Not drawn by the site: no underline to write.
      underline: false,
      link: false,
    }),
    BodyLink.configure({
      openOnClick: false,
      autolink: true,
      protocols: ['http', 'https'],
      isAllowedUri: (url) => /^(https?:\/\/|\/(?!\/))/i.test(url),
      // The tab is the link's own choice (`target`), or the site's rule: none by default.
      HTMLAttributes: { target: null, rel: null },
    }),
    TargetedLink,
    BodyImage.configure({ inline: false, allowBase64: false }),
    Media,
    EmbedCard.configure({ cardTitle: options.cardTitle ?? (() => null) }),
    CardLines.configure({ onEmbedCommand: options.onEmbedCommand ?? null }),
    MembersDivider,
    TwoTildeStrike,
    ReversedLists,
    MarkdownSource,
    FootnoteDefinition,
    FootnoteReference,
    Markdown.configure({ markedOptions: { gfm: true } }),
  ];
}

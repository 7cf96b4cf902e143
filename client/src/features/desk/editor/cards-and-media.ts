import { Extension, Node } from '@tiptap/core';
import { closeHistory } from '@tiptap/pm/history';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, Selection, type EditorState, type Transaction } from '@tiptap/pm/state';
import { ReactNodeViewRenderer } from '@tiptap/react';
import { cardAddressOf } from '../../../../../contract/embeds';
import { parseMediaUrl } from '../../../../../contract/media';
import { EmbedCardView, type EmbedCardOptions } from './embed-card-view';
import { MediaFigure } from './media-figure';

// Cards and uploaded audio and video in the body (decision note 0029). A card is an address alone
// on its line; audio and video are written as an image is, `![title](/uploads/….mp3 "caption")`,
// and told from images by their address (contract/media.ts).

/**
 * What every block of the body that is one piece is (a card, a player, a divider, a table kept as
 * Markdown): selected, moved and deleted whole, its inside not the body's text.
 */
export const BLOCK_PIECE = {
  group: 'block',
  atom: true,
  selectable: true,
  draggable: true,
} as const;

/**
 * A card: the address, which is all its Markdown holds. The editor shows its provider, the address
 * and the title the server read of it, never the provider's player: nothing in the desk asks a
 * third party for anything.
 */
export const EmbedCard = Node.create<EmbedCardOptions>({
  name: 'embedCard',
  ...BLOCK_PIECE,
  addOptions() {
    return { cardTitle: () => null };
  },
  addAttributes() {
    return { url: { default: '' } };
  },
  parseHTML() {
    return [
      {
        tag: 'figure[data-embed-card]',
        getAttrs: (element) => {
          const url = cardAddressOf(element.getAttribute('data-embed-card') ?? '');
          return url ? { url } : false;
        },
      },
    ];
  },
  renderHTML({ node }) {
    const url = String(node.attrs.url);
    return ['figure', { 'data-embed-card': url, contenteditable: 'false' }, url];
  },
  addNodeView: () => ReactNodeViewRenderer(EmbedCardView),
  markdownTokenName: 'cardLine',
  markdownTokenizer: {
    name: 'cardLine',
    level: 'block',
    // Where a paragraph above it must stop, to try it: a line's start. marked asks from the
    // second character of what is left, which may be inside a line.
    start: (src) => {
      const at = src.search(/\n {0,3}https?:\/\/[^\s<>"]+[ \t]*(?:\n|$)/i);
      return at < 0 ? -1 : at + 1;
    },
    tokenize: (src, tokens, lexer) => {
      const raw = cardLineAt(src, tokens.at(-1));
      // Only where a paragraph may be (the body, a quote): not a list item's text, which marked
      // reads as `text`, for a list item cannot start with a card.
      if (raw === null || lexer.blockTokens('probe')[0]?.type !== 'paragraph') return undefined;
      return { type: 'cardLine', raw, url: cardAddressOf(raw) };
    },
  },
  parseMarkdown: (token, helpers) => helpers.createNode('embedCard', { url: token.url }),
  renderMarkdown: (node) => String(node.attrs?.url ?? ''),
});

/**
 * A line that ends a paragraph above it, in CommonMark: a heading, a quote, a fence, a list item
 * with words, a thematic break (`---` under words is a heading's underline instead), an HTML
 * comment. Any other line carries the paragraph on.
 */
const ENDS_PARAGRAPH =
  /^ {0,3}(?:#{1,6}(?:[ \t]|$)|>|```|~~~|[-+*][ \t]+\S|1[.)][ \t]+\S|(?:\*[ \t]*){3,}$|(?:_[ \t]*){3,}$|<!--)/;

/**
 * The card line at the start of `src`, with its line break, when it is a paragraph of its own as
 * the site reads it (server/src/content/markdown-to-tree.ts): an address alone, not the next line
 * of a paragraph above and not carried on by the line below.
 */
export function cardLineAt(
  src: string,
  before: { type?: string; raw?: string } | undefined,
): string | null {
  const [line = '', next] = src.split('\n', 2);
  if (!cardAddressOf(line)) return null;
  // marked hands a paragraph over in pieces: one not closed by a blank line goes on with this one.
  if (
    (before?.type === 'paragraph' || before?.type === 'text') &&
    !/\n[ \t]*\n$/.test(before.raw ?? '')
  )
    return null;
  if (next !== undefined && next.trim() !== '' && !ENDS_PARAGRAPH.test(next)) return null;
  return next === undefined ? line : `${line}\n`;
}

/**
 * An uploaded audio or video file: a small player of the site's own file, its title (the
 * Markdown's alt text: the player's name) and caption (the Markdown's title) edited beside it.
 */
export const Media = Node.create({
  name: 'media',
  ...BLOCK_PIECE,
  addAttributes() {
    return {
      src: { default: '' },
      title: { default: '' },
      caption: { default: null },
    };
  },
  parseHTML() {
    return [
      {
        tag: 'figure[data-media]',
        getAttrs: (element) => {
          const src = element.getAttribute('data-media') ?? '';
          if (!parseMediaUrl(src)) return false;
          return {
            src,
            title: element.getAttribute('data-title') ?? '',
            caption: element.getAttribute('data-caption'),
          };
        },
      },
    ];
  },
  renderHTML({ node }) {
    const caption = typeof node.attrs.caption === 'string' ? node.attrs.caption : null;
    return [
      'figure',
      {
        'data-media': String(node.attrs.src),
        'data-title': String(node.attrs.title ?? ''),
        ...(caption !== null && { 'data-caption': caption }),
        contenteditable: 'false',
      },
      String(node.attrs.title ?? ''),
    ];
  },
  addNodeView: () => ReactNodeViewRenderer(MediaFigure),
  renderMarkdown: (node) =>
    writeImageMarkdown(
      String(node.attrs?.title ?? ''),
      String(node.attrs?.src ?? ''),
      typeof node.attrs?.caption === 'string' ? node.attrs.caption : null,
    ),
});

/**
 * `![alt](src "title")`, with what would end the alt text or the title escaped: an alt text with
 * brackets, a caption with quotes, are read back as written.
 */
export function writeImageMarkdown(alt: string, src: string, title: string | null): string {
  const text = alt.replace(/[\\[\]]/g, '\\$&');
  return title ? `![${text}](${src} "${title.replace(/[\\"]/g, '\\$&')}")` : `![${text}](${src})`;
}

/** An image token of Markdown (`![alt](href "title")`) as the node it is: a player, or null. */
export const mediaNodeOf = (token: { href?: unknown; text?: unknown; title?: unknown }) => {
  const src = typeof token.href === 'string' ? token.href : '';
  if (!parseMediaUrl(src)) return null;
  return {
    type: 'media',
    attrs: {
      src,
      // marked gives the alt text unescaped, the way it reads.
      title: typeof token.text === 'string' ? token.text : '',
      caption: typeof token.title === 'string' && token.title !== '' ? token.title : null,
    },
  };
};

const cardPasteKey = new PluginKey('cardPaste');

/**
 * Pasting an address alone on an empty line makes it a card, and `/embed` then Enter asks for one.
 * Before the other keys' own Enter (a higher priority).
 */
export const CardLines = Extension.create<{ onEmbedCommand: (() => void) | null }>({
  name: 'cardLines',
  priority: 1001,
  addOptions() {
    return { onEmbedCommand: null };
  },
  addKeyboardShortcuts() {
    return {
      Enter: () => {
        const ask = this.options.onEmbedCommand;
        const { selection } = this.editor.state;
        const { $from } = selection;
        if (!ask || !selection.empty || $from.parent.type.name !== 'paragraph') return false;
        if ($from.parent.textContent.trim() !== '/embed') return false;
        this.editor.commands.deleteRange({ from: $from.start(), to: $from.end() });
        ask();
        return true;
      },
    };
  },
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: cardPasteKey,
        props: {
          handlePaste: (view, event) =>
            pasteCardAddress(
              () => view.state,
              (tr) => view.dispatch(tr),
              event.clipboardData?.getData('text/plain') ?? '',
            ),
        },
      }),
    ];
  },
});

/**
 * An address pasted alone on an empty line: first the link it would have been, then, as a step of
 * its own for the undo history, the card. Undo right after gives the link back, for a writer who
 * wanted a link (`[address](address)`, which the site never shows as a card). Anything else
 * pasted, or an address pasted into words, is left to the editor's own paste.
 */
export function pasteCardAddress(
  state: () => EditorState,
  dispatch: (tr: Transaction) => void,
  pasted: string,
): boolean {
  const url = cardAddressOf(pasted);
  const { schema, selection } = state();
  const { embedCard: card, paragraph: emptyLine } = schema.nodes;
  const link = schema.marks.link;
  const { $from } = selection;
  const line = $from.parent;
  if (!url || !card || !emptyLine || !link || !selection.empty) return false;
  if (line.type.name !== 'paragraph' || line.content.size > 0) return false;
  // Where a card may stand: not as a list item's first line, say.
  const container = $from.node(-1);
  const index = $from.index(-1);
  if (!container.canReplaceWith(index, index + 1, card)) return false;

  const start = $from.before();
  dispatch(state().tr.insert($from.pos, schema.text(url, [link.create({ href: url })])));
  const linked = state();
  const paragraph = linked.doc.nodeAt(start);
  if (!paragraph) return true;
  const blocks: ProseMirrorNode[] = [card.create({ url })];
  const next = linked.doc.resolve(start + paragraph.nodeSize).nodeAfter;
  // A line to type on after it, when nothing follows it.
  if (!next) blocks.push(emptyLine.create());
  const tr = linked.tr.replaceWith(start, start + paragraph.nodeSize, blocks);
  tr.setSelection(Selection.near(tr.doc.resolve(start + (blocks[0]?.nodeSize ?? 0)), 1));
  dispatch(closeHistory(tr).scrollIntoView());
  return true;
}

import type {
  BlockContent,
  DefinitionContent,
  FootnoteDefinition,
  Image,
  Nodes,
  Paragraph,
  PhrasingContent,
  Root,
  RootContent,
  Table,
} from 'mdast';
import {
  cardAddressOf,
  embedProviderOf,
  playerOf,
  type CardReading,
} from '../../../contract/embeds.js';
import { isRemoteImageUrl, parseUploadUrl } from '../../../contract/images.js';
import { parseMediaUrl } from '../../../contract/media.js';
import { splitAtDivider } from '../../../contract/posts.js';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFootnoteFromMarkdown } from 'mdast-util-gfm-footnote';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmFootnote } from 'micromark-extension-gfm-footnote';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { readLinkTarget, type LinkTarget } from '../../../contract/link-target.js';
import { isSafeHref } from '../../../contract/safe-href.js';
import type {
  BlockNode,
  FootnoteNode,
  FootnoteReferenceNode,
  FootnotesNode,
  InlineNode,
  ListItemNode,
  MarkdownTree,
  TableCell,
  TableNode,
} from '../../../contract/markdown-tree.js';
import { isReversed, languageOf, tableCaptionIn } from './markdown-structures.js';

/**
 * The site's Markdown as mdast: CommonMark with three parts of GitHub's Markdown, tables,
 * footnotes and `~~strike~~`. Not the whole of it: its bare-address autolinks would turn text in
 * existing bodies into links, and a single `~` (as in "~5 minutes") stays a tilde. Whatever reads
 * a body (the Ghost export's HTML too) parses it with this, so all read it alike.
 */
export const parseSiteMarkdown = (markdown: string): Root =>
  takeLinkTargets(
    fromMarkdown(markdown, {
      extensions: [gfmTable(), gfmFootnote(), gfmStrikethrough({ singleTilde: false })],
      mdastExtensions: [
        gfmTableFromMarkdown(),
        gfmFootnoteFromMarkdown(),
        gfmStrikethroughFromMarkdown(),
      ],
    }),
  );

declare module 'mdast' {
  interface LinkData {
    /** The link's own choice of tab (contract/link-target.ts), read from after it. */
    target?: LinkTarget;
  }
  interface LinkReferenceData {
    target?: LinkTarget;
  }
}

/**
 * Each link's choice of tab (`{target="_blank"}` right after it: contract/link-target.ts) moved
 * from the text into the link's data, so nothing that reads the tree sees it as words.
 */
function takeLinkTargets(root: Root): Root {
  visit(root, (node) => {
    if (!('children' in node)) return;
    const children = node.children as Nodes[];
    for (let index = 0; index < children.length - 1; index += 1) {
      const link = children[index];
      const next = children[index + 1];
      if (!link || (link.type !== 'link' && link.type !== 'linkReference')) continue;
      if (next?.type !== 'text') continue;
      const choice = readLinkTarget(next.value);
      if (!choice) continue;
      link.data = { ...link.data, target: choice.target };
      next.value = next.value.slice(choice.length);
      if (next.value === '') children.splice(index + 1, 1);
    }
  });
  return root;
}

/** What was read of card addresses (contract/embeds.ts), by address: the server's `embed_cards`. */
export type CardReadings = ReadonlyMap<string, CardReading>;

const NO_CARDS: CardReadings = new Map();

/**
 * Turns a Markdown body into the tree the client renders. Only a safe subset of mdast survives:
 * raw HTML and images other than uploads alone on their line are dropped, reference links are
 * resolved, links to anything but http(s) or a path on this site become plain text, footnotes are
 * numbered and gathered at the end, and source positions are stripped. An address alone on its
 * line becomes a card, from what `cards` holds of it.
 */
export function convertMarkdownToTree(markdown: string, cards = NO_CARDS): MarkdownTree {
  return checkAndConvertMarkdown(markdown, cards).tree;
}

/** Both at once, from one parse: the tree, and what the content format forbids in the body. */
export function checkAndConvertMarkdown(
  markdown: string,
  cards = NO_CARDS,
): {
  tree: MarkdownTree;
  problems: string[];
} {
  const root = parseSiteMarkdown(markdown);
  const definitions = collectDefinitions(root);
  const context: Context = { definitions, notes: new Notes(root), source: markdown, cards };
  const children = convertBlocks(root.children, context);
  const footnotes = context.notes.convert(context);
  return {
    tree: { type: 'root', children: footnotes ? [...children, footnotes] : children },
    problems: problemsOf(root, definitions),
  };
}

/** The members-only divider (contract/posts.ts): the one comment a body may hold. */
const isDivider = (html: string) => splitAtDivider(html.trim()).after !== null;

/** What the content format forbids in a body, as messages for the build's error report. */
export function findMarkdownProblems(markdown: string): string[] {
  const root = parseSiteMarkdown(markdown);
  return problemsOf(root, collectDefinitions(root));
}

function problemsOf(root: Root, definitions: ReturnType<typeof collectDefinitions>): string[] {
  const problems: string[] = [];
  visit(root, (node) => {
    if (node.type === 'heading' && node.depth === 1) {
      problems.push(`"# ${plainText(node)}": headings start at ## (the title is the page's H1)`);
    } else if (node.type === 'html' && !isDivider(node.value)) {
      problems.push(`raw HTML is not allowed: ${node.value.trim().slice(0, 40)}`);
    } else if (node.type === 'image') {
      if (parseMediaUrl(node.url)) {
        // Audio and video: the alt text is the player's name, and may be left out.
      } else if (!parseUploadUrl(node.url) && !isRemoteImageUrl(node.url)) {
        problems.push(
          `image "${node.url}": images must be uploaded to this site (the desk's Upload image)`,
        );
      } else if (!node.alt?.trim()) {
        problems.push(
          `image "${node.url}" needs alt text: describe it for readers who cannot see it`,
        );
      }
    } else if (node.type === 'imageReference') {
      problems.push('images must be written ![alt](address), not by reference');
    } else if (
      (node.type === 'paragraph' && node.children.some(isImage) && !imageAlone(node)) ||
      (node.type === 'tableCell' && node.children.some(isImage))
    ) {
      problems.push('an image must be a paragraph of its own, with no text beside it');
    } else if (node.type === 'link' && !isSafeHref(node.url)) {
      problems.push(`link to "${node.url}": links must be http(s) addresses or paths on this site`);
    } else if (node.type === 'linkReference') {
      const url = definitions.get(node.identifier);
      if (url !== undefined && !isSafeHref(url)) {
        problems.push(`link to "${url}": links must be http(s) addresses or paths on this site`);
      }
    }
  });
  return problems;
}

/** The words a reader sees, for the article length rule. */
export function countWords(tree: MarkdownTree): number {
  const words = (
    nodes: readonly (BlockNode | InlineNode | ListItemNode | FootnoteNode)[],
  ): number =>
    nodes.reduce((sum, node) => {
      if ('value' in node) return sum + (node.value.match(/\S+/g)?.length ?? 0);
      if (node.type === 'table') return sum + words([node.head, ...node.rows].flat(2));
      if ('children' in node) return sum + words(node.children);
      return sum;
    }, 0);
  return words(tree.children);
}

type Definitions = Map<string, string>;

function collectDefinitions(root: Root): Definitions {
  const definitions: Definitions = new Map();
  visit(root, (node) => {
    if (node.type === 'definition') definitions.set(node.identifier, node.url);
  });
  return definitions;
}

function visit(node: Nodes, callback: (node: Nodes) => void): void {
  callback(node);
  if ('children' in node) for (const child of node.children) visit(child, callback);
}

function plainText(node: Nodes): string {
  if ('value' in node) return node.value;
  if ('children' in node) return node.children.map(plainText).join('');
  return '';
}

/** What converting one body needs to know of the whole: its link definitions and its notes. */
interface Context {
  definitions: Definitions;
  notes: Notes;
  /** The Markdown itself: a card is told by what was typed, not by how it parsed. */
  source: string;
  cards: CardReadings;
}

/**
 * The body's footnotes: their definitions, wherever written (the first of a label wins, as in
 * GitHub's Markdown), numbered as they are first referenced.
 */
class Notes {
  private readonly definitions = new Map<string, FootnoteDefinition>();
  /** The notes numbered so far, in the order of their numbers. */
  private readonly numbered: Note[] = [];
  private readonly noteByDefinition = new Map<FootnoteDefinition, Note>();
  private readonly ids = new Set<string>();

  constructor(root: Root) {
    visit(root, (node) => {
      if (node.type === 'footnoteDefinition' && !this.definitions.has(node.identifier)) {
        this.definitions.set(node.identifier, node);
      }
    });
  }

  /** A reference to a note, or null when no definition has its label. */
  reference(identifier: string): FootnoteReferenceNode | null {
    const definition = this.definitions.get(identifier);
    if (!definition) return null;
    const note = this.noteOf(definition);
    note.references += 1;
    return {
      type: 'footnoteReference',
      number: note.number,
      id: note.id,
      occurrence: note.references,
    };
  }

  /**
   * Every note as one block (null when the body has none): the referenced ones in the order of
   * their numbers, then the ones nothing references in the order they were written. A note's
   * text may reference notes not yet numbered: they join the end of the queue.
   */
  convert(context: Context): FootnotesNode | null {
    const texts: BlockNode[][] = [];
    for (let index = 0; ; index += 1) {
      const note = this.numbered[index] ?? this.numberNextUnreferenced();
      if (!note) break;
      texts.push(convertBlocks(note.definition.children, context));
    }
    if (texts.length === 0) return null;
    // Counted once every note is converted: a later note may reference an earlier one.
    return {
      type: 'footnotes',
      children: this.numbered.map(({ number, id, references }, index) => ({
        type: 'footnote',
        number,
        id,
        references,
        children: texts[index] ?? [],
      })),
    };
  }

  private numberNextUnreferenced(): Note | undefined {
    for (const definition of this.definitions.values()) {
      if (!this.noteByDefinition.has(definition)) return this.noteOf(definition);
    }
    return undefined;
  }

  private noteOf(definition: FootnoteDefinition): Note {
    const known = this.noteByDefinition.get(definition);
    if (known) return known;
    const number = this.numbered.length + 1;
    // The label as an id readers can link to (`#fn-sources`), made unique where two labels
    // reduce to the same one.
    let id =
      (definition.label ?? definition.identifier)
        .toLowerCase()
        .replace(/[^a-z0-9_-]+/g, '-')
        .replace(/^-+|-+$/g, '') || String(number);
    while (this.ids.has(id)) id = `${id}-${number}`;
    this.ids.add(id);
    const note: Note = { definition, number, id, references: 0 };
    this.numbered.push(note);
    this.noteByDefinition.set(definition, note);
    return note;
  }
}

interface Note {
  definition: FootnoteDefinition;
  number: number;
  id: string;
  references: number;
}

function convertBlocks(
  nodes: readonly (RootContent | BlockContent | DefinitionContent)[],
  context: Context,
): BlockNode[] {
  const blocks: BlockNode[] = [];
  for (const [index, node] of nodes.entries()) {
    const previous = blocks.at(-1);
    // A `Table: …` paragraph right after a table is its caption, not a paragraph of its own.
    if (node.type === 'paragraph' && nodes[index - 1]?.type === 'table' && previous) {
      const caption = previous.type === 'table' ? captionOf(node, context) : null;
      if (previous.type === 'table' && caption) {
        previous.caption = caption;
        continue;
      }
    }
    blocks.push(...convertBlock(node, context));
  }
  return blocks;
}

/** A caption's words, from a paragraph that opens with `Table: `; null for any other. */
function captionOf(paragraph: Paragraph, context: Context): InlineNode[] | null {
  const words = tableCaptionIn(paragraph);
  const caption = words ? convertInlines(words, context) : [];
  return caption.length > 0 ? caption : null;
}

function convertBlock(
  node: RootContent | BlockContent | DefinitionContent,
  context: Context,
): BlockNode[] {
  switch (node.type) {
    case 'paragraph': {
      const image = imageAlone(node);
      if (image) return imageBlock(image);
      const card = cardBlock(node, context);
      if (card) return [card];
      const children = convertInlines(node.children, context);
      return children.length > 0 ? [{ type: 'paragraph', children }] : [];
    }
    case 'heading': {
      // An H1 is the page's title: one in a body is drawn as the next level down.
      const depth = Math.max(node.depth, 2) as 2 | 3 | 4 | 5 | 6;
      return [{ type: 'heading', depth, children: convertInlines(node.children, context) }];
    }
    case 'list': {
      const reversed = node.ordered === true && isReversed(node, context.source);
      return [
        {
          type: 'list',
          ordered: node.ordered === true,
          start:
            node.ordered && node.start != null && (node.start !== 1 || reversed)
              ? node.start
              : null,
          spread: node.spread === true,
          ...(reversed && { reversed: true as const }),
          children: node.children.map((item) => ({
            type: 'listItem',
            children: convertBlocks(item.children, context),
          })),
        },
      ];
    }
    case 'blockquote':
      return [{ type: 'blockquote', children: convertBlocks(node.children, context) }];
    case 'code': {
      const lang = languageOf(node.lang);
      return [{ type: 'code', value: node.value, ...(lang && { lang }) }];
    }
    case 'thematicBreak':
      return [{ type: 'thematicBreak' }];
    case 'table':
      return [convertTable(node, context)];
    default:
      // Raw HTML, link and footnote definitions (the notes are gathered at the end), images and
      // anything this site does not render.
      return [];
  }
}

/**
 * Every row with one cell per column: a short row is filled with empty cells, a long one cut. A
 * header of empty cells is a table without one (what an import writes for such a table).
 */
function convertTable(table: Table, context: Context): TableNode {
  const align = table.align?.map((column) => column ?? null) ?? [];
  const [head, ...rows] = table.children.map((row) =>
    align.map((_, column): TableCell => {
      const cell = row.children[column];
      return cell ? convertInlines(cell.children, context) : [];
    }),
  );
  const headless = rows.length > 0 && (head ?? []).every((cell) => cell.length === 0);
  return {
    type: 'table',
    align,
    head: head ?? [],
    rows,
    ...(headless && { headless: true as const }),
  };
}

const isImage = (node: PhrasingContent): node is Image => node.type === 'image';

/** The image a paragraph holds alone (whitespace aside), if it does. */
export function imageAlone(paragraph: Paragraph): Image | null {
  const rest = paragraph.children.filter(
    (child) => !(child.type === 'text' && child.value.trim() === ''),
  );
  const [only] = rest;
  return rest.length === 1 && only && isImage(only) ? only : null;
}

/** The address a paragraph holds alone, as cardBlock tells it; null for any other paragraph. */
export function cardAddressIn(paragraph: Paragraph, source: string): string | null {
  const { start, end } = paragraph.position ?? {};
  if (start?.offset === undefined || end?.offset === undefined) return null;
  if (imageAlone(paragraph)) return null;
  return cardAddressOf(source.slice(start.offset, end.offset));
}

/** Every card's address in a body, once each, in order: what a save reads (server/src/embeds). */
export function cardAddressesIn(markdown: string): string[] {
  const found = new Set<string>();
  visit(parseSiteMarkdown(markdown), (node) => {
    const url = node.type === 'paragraph' ? cardAddressIn(node, markdown) : null;
    if (url) found.add(url);
  });
  return [...found];
}

/**
 * The card a paragraph is (contract/embeds.ts): an embed for a provider's address, whatever was
 * read of it; a bookmark for another address whose page was read, else a link to it; null for a
 * paragraph that is not an address alone.
 */
function cardBlock(paragraph: Paragraph, context: Context): BlockNode | null {
  const url = cardAddressIn(paragraph, context.source);
  if (!url) return null;
  const reading = context.cards.get(url);
  const card = reading?.state === 'read' ? reading.card : null;
  const provider = embedProviderOf(url);
  if (provider) {
    const embed = card?.kind === 'embed' && card.provider === provider ? card : null;
    return {
      type: 'embed',
      url,
      provider,
      player: embed ? embed.player : playerOf(provider, url),
      title: embed?.title ?? null,
      author: embed?.author ?? null,
      thumbnail: embed?.thumbnail ?? null,
      aspect: embed?.aspect ?? null,
    };
  }
  if (card?.kind !== 'bookmark') {
    return {
      type: 'paragraph',
      children: [{ type: 'link', url, children: [{ type: 'text', value: url }] }],
    };
  }
  const { title, description, siteName, image } = card;
  return { type: 'bookmark', url, title, description, siteName, image };
}

/**
 * An uploaded image as a figure, or an uploaded audio or video file as a player, or an image an
 * import left at its old http(s) address as a figure from there; anything else is dropped (the
 * checks refuse it).
 */
function imageBlock(image: Image): BlockNode[] {
  const media = parseMediaUrl(image.url);
  if (media) {
    return [
      {
        type: media.kind,
        src: image.url,
        title: image.alt?.trim() ?? '',
        caption: image.title?.trim() || null,
        mime: media.mime,
        duration: media.duration,
        width: media.width,
        height: media.height,
      },
    ];
  }
  const uploaded = parseUploadUrl(image.url);
  if (!uploaded) {
    // An image an import could not fetch, still at its old address until it is fetched again.
    if (!isRemoteImageUrl(image.url)) return [];
    const { url: src, alt, title } = image;
    return [{ type: 'remoteImage', src, alt: alt?.trim() ?? '', caption: title?.trim() || null }];
  }
  return [
    {
      type: 'image',
      src: image.url,
      alt: image.alt?.trim() ?? '',
      caption: image.title?.trim() || null,
      width: uploaded.width,
      height: uploaded.height,
    },
  ];
}

function convertInlines(nodes: readonly PhrasingContent[], context: Context): InlineNode[] {
  return nodes.flatMap((node) => convertInline(node, context));
}

function convertInline(node: PhrasingContent, context: Context): InlineNode[] {
  switch (node.type) {
    case 'text':
      return [{ type: 'text', value: node.value }];
    case 'strong':
    case 'emphasis':
    case 'delete':
      return [{ type: node.type, children: convertInlines(node.children, context) }];
    case 'inlineCode':
      return [{ type: 'inlineCode', value: node.value }];
    case 'break':
      return [{ type: 'break' }];
    case 'link':
      return convertLink(node.url, convertInlines(node.children, context), node.data?.target);
    case 'linkReference':
      return convertLink(
        context.definitions.get(node.identifier) ?? '',
        convertInlines(node.children, context),
        node.data?.target,
      );
    case 'footnoteReference': {
      const reference = context.notes.reference(node.identifier);
      return [reference ?? { type: 'text', value: `[^${node.label ?? node.identifier}]` }];
    }
    default:
      // Raw HTML and images.
      return [];
  }
}

function convertLink(url: string, children: InlineNode[], target?: LinkTarget): InlineNode[] {
  const href = url.trim();
  if (!isSafeHref(href)) return children;
  return [{ type: 'link', url: href, children, ...(target && { newTab: target === '_blank' }) }];
}

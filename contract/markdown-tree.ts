// A Markdown body as the content build hands it to the client: a safe subset of mdast. The build
// parses Markdown and keeps only these nodes, so the client never sees raw HTML.

import type { CardImage, EmbedProvider } from './embeds.js';

export type InlineNode =
  | { type: 'text'; value: string }
  | { type: 'strong' | 'emphasis' | 'delete'; children: InlineNode[] }
  | {
      type: 'link';
      url: string;
      children: InlineNode[];
      /** The link's own choice of tab (contract/link-target.ts); absent: the site's rule. */
      newTab?: boolean;
    }
  | { type: 'inlineCode'; value: string }
  | { type: 'break' }
  | FootnoteReferenceNode;

/**
 * `[^label]` in the text: a superscript link to its note. A reference whose label has no
 * definition is not one: it stays as its literal text.
 */
export interface FootnoteReferenceNode {
  type: 'footnoteReference';
  /** The note's number: notes are numbered in the order they are first referenced. */
  number: number;
  /** The note's id (FootnoteNode's), safe in an HTML id and a URL fragment. */
  id: string;
  /** 1 for the note's first reference, 2 for the next…: each reference needs an anchor of its own. */
  occurrence: number;
}

export interface ListItemNode {
  type: 'listItem';
  children: BlockNode[];
}

/** A column's alignment, from the table's delimiter row (`:--`, `:-:`, `--:`). */
export type TableAlign = 'left' | 'center' | 'right' | null;

/** A table cell: inline content only (a cell cannot hold paragraphs, lists or images). */
export type TableCell = InlineNode[];

/**
 * A GFM table: the header row, then the body's rows; every row has one cell per column. A header
 * row of empty cells is a table without a header (`headless`: Markdown's tables need that row, the
 * page draws none). A `Table: …` paragraph right after the table is its caption.
 */
export interface TableNode {
  type: 'table';
  align: TableAlign[];
  head: TableCell[];
  rows: TableCell[][];
  headless?: true;
  caption?: InlineNode[];
}

/** What opens a table's caption: a paragraph right after the table (Pandoc's way of writing it). */
export const TABLE_CAPTION_PREFIX = 'Table: ';

/** One footnote's text: `[^label]: …`, with every block a body may hold but another note list. */
export interface FootnoteNode {
  type: 'footnote';
  number: number;
  id: string;
  /** How many references point at it (0 for a definition nothing references). */
  references: number;
  children: BlockNode[];
}

/**
 * Every footnote of the body, wherever its definition was written, at the end of the tree in the
 * order of their numbers (the ones nothing references last). There is at most one, and only last.
 */
export interface FootnotesNode {
  type: 'footnotes';
  children: FootnoteNode[];
}

export type BlockNode =
  | { type: 'paragraph'; children: InlineNode[] }
  | { type: 'heading'; depth: 2 | 3 | 4 | 5 | 6; children: InlineNode[] }
  | {
      type: 'list';
      ordered: boolean;
      start: number | null;
      spread: boolean;
      /** Numbered downwards from `start` (written `3.`, `2.`, `1.`). */
      reversed?: true;
      children: ListItemNode[];
    }
  | { type: 'blockquote'; children: BlockNode[] }
  /** `lang`: the fence's language (```js), when it names one. */
  | { type: 'code'; value: string; lang?: string }
  | { type: 'thematicBreak' }
  | ImageNode
  | RemoteImageNode
  | MediaNode
  | EmbedNode
  | BookmarkNode
  | TableNode
  | FootnotesNode;

/**
 * An uploaded image on a line of its own (`![alt](/uploads/… "caption")`), drawn as a figure with
 * every size of it (contract/images.ts); its size comes from its address.
 */
export interface ImageNode {
  type: 'image';
  src: string;
  alt: string;
  caption: string | null;
  width: number;
  height: number;
}

/**
 * An image still at its address on another site (`![alt](https://old.example/a.jpg "caption")`),
 * left so by an import that could not fetch it: drawn as a figure from there, its size unknown,
 * until the desk's "Try the missing images again" stores it here.
 */
export interface RemoteImageNode {
  type: 'remoteImage';
  src: string;
  alt: string;
  caption: string | null;
}

/**
 * An uploaded audio or video file on a line of its own (`![title](/uploads/….mp3 "caption")`),
 * drawn as a player; its duration and a video's size come from its address (contract/media.ts).
 */
export interface MediaNode {
  type: 'audio' | 'video';
  src: string;
  /** What the file is (the Markdown's alt text): the player's accessible name. */
  title: string;
  caption: string | null;
  mime: string;
  /** Whole seconds, or null when the upload's duration could not be read. */
  duration: number | null;
  width: number | null;
  height: number | null;
}

/**
 * An address of one of the providers a post may embed, alone on its line (contract/embeds.ts):
 * drawn as its stored thumbnail and title, and the player only once the reader asks. Without what
 * was read of it (a content file, a source that could not be reached), it still names its
 * provider, and its player when the address alone says it.
 */
export interface EmbedNode {
  type: 'embed';
  url: string;
  provider: EmbedProvider;
  player: string | null;
  title: string | null;
  author: string | null;
  thumbnail: CardImage | null;
  aspect: number | null;
}

/**
 * Any other address alone on its line whose page could be read: a card with its title,
 * description, site name and image. One that could not be read stays a link.
 */
export interface BookmarkNode {
  type: 'bookmark';
  url: string;
  title: string;
  description: string | null;
  siteName: string | null;
  image: CardImage | null;
}

export interface MarkdownTree {
  type: 'root';
  children: BlockNode[];
}

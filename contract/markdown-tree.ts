// A Markdown body as the content build hands it to the client: a safe subset of mdast. The build
// parses Markdown and keeps only these nodes, so the client never sees raw HTML.

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

/** A GFM table: the header row, then the body's rows; every row has one cell per column. */
export interface TableNode {
  type: 'table';
  align: TableAlign[];
  head: TableCell[];
  rows: TableCell[][];
}

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
  | { type: 'heading'; depth: 2 | 3 | 4; children: InlineNode[] }
  | {
      type: 'list';
      ordered: boolean;
      start: number | null;
      spread: boolean;
      children: ListItemNode[];
    }
  | { type: 'blockquote'; children: BlockNode[] }
  | { type: 'code'; value: string }
  | { type: 'thematicBreak' }
  | ImageNode
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

export interface MarkdownTree {
  type: 'root';
  children: BlockNode[];
}

// A Markdown body as the content build hands it to the client: a safe subset of mdast. The build
// parses Markdown and keeps only these nodes, so the client never sees raw HTML.

export type InlineNode =
  | { type: 'text'; value: string }
  | { type: 'strong' | 'emphasis'; children: InlineNode[] }
  | { type: 'link'; url: string; children: InlineNode[] }
  | { type: 'inlineCode'; value: string }
  | { type: 'break' };

export interface ListItemNode {
  type: 'listItem';
  children: BlockNode[];
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
  | ImageNode;

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

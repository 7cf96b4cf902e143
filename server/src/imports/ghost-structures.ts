import type { Element } from 'hast';
import type { Paragraph, PhrasingContent, Root, Table } from 'mdast';
import { defaultHandlers, type Handler } from 'mdast-util-to-hast';
import { isReversed, tableCaptionIn } from '../content/markdown-structures.js';

/*
 * The structures a body writes in plain Markdown (content/FORMAT.md) as HTML says them, for the
 * Ghost export: a list numbered downwards as `<ol reversed>`, a table with an empty header row
 * without one, and a `Table: …` paragraph after a table as the table's `<caption>`. An import of
 * that HTML (html-structures.ts) writes the same Markdown again.
 */

declare module 'mdast' {
  interface TableData {
    /** The words of the caption paragraph that followed it (taken out of the body). */
    caption?: PhrasingContent[];
  }
}

/** Marks the tree before it becomes HTML: reversed lists, and each table's caption moved in. */
export function markStructuresForHtml(tree: Root, markdown: string): void {
  const walk = (node: Root | Root['children'][number]): void => {
    if (node.type === 'list' && node.ordered && isReversed(node, markdown)) {
      node.data = { ...node.data, hProperties: { ...node.data?.hProperties, reversed: true } };
    }
    if (!('children' in node)) return;
    const children = node.children as Root['children'];
    for (let index = 0; index < children.length; index += 1) {
      const child = children[index];
      const next = children[index + 1];
      const caption = next?.type === 'paragraph' ? tableCaptionIn(next as Paragraph) : null;
      if (child?.type === 'table' && caption) {
        child.data = { ...child.data, caption };
        children.splice(index + 1, 1);
      }
      if (child) walk(child);
    }
  };
  walk(tree);
}

/** The HTML writer's table: without a header when the header row is empty, with its caption. */
export const STRUCTURE_HTML_HANDLERS: Record<string, Handler> = {
  table: (state, node: Table) => {
    const made = defaultHandlers.table(state, node);
    const [head, ...rows] = node.children;
    const headless =
      rows.length > 0 && (head?.children ?? []).every((cell) => cell.children.length === 0);
    const kept = made.children.filter(
      (child) => !(headless && child.type === 'element' && child.tagName === 'thead'),
    );
    const words = node.data?.caption;
    const caption: Element[] = words
      ? [
          {
            type: 'element',
            tagName: 'caption',
            properties: {},
            children: state.all({ type: 'paragraph', children: words }),
          },
        ]
      : [];
    return { ...made, children: [...caption, ...kept] };
  },
};

import type { Nodes } from 'mdast';
import { tableCaptionIn } from './markdown-structures.js';
import { parseSiteMarkdown } from './markdown-to-tree.js';

// The words of a body in the site's Markdown as a reader sees them: for summaries
// (post-summary.ts), reading times and word counts, whichever way the post came.

/**
 * The words a body opens with, for a summary: its first paragraph with words, outside lists,
 * quotes and tables, else the first inside one; empty when it has none (headings, captions and
 * code are not an opening, and strung together they read as nothing). Which part of a body a
 * summary may come from is content/post-summary.ts's to say.
 */
export function openingTextOf(markdown: string): string {
  const root = parseSiteMarkdown(markdown);
  const textOf = (node: Nodes) => inlineTextOf(node).replace(/\s+/g, ' ').trim();
  // A `Table: …` paragraph after a table is its caption, not an opening.
  const top = root.children
    .filter(
      (node, index) => node.type === 'paragraph' && !isCaption(node, root.children[index - 1]),
    )
    .map(textOf);
  const first = top.find((text) => text !== '');
  if (first !== undefined) return first;
  const inside: string[] = [];
  const walk = (node: Nodes): void => {
    if (node.type === 'paragraph') inside.push(textOf(node));
    else if (node.type !== 'table' && node.type !== 'footnoteDefinition' && 'children' in node) {
      node.children.forEach(walk);
    }
  };
  walk(root);
  return inside.find((text) => text !== '') ?? '';
}

const isCaption = (node: Nodes, previous: Nodes | undefined) =>
  node.type === 'paragraph' && previous?.type === 'table' && tableCaptionIn(node) !== null;

/**
 * What the site took a body's opening to be before it took the first paragraph: its paragraphs
 * outside lists, quotes and tables, in order, else its whole text. Only to tell a summary made
 * by that rule from one a writer typed (post-summary.ts isMadeSummary).
 */
export function joinedParagraphsOf(markdown: string): string {
  const root = parseSiteMarkdown(markdown);
  const paragraphs = root.children
    .filter((node) => node.type === 'paragraph')
    .map((node) => inlineTextOf(node).replace(/\s+/g, ' ').trim())
    .filter((text) => text !== '');
  return paragraphs.length > 0 ? paragraphs.join(' ') : plainTextOf(markdown);
}

/** A paragraph's or a heading's words, without images, footnote marks or HTML. */
function inlineTextOf(node: Nodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  if (node.type === 'break') return ' ';
  if (node.type === 'image' || node.type === 'html' || node.type === 'footnoteReference') return '';
  return 'children' in node ? node.children.map(inlineTextOf).join('') : '';
}

/**
 * The words a reader sees, block by block (a blank line between blocks): no images, no markup,
 * no footnotes. For reading times and word counts.
 */
export function plainTextOf(markdown: string): string {
  const blocks: string[] = [];
  const inline = inlineTextOf;
  const block = (node: Nodes): void => {
    if (node.type === 'footnoteDefinition' || node.type === 'html') return;
    if (node.type === 'paragraph' || node.type === 'heading' || node.type === 'tableCell') {
      blocks.push(inline(node));
    } else if (node.type === 'code') {
      blocks.push(node.value);
    } else if ('children' in node) {
      node.children.forEach(block);
    }
  };
  block(parseSiteMarkdown(markdown));
  return blocks
    .map((value) => value.replace(/\s+/g, ' ').trim())
    .filter((value) => value !== '')
    .join('\n\n');
}

export function wordCountOf(markdown: string): number {
  return plainTextOf(markdown).match(/\S+/g)?.length ?? 0;
}

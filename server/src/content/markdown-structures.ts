import type { List, ListItem, Paragraph, PhrasingContent } from 'mdast';
import { TABLE_CAPTION_PREFIX } from '../../../contract/markdown-tree.js';

/*
 * What plain Markdown says beyond its syntax, as the site reads it (content/FORMAT.md): a
 * `Table: …` paragraph after a table is its caption, a list numbered downwards counts down, a
 * fence's language is a class name's word. The page (markdown-to-tree.ts), the summaries
 * (markdown-text.ts) and the Ghost export (imports/ghost-structures.ts) read them alike.
 */

/**
 * The words of a table's caption, from the paragraph after the table that opens with `Table: `
 * (the prefix taken off); null for any other paragraph. The Ghost export reads it too.
 */
export function tableCaptionIn(paragraph: Paragraph): PhrasingContent[] | null {
  const [first, ...rest] = paragraph.children;
  if (first?.type !== 'text' || !first.value.startsWith(TABLE_CAPTION_PREFIX)) return null;
  const value = first.value.slice(TABLE_CAPTION_PREFIX.length).trimStart();
  const words = value ? [{ ...first, value }, ...rest] : rest;
  return words.length > 0 ? words : null;
}

/**
 * Whether an ordered list counts down: its second item's number below its first's (`3.`, `2.`),
 * as it was written (the Markdown reader keeps only the first number).
 */
export function isReversed(list: List, source: string): boolean {
  const numberAt = (item: ListItem | undefined) => {
    const offset = item?.position?.start.offset;
    const match = offset === undefined ? null : /^(\d{1,9})[.)]/.exec(source.slice(offset));
    return match ? Number(match[1]) : null;
  };
  const [first, second] = [numberAt(list.children[0]), numberAt(list.children[1])];
  return first !== null && second !== null && second < first;
}

/** A fence's language, when it is a word a class name can carry (```js, ```c++). */
export const languageOf = (lang: string | null | undefined): string | null =>
  lang && /^[a-z0-9][\w+#.-]{0,39}$/i.test(lang) ? lang.toLowerCase() : null;

import type { Element, ElementContent, Root as HtmlRoot } from 'hast';
import { defaultHandlers as fromHtml, type Handle } from 'hast-util-to-mdast';
import type { List, ListItem, Nodes as MdastNodes, Paragraph, PhrasingContent, Table } from 'mdast';
import { defaultHandlers as toText, type Handle as WriteHandle } from 'mdast-util-to-markdown';
import { TABLE_CAPTION_PREFIX } from '../../../contract/markdown-tree.js';
import { attribute, classesOf, element, findAll, textOf, words } from './html-nodes.js';

/*
 * The structures of a post's HTML that Markdown has no syntax of its own for, written in the
 * forms the site's renderer reads back (content/markdown-to-tree.ts, content/FORMAT.md):
 * a table without a header keeps an empty header row, which the page does not draw; a table's
 * caption is a `Table: …` paragraph right after it; a reversed list is numbered downwards; code
 * keeps its language on its fence (and loses the indentation of the HTML around it); a definition
 * list is a list of its terms in bold, each with its definitions.
 */

declare module 'mdast' {
  interface ListData {
    /** Numbered downwards (`<ol reversed>`): written 3. 2. 1., which the page reads back. */
    reversed?: true;
  }
}

/** A code language as a fence may carry it: a word of letters, digits and `+#._-`. */
const LANGUAGE = /^[a-z0-9][\w+#.-]{0,39}$/i;

/**
 * Before sanitising: every code block's language where the platforms keep it, on its `<code>`
 * as `language-…` (what the Markdown converter reads); a figure's caption around a table as the
 * table's own `<caption>`.
 */
export function markStructures(root: HtmlRoot): void {
  for (const pre of findAll(root, (node) => node.tagName === 'pre')) languageOnCode(pre);
  for (const figure of findAll(root, (node) => node.tagName === 'figure')) captionIntoTable(figure);
}

/**
 * The language of a `<pre>` from wherever the platforms write it: `<code class="language-js">`
 * or `lang-js` (Ghost, Prism, highlight.js), `<code lang="php">` or `data-lang`, the same on the
 * `<pre>`, SyntaxHighlighter's `class="brush: ruby; …"` and Crayon's `class="lang:go …"`.
 */
function languageOnCode(pre: Element): void {
  const code = pre.children.find(
    (child): child is Element => child.type === 'element' && child.tagName === 'code',
  );
  const fromClasses = (node: Element) =>
    classesOf(node)
      .map((name) => /^(?:language|lang)[-:](.+)$/.exec(name)?.[1])
      .find((value) => value !== undefined);
  const brush = /(?:^|\s)brush:\s*([^;\s]+)/.exec(attribute(pre, 'className') ?? '')?.[1];
  const language = [
    code && fromClasses(code),
    code && attribute(code, 'lang'),
    code && attribute(code, 'dataLang'),
    code && attribute(code, 'dataLanguage'),
    fromClasses(pre),
    attribute(pre, 'lang'),
    attribute(pre, 'dataLang'),
    attribute(pre, 'dataLanguage'),
    brush,
  ]
    .map((value) => value?.trim())
    .find((value) => value !== undefined && LANGUAGE.test(value));
  if (!language) return;
  const className = [`language-${language.toLowerCase()}`];
  if (code) code.properties.className = className;
  else pre.children = [element('code', { className }, pre.children)];
}

/** WordPress's table block: `<figure><table>…</table><figcaption>`, the caption the table's. */
function captionIntoTable(figure: Element): void {
  const tables = figure.children.filter(
    (child): child is Element => child.type === 'element' && child.tagName === 'table',
  );
  const figcaption = figure.children.find(
    (child): child is Element => child.type === 'element' && child.tagName === 'figcaption',
  );
  const [table] = tables;
  if (tables.length !== 1 || !table || !figcaption || words(textOf(figcaption)) === '') return;
  if (table.children.some((child) => child.type === 'element' && child.tagName === 'caption')) {
    return;
  }
  table.children.unshift(element('caption', {}, figcaption.children));
  figure.children = figure.children.filter((child) => child !== figcaption);
}

const isElement = (node: ElementContent): node is Element => node.type === 'element';

/** The Markdown converter's handlers for these structures (hast-util-to-mdast). */
export const STRUCTURE_HANDLERS: Record<string, Handle> = {
  table: (state, node) => {
    const caption = node.children.find(
      (child): child is Element => isElement(child) && child.tagName === 'caption',
    );
    const rest = { ...node, children: node.children.filter((child) => child !== caption) };
    const made = fromHtml.table(state, rest) as Table | MdastNodes;
    if (!caption || made.type !== 'table') return made;
    const words = state.toFlow(state.all(caption));
    const inline = words.flatMap((block) =>
      block.type === 'paragraph' ? (block.children as PhrasingContent[]) : [],
    );
    const first = inline[0];
    if (inline.length === 0) return made;
    if (first?.type === 'text') first.value = first.value.trimStart();
    const paragraph: Paragraph = {
      type: 'paragraph',
      children: [{ type: 'text', value: TABLE_CAPTION_PREFIX }, ...inline],
    };
    return [made, paragraph];
  },
  ol: (state, node) => {
    const made = fromHtml.ol(state, node) as List | undefined;
    if (!made || made.type !== 'list' || !node.properties.reversed) return made;
    // Without a start, a reversed list counts down from its number of items, as a browser does.
    const given = Number.parseInt(String(node.properties.start), 10);
    const start = Number.isNaN(given) ? made.children.length : given;
    // Markdown numbers no item below 0: such a list stays numbered upwards.
    if (start - (made.children.length - 1) < 0) return made;
    return { ...made, start, data: { ...made.data, reversed: true } };
  },
  dl: (state, node) => {
    const items: ListItem[] = [];
    let terms: Element[] = [];
    let definitions: Element[] = [];
    const flush = () => {
      if (terms.length === 0 && definitions.length === 0) return;
      items.push(definitionItem(terms, definitions));
      terms = [];
      definitions = [];
    };
    // A `<div>` may group a term with its definitions (HTML allows it).
    const parts = node.children
      .filter(isElement)
      .flatMap((child) => (child.tagName === 'div' ? child.children.filter(isElement) : [child]));
    for (const part of parts) {
      if (part.tagName === 'dt' && definitions.length > 0) flush();
      if (part.tagName === 'dt') terms.push(part);
      else if (part.tagName === 'dd') definitions.push(part);
    }
    flush();

    function definitionItem(titles: Element[], meanings: Element[]): ListItem {
      // Several terms for one meaning (`<dt>` after `<dt>`) are one bold run, split by slashes.
      const term = titles
        .map((title) => state.toFlow(state.all(title)).flatMap(inlineOf))
        .filter((inline) => inline.some((child) => child.type !== 'text' || child.value.trim()))
        .flatMap((inline, index): PhrasingContent[] =>
          index === 0 ? inline : [{ type: 'text', value: ' / ' }, ...inline],
        );
      const bold: PhrasingContent[] = term.length > 0 ? [{ type: 'strong', children: term }] : [];
      const blocks = meanings.map((meaning) => state.toFlow(state.all(meaning)));
      const [only] = blocks;
      // A term with one definition of one paragraph reads as one line: "**Term**: meaning".
      if (blocks.length === 1 && only?.length === 1 && only[0]?.type === 'paragraph') {
        const children = bold.length > 0 ? [...bold, { type: 'text' as const, value: ': ' }] : [];
        return listItem([{ type: 'paragraph', children: [...children, ...only[0].children] }]);
      }
      const lead: Paragraph[] = bold.length > 0 ? [{ type: 'paragraph', children: bold }] : [];
      return listItem([...lead, ...blocks.flat()]);
    }
    if (items.length === 0) return undefined;
    return { type: 'list', ordered: false, start: null, spread: false, children: items };
  },
};

const listItem = (children: ListItem['children']): ListItem => ({
  type: 'listItem',
  spread: children.length > 1,
  checked: null,
  children,
});

/** A block's inline content (a term's words, whatever wraps them). */
function inlineOf(node: MdastNodes): PhrasingContent[] {
  if (node.type === 'paragraph' || node.type === 'heading') return node.children;
  if ('children' in node) return (node.children as MdastNodes[]).flatMap(inlineOf);
  return [];
}

/** The Markdown writer's handler for these structures: a reversed list's items count down. */
export const STRUCTURE_WRITERS: Partial<Record<string, WriteHandle>> = {
  listItem: (node: ListItem, parent, state, info) => {
    if (parent?.type !== 'list' || !parent.data?.reversed || typeof parent.start !== 'number') {
      return toText.listItem(node, parent, state, info);
    }
    const number = parent.start - parent.children.indexOf(node);
    return toText.listItem(node, { ...parent, start: number, children: [node] }, state, info);
  },
};

/** Code as written, without the blank lines and indentation its HTML wrapped it in. */
export function dedent(code: string): string {
  const lines = code.replace(/\s+$/, '').split('\n');
  const openedOnItsOwnLine = lines.length > 1 && lines[0]?.trim() === '';
  while (lines.length > 0 && lines[0]?.trim() === '') lines.shift();
  // Code that starts on the line after <code> is indented like the HTML around it; when only the
  // first line is (Medium writes the other lines after <br>), that indentation is not the code's.
  const [first = '', ...others] = lines;
  const indentOf = (line: string) => /^[ \t]*/.exec(line)?.[0].length ?? 0;
  const othersIndent = Math.min(...others.filter((line) => line.trim() !== '').map(indentOf));
  if (openedOnItsOwnLine && others.length > 0 && indentOf(first) > othersIndent) {
    lines[0] = first.trimStart();
  }
  const indents = lines
    .filter((line) => line.trim() !== '')
    .map((line) => /^[ \t]*/.exec(line)?.[0].length ?? 0);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(cut)).join('\n');
}

import type { Nodes, Root } from 'mdast';
import { DomainError } from '../domain-error.js';

/**
 * How deep a comment may nest (docs/comments.md#writing). The Markdown parser, and the tree walks
 * after it, recurse once per level and take time that grows with the square of the depth: a
 * comment of 5,000 `>` overflowed the stack after half a second. So a comment is measured before
 * it is parsed, by a scan of its lines that never underestimates (block quotes and lists, the
 * only Markdown that nests without end in few characters), and its tree is measured again before
 * it is walked (bold and italics inside one another, and anything the scan might have missed).
 */

export const MAX_QUOTE_DEPTH = 5;
export const MAX_LIST_DEPTH = 10;
const MAX_EMPHASIS_DEPTH = 10;

/** Past these, the tree is refused whatever made it deep (it cannot be with the scan's limits). */
const MAX_TREE_DEPTH = 1 + MAX_QUOTE_DEPTH + 2 * MAX_LIST_DEPTH + 1 + MAX_EMPHASIS_DEPTH + 6;

const tooDeep = (message: string) => new DomainError(400, 'comment_too_deep', message);

const TOO_DEEP = {
  quotes: () =>
    tooDeep(`Quotes can be nested ${MAX_QUOTE_DEPTH} deep at most (> > > > >): quote less of it.`),
  lists: () =>
    tooDeep(`Lists can be nested ${MAX_LIST_DEPTH} deep at most: flatten yours a little.`),
  emphasis: () =>
    tooDeep(
      `Bold and italics can be nested ${MAX_EMPHASIS_DEPTH} deep at most: remove a few * or _.`,
    ),
  tree: () =>
    tooDeep(
      `This comment nests too deep to show: quotes can be nested ${MAX_QUOTE_DEPTH} deep at most, lists ${MAX_LIST_DEPTH}.`,
    ),
};

const TAB_WIDTH = 4;

/**
 * Refuses (400 `comment_too_deep`) a comment whose block quotes or lists would nest past the
 * limits, without parsing it (measureBlockNesting).
 */
export function refuseDeepBlocks(markdown: string): void {
  const nesting = measureBlockNesting(markdown);
  if (nesting.quotes > MAX_QUOTE_DEPTH) throw TOO_DEEP.quotes();
  if (nesting.lists > MAX_LIST_DEPTH) throw TOO_DEEP.lists();
}

/**
 * How deep a comment's block quotes and lists nest at most, in one pass over its lines. A line's
 * containers are those its prefix opens (each `>`, each list marker) and the lists it continues by
 * indentation; each of those needs at least two columns of it, and it continues no more of them
 * than a line before it had (a lazy line continues what was open, and opens nothing). Counting
 * every tab as four columns, a marker inside code as a marker, and the deepest line before as
 * still open, it may count more than the parser makes, never fewer. It stops at one past a limit:
 * no comment costs more than a few steps a line.
 */
export function measureBlockNesting(markdown: string): { quotes: number; lists: number } {
  let quotes = 0;
  let lists = 0;
  for (const line of markdown.split(/\r\n|\r|\n/)) {
    const prefix = measurePrefix(line);
    quotes = Math.max(quotes, prefix.quotes);
    lists = Math.max(lists, prefix.markers + Math.min(lists, Math.floor(prefix.columns / 2)));
    if (quotes > MAX_QUOTE_DEPTH || lists > MAX_LIST_DEPTH) break;
  }
  return { quotes, lists };
}

/**
 * The container prefix of a line: its `>` (quotes), its list markers (`-`, `+`, `*`, `1.`, `1)`
 * followed by a space, a tab or the line's end) and the columns of white space between them. It
 * stops at the first thing that is none of these, and at a thematic break (`- - -`, `* * *`),
 * which is not a list. It stops counting once a limit is passed: no line costs more than a few
 * steps past it.
 */
function measurePrefix(line: string): { quotes: number; markers: number; columns: number } {
  let quotes = 0;
  let markers = 0;
  let columns = 0;
  let at = 0;
  while (at < line.length && quotes <= MAX_QUOTE_DEPTH && markers <= MAX_LIST_DEPTH) {
    const character = line[at];
    if (character === ' ' || character === '\t') {
      columns += character === '\t' ? TAB_WIDTH : 1;
      at += 1;
    } else if (character === '>') {
      quotes += 1;
      at += 1;
    } else {
      const end = listMarkerEnd(line, at);
      if (end === null) break;
      markers += 1;
      at = end;
    }
  }
  return { quotes, markers, columns };
}

/** Where the list marker at `at` ends, or null when there is none there. */
function listMarkerEnd(line: string, at: number): number | null {
  const character = line[at] ?? '';
  let end = at;
  if (character === '-' || character === '+' || character === '*') {
    if ((character === '-' || character === '*') && isThematicBreak(line, at)) return null;
    end = at + 1;
  } else {
    while (end < line.length && end - at < 9 && isDigit(line[end])) end += 1;
    if (end === at || (line[end] !== '.' && line[end] !== ')')) return null;
    end += 1;
  }
  const next = line[end];
  return next === undefined || next === ' ' || next === '\t' ? end : null;
}

const isDigit = (character: string | undefined) =>
  character !== undefined && character >= '0' && character <= '9';

/** Whether the rest of the line from `at` is three or more of its character and white space. */
function isThematicBreak(line: string, at: number): boolean {
  const mark = line[at];
  let count = 0;
  for (let index = at; index < line.length; index += 1) {
    const character = line[index];
    if (character === mark) count += 1;
    else if (character !== ' ' && character !== '\t') return false;
  }
  return count >= 3;
}

/**
 * Refuses a parsed comment whose bold and italics nest past the limit, or whose tree is deeper
 * than the limits allow for any reason: walked with a list of its own, not by recursion, so a
 * tree of any depth is measured without overflowing the stack.
 */
export function refuseDeepTree(tree: Root): void {
  const pending: { node: Nodes; depth: number; emphasis: number }[] = [
    { node: tree, depth: 1, emphasis: 0 },
  ];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { node, depth, emphasis } = next;
    if (emphasis > MAX_EMPHASIS_DEPTH) throw TOO_DEEP.emphasis();
    if (depth > MAX_TREE_DEPTH) throw TOO_DEEP.tree();
    if (!('children' in node)) continue;
    const inner = node.type === 'emphasis' || node.type === 'strong' ? emphasis + 1 : emphasis;
    for (const child of node.children) {
      pending.push({ node: child, depth: depth + 1, emphasis: inner });
    }
  }
}

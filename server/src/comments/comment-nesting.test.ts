import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { describe, expect, it } from 'vitest';
import {
  MAX_LIST_DEPTH,
  MAX_QUOTE_DEPTH,
  measureBlockNesting,
  refuseDeepTree,
} from './comment-nesting.js';

// The scan that measures a comment's nesting before the Markdown parser sees it: it must never
// count fewer levels than the parser makes, or a deep comment would reach the parser.

/** A small seeded generator (mulberry32): the same comments on every run. */
function randomFrom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A comment of lines that open and continue quotes and lists in every way Markdown allows. */
function randomComment(random: () => number): string {
  const pick = <T>(choices: readonly T[]) => choices[Math.floor(random() * choices.length)] as T;
  const markers = ['-', '*', '+', '1.', '10)', '>', '>', '123456789.'];
  const spaces = ['', ' ', '  ', '   ', '    ', '     ', '\t', ' \t'];
  const endings = ['a', 'text', '- - -', '***', '```', '> b', ''];
  const line = () => {
    if (random() < 0.1) return '';
    const indent = random() < 0.5 ? Math.floor(random() * 30) : 2 * Math.floor(random() * 15);
    let text = Array.from({ length: indent }, () => (random() < 0.15 ? '\t' : ' ')).join('');
    const count = Math.floor(random() * 7);
    for (let index = 0; index < count; index += 1) text += pick(markers) + pick(spaces);
    return text + pick(endings);
  };
  const lines = Array.from({ length: 1 + Math.floor(random() * 25) }, line);
  return lines.join(pick(['\n', '\n', '\r\n', '\r']));
}

/** The deepest quotes and lists the parser makes of a comment. */
function parsedDepths(node: Nodes, quotes = 0, lists = 0): { quotes: number; lists: number } {
  const inner = {
    quotes: quotes + (node.type === 'blockquote' ? 1 : 0),
    lists: lists + (node.type === 'list' ? 1 : 0),
  };
  if (!('children' in node)) return inner;
  return node.children.reduce((deepest, child) => {
    const depths = parsedDepths(child, inner.quotes, inner.lists);
    return {
      quotes: Math.max(deepest.quotes, depths.quotes),
      lists: Math.max(deepest.lists, depths.lists),
    };
  }, inner);
}

describe('measuring how deep a comment nests', () => {
  it('never counts fewer quotes or lists than the parser makes, on 3,000 random comments', () => {
    const random = randomFrom(20261207);
    let deepest = 0;
    for (let index = 0; index < 3_000; index += 1) {
      const markdown = randomComment(random);
      const scanned = measureBlockNesting(markdown);
      if (scanned.quotes > MAX_QUOTE_DEPTH || scanned.lists > MAX_LIST_DEPTH) continue;
      const parsed = parsedDepths(fromMarkdown(markdown));
      deepest = Math.max(deepest, parsed.lists);
      expect(scanned.quotes, JSON.stringify(markdown)).toBeGreaterThanOrEqual(parsed.quotes);
      expect(scanned.lists, JSON.stringify(markdown)).toBeGreaterThanOrEqual(parsed.lists);
    }
    expect(deepest).toBeGreaterThanOrEqual(6);
  });

  it('counts what nests, not what only looks like it', () => {
    expect(measureBlockNesting('> > > a\n>>>> b')).toEqual({ quotes: 4, lists: 0 });
    expect(measureBlockNesting('- - - -\n* * *\n-x\n1.5 km\n**bold**')).toEqual({
      quotes: 0,
      lists: 0,
    });
    expect(measureBlockNesting('- a\n  - b\n    1. c\n\n       d')).toEqual({
      quotes: 0,
      lists: 3,
    });
    // Indentation alone opens nothing: a poem's or a code block's spaces are not lists.
    expect(measureBlockNesting(`a\n${' '.repeat(40)}b`)).toEqual({ quotes: 0, lists: 0 });
  });

  it('stops at one past a limit, however long the line', () => {
    expect(measureBlockNesting('>'.repeat(100_000))).toEqual({
      quotes: MAX_QUOTE_DEPTH + 1,
      lists: 0,
    });
    expect(measureBlockNesting(`${'- '.repeat(50_000)}x`).lists).toBe(MAX_LIST_DEPTH + 1);
  });

  it('refuses bold and italics nested past ten, and takes ten', () => {
    // 20 stars a side are ten strong emphases, one inside the other; 21 add an italic.
    const stars = (count: number) => `${'*'.repeat(count)}x${'*'.repeat(count)}`;
    expect(() => refuseDeepTree(fromMarkdown(stars(20)))).not.toThrow();
    expect(() => refuseDeepTree(fromMarkdown(stars(21)))).toThrow(/nested 10 deep/);
    expect(() => refuseDeepTree(fromMarkdown(stars(2_000)))).toThrow(/Bold and italics/);
  });
});

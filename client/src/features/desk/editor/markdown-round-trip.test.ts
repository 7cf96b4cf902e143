import { MarkdownManager } from '@tiptap/markdown';
import { describe, expect, it } from 'vitest';
import { splitFrontMatter } from '../../../../../contract/split-front-matter';
// eslint-disable-next-line no-restricted-imports -- the one test that holds the editor's Markdown to the server's renderer
import { convertMarkdownToTree } from '../../../../../server/src/content/markdown-to-tree';
import { bodyExtensions } from './extensions';

// The editor reads and writes the stored Markdown: whatever it is given comes back out drawing the
// same page (the tree the site renders), for every body the site ships and for each thing a writer
// can put in one.

const manager = () => new MarkdownManager({ extensions: bodyExtensions() });
const roundTrip = (markdown: string) => {
  const m = manager();
  return m.serialize(m.parse(markdown));
};

// Every shipped body, read by Vite at test time (the client's tests have no file system).
const files = import.meta.glob<string>('../../../../../content/{articles,pages,newsletters}/*.md', {
  query: '?raw',
  import: 'default',
  eager: true,
});
const shippedBodies = Object.entries(files).map(([path, text]) => {
  const file = path.replace(/^.*content\//, '');
  const split = splitFrontMatter(text);
  if (!split.ok) throw new Error(`${file}: ${split.message}`);
  return { file, body: split.body };
});

describe('the editor’s Markdown', () => {
  it('finds the shipped bodies to check', () => {
    expect(shippedBodies.length).toBeGreaterThan(20);
  });

  it.each(shippedBodies)('gives back $file drawing the same page', ({ body }) => {
    expect(convertMarkdownToTree(roundTrip(body))).toEqual(convertMarkdownToTree(body));
  });

  it('keeps each thing a writer can write: headings, marks, links, lists, quotes, rules, images with alt and caption, the members-only divider', () => {
    const body = [
      '## A heading',
      '### A smaller one',
      'Some **bold**, some *italic*, a [link](https://www.irs.gov) and a [page](/wealth).',
      '- one\n- two',
      '1. first\n2. second',
      '> A quote.',
      '---',
      '![A rally at dusk](/uploads/0123456789abcdefghij-1600x1067.webp "Outside the hall")',
      '<!-- members-only -->',
      'For members.',
    ].join('\n\n');
    const back = roundTrip(body);
    expect(back).toContain('<!-- members-only -->');
    expect(back).toContain(
      '![A rally at dusk](/uploads/0123456789abcdefghij-1600x1067.webp "Outside the hall")',
    );
    expect(convertMarkdownToTree(back)).toEqual(convertMarkdownToTree(body));
    // And again: a second save changes nothing.
    expect(roundTrip(back)).toBe(back);
  });
});

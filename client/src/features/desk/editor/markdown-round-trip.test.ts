import { getSchema, getText, getTextSerializersFromSchema } from '@tiptap/core';
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

  const table = [
    '| Plan | Cost | Where |',
    '|:-----|-----:|:-----:|',
    '| **Basic** \\| cheap | $5 | [IRS](https://www.irs.gov) |',
    '| ~~Plus~~ | $9 |',
  ].join('\n');
  const notes = [
    '[^src]: The first note,\n    over two lines.\n\n    And a second paragraph.',
    '[^2]: Nobody points here, and it stays.',
  ].join('\n\n');

  it('keeps a table exactly as written, alignment, marks, links and escaped pipes included', () => {
    const body = `Before.\n\n${table}\n\nAfter.`;
    const back = roundTrip(body);
    expect(back).toBe(body);
    expect(convertMarkdownToTree(back)).toEqual(convertMarkdownToTree(body));
  });

  it('keeps footnote references (one used twice, one with no note) and the notes’ text as written', () => {
    const body = `A claim[^src], the same again[^src], and [^missing] one.\n\n${notes}\n\n## After`;
    const back = roundTrip(body);
    expect(back).toBe(body);
    const tree = convertMarkdownToTree(back);
    expect(tree).toEqual(convertMarkdownToTree(body));
    expect(tree.children.at(-1)?.type).toBe('footnotes');
  });

  it('keeps a link’s choice of tab, and reads it into the link, not its text', () => {
    const body =
      'Read [the **guide**](/wealth/guide){target="_blank"}, [the CDC](https://www.cdc.gov/sleep_(adults)){target="_self"}, [a title](https://a.example "A title"){target="_blank"} and [the law](https://law.example).';
    expect(roundTrip(body)).toBe(body);
    expect(convertMarkdownToTree(roundTrip(body))).toEqual(convertMarkdownToTree(body));
    const m = manager();
    const links: unknown[] = [];
    const walk = (node: {
      marks?: { type: string; attrs?: Record<string, unknown> }[];
      content?: unknown[];
    }) => {
      for (const mark of node.marks ?? [])
        if (mark.type === 'link') links.push(mark.attrs?.target ?? null);
      for (const child of node.content ?? []) walk(child as typeof node);
    };
    walk(m.parse(body));
    expect([...new Set(links)]).toEqual(['_blank', '_self', null]);
    // Kramdown's spelling reads the same, and is written the site's way.
    expect(roundTrip('[a](/a){:target="_blank"}')).toBe('[a](/a){target="_blank"}');
    // Anything else after a link stays its text.
    expect(convertMarkdownToTree(roundTrip('[a](/a){onclick="x"}'))).toEqual(
      convertMarkdownToTree('[a](/a){onclick="x"}'),
    );
  });

  it('keeps ~~strike-through~~, and a single tilde as a tilde', () => {
    const body = 'It was ~~free~~ $5, in ~5 minutes, or ~10~ at most.';
    const back = roundTrip(body);
    expect(back).toContain('~~free~~');
    expect(convertMarkdownToTree(back)).toEqual(convertMarkdownToTree(body));
    expect(roundTrip(back)).toBe(back);
  });

  it('holds a table and a note as one read-only box each, showing its Markdown', () => {
    const doc = manager().parse(`${table}\n\nText[^src].\n\n${notes}`);
    const schema = getSchema(bodyExtensions());
    const boxes = (doc.content ?? []).filter((node) => node.type === 'markdownSource');
    expect(boxes.map((node) => node.attrs?.kind)).toEqual(['table', 'footnote', 'footnote']);
    expect(boxes[0]?.attrs?.source).toBe(table);
    const box = schema.nodeFromJSON(boxes[0]);
    // One piece: the cursor steps over it, and Delete takes it whole; nothing inside is editable.
    expect(box.type.spec.atom).toBe(true);
    expect(box.type.spec.toDOM?.(box)).toEqual([
      'figure',
      { 'data-markdown-source': 'table', class: 'editor__source', contenteditable: 'false' },
      ['figcaption', {}, 'Table: select it to edit its Markdown'],
      ['pre', {}, table],
    ]);
  });

  it('counts the words of a table’s cells and a note’s text, not their Markdown', () => {
    const schema = getSchema(bodyExtensions());
    const doc = schema.nodeFromJSON(manager().parse(`Two words.\n\n${table}\n\n${notes}`));
    const text = getText(doc, {
      blockSeparator: '\n',
      textSerializers: getTextSerializersFromSchema(schema),
    });
    expect(text).toBe(
      [
        'Two words.',
        'Plan Cost Where **Basic** | cheap $5 [IRS](https://www.irs.gov) ~~Plus~~ $9',
        'The first note,\n over two lines.\n\n And a second paragraph.',
        'Nobody points here, and it stays.',
      ].join('\n'),
    );
  });
});

describe('empty paragraphs', () => {
  const paragraph = (text?: string) => ({
    type: 'paragraph',
    content: text ? [{ type: 'text', text }] : [],
  });

  it('writes the blank lines a writer leaves as nothing, never as `&nbsp;`', () => {
    const doc = {
      type: 'doc',
      content: [
        paragraph(),
        paragraph('One.'),
        paragraph(),
        paragraph(),
        paragraph(),
        paragraph('Two.'),
        paragraph(),
        paragraph(),
      ],
    };
    const written = manager().serialize(doc);
    expect(written).toBe('One.\n\nTwo.');
    expect(written).not.toContain('&nbsp;');
  });

  it('reads a body saved with `&nbsp;` paragraphs and writes it back without them', () => {
    const stored = 'One.\n\n&nbsp;\n\n&nbsp;\n\nTwo.';
    expect(roundTrip(stored)).toBe('One.\n\nTwo.');
    expect(convertMarkdownToTree(roundTrip(stored))).toEqual(convertMarkdownToTree('One.\n\nTwo.'));
  });
});

// What an import writes for structures Markdown has no syntax of its own for (server/src/imports/
// html-structures.ts): the editor gives each back drawing the same page.
describe('the editor’s Markdown of an imported body', () => {
  it.each([
    ['headings five and six', '##### Five\n\n###### Six'],
    ['code in its language', '```python\nprint("moved")\n```'],
    [
      'a table without a header, and one with a caption',
      '|   |   |\n| - | - |\n| a | b |\n\nTable: Costs by month',
    ],
    ['a list that starts at 3', '3. c\n4. d'],
    ['a list that counts down', '3. Three left\n2. Two left\n1. One left'],
    ['a list that counts down from 10, with a nested list', '10. ten\n    - inner\n9. nine'],
    ['a definition list’s pairs', '- **Escrow**: Money held by a third party.'],
  ])('gives back %s', (_, body) => {
    const back = roundTrip(body);
    expect(convertMarkdownToTree(back)).toEqual(convertMarkdownToTree(body));
    // And again: a second save changes nothing.
    expect(roundTrip(back)).toBe(back);
  });

  it('shows a reversed list counting down', () => {
    const m = manager();
    const doc = m.parse('3. a\n2. b\n1. c');
    expect(doc.content?.[0]).toMatchObject({
      type: 'orderedList',
      attrs: { start: 3, reversed: true },
    });
  });
});

import { describe, expect, it } from 'vitest';
import { htmlOfMarkdown } from '../imports/ghost-html.js';
import { htmlToMarkdown } from '../imports/html-to-markdown.js';
import { plainTextOf } from './markdown-text.js';
import { convertMarkdownToTree, findMarkdownProblems } from './markdown-to-tree.js';

// A link's "Open in a new tab" (contract/link-target.ts) through everything a body passes: the
// Markdown as stored, the tree the site draws, the Ghost export's HTML and an import's Markdown.

const SITE = 'https://cohort.example';
const linksOf = (markdown: string) => {
  const [paragraph] = convertMarkdownToTree(markdown).children;
  return paragraph?.type === 'paragraph' ? paragraph.children : [];
};

describe('a link’s choice of tab', () => {
  it('is read from right after the link, and is never words of the text', () => {
    expect(
      linksOf(
        'See [the guide](/wealth/guide){target="_blank"}, [the CDC](https://www.cdc.gov){target="_self"} and [the law](https://law.example).',
      ),
    ).toEqual([
      { type: 'text', value: 'See ' },
      {
        type: 'link',
        url: '/wealth/guide',
        newTab: true,
        children: [{ type: 'text', value: 'the guide' }],
      },
      { type: 'text', value: ', ' },
      {
        type: 'link',
        url: 'https://www.cdc.gov',
        newTab: false,
        children: [{ type: 'text', value: 'the CDC' }],
      },
      { type: 'text', value: ' and ' },
      { type: 'link', url: 'https://law.example', children: [{ type: 'text', value: 'the law' }] },
      { type: 'text', value: '.' },
    ]);
    // kramdown's spelling, and a reference link, too.
    expect(linksOf('[a](/a){:target="_blank"}')[0]).toMatchObject({ newTab: true });
    expect(linksOf('[a][r]{target="_blank"}\n\n[r]: /a')[0]).toMatchObject({ newTab: true });
    expect(plainTextOf('Read [the guide](/guide){target="_blank"} first.')).toBe(
      'Read the guide first.',
    );
    expect(findMarkdownProblems('[the guide](/guide){target="_blank"}')).toEqual([]);
  });

  it('lets no other attribute through: anything else after a link stays text', () => {
    for (const text of [
      '{target="_top"}',
      '{onclick="alert(1)"}',
      '{target="_blank" onclick="alert(1)"}',
      '{target="_blank"',
    ]) {
      const [link, rest] = linksOf(`[a](https://a.example)${text}`);
      expect(link).toEqual({
        type: 'link',
        url: 'https://a.example',
        children: [{ type: 'text', value: 'a' }],
      });
      expect(rest).toEqual({ type: 'text', value: text });
    }
    // Not after a link: text.
    expect(linksOf('Plain {target="_blank"} text')).toEqual([
      { type: 'text', value: 'Plain {target="_blank"} text' },
    ]);
  });

  it('goes out in the Ghost export as the HTML the site draws, and comes back in by an import', () => {
    const markdown =
      'Read [the guide](/wealth/guide){target="_blank"}, [the CDC](https://www.cdc.gov){target="_self"} and [the law](https://law.example).';
    const html = htmlOfMarkdown(markdown, SITE);
    expect(html).toBe(
      `<p>Read <a href="${SITE}/wealth/guide" target="_blank" rel="noopener noreferrer">the guide</a>, <a href="https://www.cdc.gov" target="_self">the CDC</a> and <a href="https://law.example">the law</a>.</p>`,
    );
    // Read back as an import reads another site's export: its own addresses made absolute.
    const back = htmlToMarkdown(html, { flavour: 'ghost', siteUrl: SITE }).markdown;
    expect(back).toBe(
      `Read [the guide](${SITE}/wealth/guide){target="_blank"}, [the CDC](https://www.cdc.gov/){target="_self"} and [the law](https://law.example/).`,
    );
    expect(linksOf(back).flatMap((node) => (node.type === 'link' ? [node.newTab] : []))).toEqual([
      true,
      false,
      undefined,
    ]);
  });

  it('keeps an imported <a target="_blank">, and no other target or attribute', () => {
    const { markdown } = htmlToMarkdown(
      '<p><a href="https://a.example" target="_blank" rel="noopener">A</a> <a href="https://b.example" target="_top" onclick="x()">B</a> <a href="https://c.example" target="_BLANK">C</a></p>',
      { flavour: 'ghost' },
    );
    expect(markdown).toBe(
      '[A](https://a.example/){target="_blank"} [B](https://b.example/) [C](https://c.example/){target="_blank"}',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { convertMarkdownToTree, countWords, findMarkdownProblems } from './markdown-to-tree.js';

describe('turning a Markdown body into the tree the client renders', () => {
  it('keeps headings, paragraphs, lists, emphasis and links, without source positions', () => {
    const tree = convertMarkdownToTree(
      '## Plan\n\nStart **now**, *slowly*. See [the CDC](https://www.cdc.gov/sleep/).\n\n1. One\n2. Two\n',
    );
    expect(tree).toEqual({
      type: 'root',
      children: [
        { type: 'heading', depth: 2, children: [{ type: 'text', value: 'Plan' }] },
        {
          type: 'paragraph',
          children: [
            { type: 'text', value: 'Start ' },
            { type: 'strong', children: [{ type: 'text', value: 'now' }] },
            { type: 'text', value: ', ' },
            { type: 'emphasis', children: [{ type: 'text', value: 'slowly' }] },
            { type: 'text', value: '. See ' },
            {
              type: 'link',
              url: 'https://www.cdc.gov/sleep/',
              children: [{ type: 'text', value: 'the CDC' }],
            },
            { type: 'text', value: '.' },
          ],
        },
        {
          type: 'list',
          ordered: true,
          start: null,
          spread: false,
          children: [
            {
              type: 'listItem',
              children: [{ type: 'paragraph', children: [{ type: 'text', value: 'One' }] }],
            },
            {
              type: 'listItem',
              children: [{ type: 'paragraph', children: [{ type: 'text', value: 'Two' }] }],
            },
          ],
        },
      ],
    });
  });

  it('drops raw HTML, block and inline, and images', () => {
    const tree = convertMarkdownToTree(
      '<div onclick="steal()">Hi</div>\n\nText <img src=x onerror=alert(1)> here ![alt](https://example.com/a.png)\n',
    );
    expect(JSON.stringify(tree)).not.toMatch(/onclick|onerror|img|example\.com/);
    expect(tree.children).toEqual([
      {
        type: 'paragraph',
        children: [
          { type: 'text', value: 'Text ' },
          { type: 'text', value: ' here ' },
        ],
      },
    ]);
  });

  it('keeps http(s) links and paths on this site, and turns anything else into plain text', () => {
    const tree = convertMarkdownToTree(
      '[a](javascript:alert(1)) [b](data:text/html,x) [c](//evil.example) [d](/wealth) [e](http://example.org)',
    );
    const paragraph = tree.children[0];
    expect(paragraph?.type === 'paragraph' && paragraph.children).toEqual([
      { type: 'text', value: 'a' },
      { type: 'text', value: ' ' },
      { type: 'text', value: 'b' },
      { type: 'text', value: ' ' },
      { type: 'text', value: 'c' },
      { type: 'text', value: ' ' },
      { type: 'link', url: '/wealth', children: [{ type: 'text', value: 'd' }] },
      { type: 'text', value: ' ' },
      { type: 'link', url: 'http://example.org', children: [{ type: 'text', value: 'e' }] },
    ]);
  });

  it('resolves reference-style links through their definitions', () => {
    const tree = convertMarkdownToTree('Read [the guide][g].\n\n[g]: https://studentaid.gov\n');
    expect(tree.children).toEqual([
      {
        type: 'paragraph',
        children: [
          { type: 'text', value: 'Read ' },
          {
            type: 'link',
            url: 'https://studentaid.gov',
            children: [{ type: 'text', value: 'the guide' }],
          },
          { type: 'text', value: '.' },
        ],
      },
    ]);
  });

  it('counts the words a reader sees, not the markup', () => {
    expect(
      countWords(convertMarkdownToTree('## Two words\n\n- **Three** more [words](/x)\n')),
    ).toBe(5);
  });
});

describe('uploaded images in a body', () => {
  const photo = '/uploads/0123456789abcdefghij-2400x1600.webp';

  it('draws an upload alone on its line as a figure with its alt text, caption and size', () => {
    const tree = convertMarkdownToTree(
      `Before.\n\n![A rally at dusk](${photo} "Outside the hall")\n`,
    );
    expect(tree.children[1]).toEqual({
      type: 'image',
      src: photo,
      alt: 'A rally at dusk',
      caption: 'Outside the hall',
      width: 2400,
      height: 1600,
    });
    expect(findMarkdownProblems(`![A rally at dusk](${photo})`)).toEqual([]);
  });

  it('refuses an image from elsewhere, one without alt text, and one inside a sentence', () => {
    expect(
      findMarkdownProblems(
        `![x](https://example.com/a.png)\n\n![](${photo})\n\nSee ![a rally](${photo}) here.\n`,
      ),
    ).toEqual([
      'image "https://example.com/a.png": images must be uploaded to this site (the desk\'s Upload image)',
      `image "${photo}" needs alt text: describe it for readers who cannot see it`,
      'an image must be a paragraph of its own, with no text beside it',
    ]);
  });
});

describe('what the content format forbids in a body', () => {
  it('finds nothing wrong in plain Markdown', () => {
    expect(findMarkdownProblems('## Fine\n\nA [link](https://www.irs.gov).\n')).toEqual([]);
  });

  it('names an H1, raw HTML, an image and an unsafe reference link', () => {
    expect(
      findMarkdownProblems(
        '# Title\n\n<b>bold</b>\n\n![x](/a.png)\n\n[bad][x]\n\n[x]: javascript:void(0)\n',
      ),
    ).toEqual([
      '"# Title": headings start at ## (the title is the page\'s H1)',
      'raw HTML is not allowed: <b>',
      'raw HTML is not allowed: </b>',
      'image "/a.png": images must be uploaded to this site (the desk\'s Upload image)',
      'link to "javascript:void(0)": links must be http(s) addresses or paths on this site',
    ]);
  });
});

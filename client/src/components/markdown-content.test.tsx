import { describe, expect, it } from 'vitest';
import { markdownMarkup } from '../test-support/markdown-markup';
import type { BlockNode } from '../../../contract/markdown-tree';

const render = (blocks: BlockNode[]) => markdownMarkup(blocks);

describe('drawing a Markdown body', () => {
  it('draws an uploaded image as a lazy figure with its size, AVIF and WebP sources in every width, and its caption', () => {
    const html = render([
      {
        type: 'image',
        src: '/uploads/0123456789abcdefghij-1200x800.webp',
        alt: 'A rally at dusk',
        caption: 'Outside the hall',
        width: 1200,
        height: 800,
      },
    ]);
    const id = '/uploads/0123456789abcdefghij';
    expect(html).toContain(
      `<source type="image/avif" srcSet="${id}-480x320.avif 480w, ${id}-960x640.avif 960w, ${id}-1200x800.avif 1200w"`,
    );
    expect(html).toContain(
      `srcSet="${id}-480x320.webp 480w, ${id}-960x640.webp 960w, ${id}-1200x800.webp 1200w"`,
    );
    expect(html).toMatch(/<img src="[^"]+-1200x800\.webp"[^>]* width="1200" height="800"/);
    expect(html).toContain('alt="A rally at dusk" loading="lazy" decoding="async"');
    expect(html).toContain('<figcaption>Outside the hall</figcaption>');
  });

  it('draws headings, paragraphs and tight lists as elements', () => {
    expect(
      render([
        { type: 'heading', depth: 2, children: [{ type: 'text', value: 'Plan' }] },
        {
          type: 'list',
          ordered: true,
          start: 3,
          spread: false,
          children: [
            {
              type: 'listItem',
              children: [
                {
                  type: 'paragraph',
                  children: [{ type: 'strong', children: [{ type: 'text', value: 'Wake' }] }],
                },
              ],
            },
          ],
        },
      ]),
    ).toBe('<h2>Plan</h2><ol start="3"><li><strong>Wake</strong></li></ol>');
  });

  it('opens links to other sites in a new tab without an opener or referrer', () => {
    const html = render([
      {
        type: 'paragraph',
        children: [
          {
            type: 'link',
            url: 'https://www.cdc.gov/sleep/',
            children: [{ type: 'text', value: 'CDC' }],
          },
          { type: 'text', value: ' and ' },
          { type: 'link', url: '/wealth', children: [{ type: 'text', value: 'Wealth' }] },
        ],
      },
    ]);
    expect(html).toContain(
      '<a href="https://www.cdc.gov/sleep/" target="_blank" rel="noopener noreferrer">CDC<span class="visually-hidden"> (opens in a new tab)</span></a>',
    );
    expect(html).toMatch(/<a href="\/wealth"[^>]*>Wealth<\/a>/);
    expect(html.match(/target="_blank"/g)).toHaveLength(1);
  });

  it('follows a link’s own choice of tab over the site’s rule', () => {
    const html = render([
      {
        type: 'paragraph',
        children: [
          { type: 'link', url: '/wealth', newTab: true, children: [{ type: 'text', value: 'W' }] },
          {
            type: 'link',
            url: 'https://www.cdc.gov/',
            newTab: false,
            children: [{ type: 'text', value: 'CDC' }],
          },
        ],
      },
    ]);
    expect(html).toContain(
      '<a href="/wealth" target="_blank" rel="noopener noreferrer">W<span class="visually-hidden"> (opens in a new tab)</span></a>',
    );
    expect(html).toContain('<a href="https://www.cdc.gov/">CDC</a>');
  });

  it('never draws an unsafe link or markup from text, even if one reaches it', () => {
    const html = render([
      {
        type: 'paragraph',
        children: [
          { type: 'link', url: 'javascript:alert(1)', children: [{ type: 'text', value: 'x' }] },
          { type: 'text', value: '<img src=x onerror=alert(1)>' },
        ],
      },
      // A node type the build never keeps is skipped, not drawn.
      { type: 'html', value: '<script>alert(1)</script>' } as unknown as BlockNode,
    ]);
    expect(html).toBe('<p><span>x</span>&lt;img src=x onerror=alert(1)&gt;</p>');
  });

  it('draws a table in a sideways-scrolling region that takes focus, with its header row and each column aligned', () => {
    const text = (value: string) => [{ type: 'text' as const, value }];
    expect(
      render([
        {
          type: 'table',
          align: ['left', null, 'right'],
          head: [text('Plan'), text('What'), text('Cost')],
          rows: [[text('Basic'), [{ type: 'delete', children: text('ads') }], text('$5')]],
        },
      ]),
    ).toBe(
      '<div class="table-scroll" role="region" aria-label="Table" tabindex="0"><table>' +
        '<thead><tr><th style="text-align:left">Plan</th><th>What</th><th style="text-align:right">Cost</th></tr></thead>' +
        '<tbody><tr><td style="text-align:left">Basic</td><td><del>ads</del></td><td style="text-align:right">$5</td></tr></tbody>' +
        '</table></div>',
    );
  });

  it('draws footnote references as superscript links to notes listed under a separator, each with a link back', () => {
    const html = render([
      {
        type: 'paragraph',
        children: [
          { type: 'text', value: 'Claim' },
          { type: 'footnoteReference', number: 1, id: 'src', occurrence: 1 },
          { type: 'text', value: ' again' },
          { type: 'footnoteReference', number: 1, id: 'src', occurrence: 2 },
        ],
      },
      {
        type: 'footnotes',
        children: [
          {
            type: 'footnote',
            number: 1,
            id: 'src',
            references: 2,
            children: [{ type: 'paragraph', children: [{ type: 'text', value: 'The source.' }] }],
          },
          {
            type: 'footnote',
            number: 2,
            id: 'aside',
            references: 0,
            children: [{ type: 'code', value: 'x' }],
          },
        ],
      },
    ]);
    expect(html).toBe(
      '<p>Claim<sup><a href="#fn-src" id="fnref-src" aria-describedby="footnotes-label">1</a></sup>' +
        ' again<sup><a href="#fn-src" id="fnref2-src" aria-describedby="footnotes-label">1</a></sup></p>' +
        '<section class="footnotes" aria-labelledby="footnotes-label"><hr/>' +
        '<h2 id="footnotes-label" class="visually-hidden">Notes</h2><ol>' +
        '<li id="fn-src"><p>The source. <a href="#fnref-src" class="footnotes__back" aria-label="Back to reference 1">\u21a9\ufe0e</a></p></li>' +
        // A note nothing references has no link back.
        '<li id="fn-aside"><pre><code>x</code></pre></li>' +
        '</ol></section>',
    );
  });
});

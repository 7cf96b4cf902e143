import { describe, expect, it } from 'vitest';
import type { BlockNode } from '../../../contract/markdown-tree.js';
import { checkAndConvertMarkdown } from '../content/markdown-to-tree.js';
import { htmlOfMarkdown } from './ghost-html.js';
import { htmlToMarkdown } from './html-to-markdown.js';
import type { HtmlFlavour } from './source.js';

// The structures Markdown has no syntax of its own for, from the platforms' HTML into a post's
// body (html-structures.ts) and back out as the tree the page draws (content/markdown-to-tree.ts):
// what the Markdown says, that the site's checks take it, and what the page is given to draw.

const convert = (html: string, flavour: HtmlFlavour = 'ghost') => {
  const { markdown } = htmlToMarkdown(html, { flavour });
  const { tree, problems } = checkAndConvertMarkdown(markdown);
  expect(problems).toEqual([]);
  return { markdown, blocks: tree.children };
};

const text = (value: string) => ({ type: 'text', value });

describe('headings keep their levels', () => {
  it('draws a body h1 as h2 (the title is the h1) and h2 to h6 as they were', () => {
    const { markdown, blocks } = convert(
      '<h1>One</h1><h2>Two</h2><h3>Three</h3><h4>Four</h4><h5>Five</h5><h6>Six</h6>',
    );
    expect(markdown).toBe('## One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six');
    expect(blocks.map((block) => (block.type === 'heading' ? block.depth : null))).toEqual([
      2, 2, 3, 4, 5, 6,
    ]);
  });
});

describe('a table without a header keeps none', () => {
  it('writes an empty header row, which the page is told not to draw', () => {
    const { markdown, blocks } = convert(
      '<table><tbody><tr><td>Rent</td><td>$900</td></tr><tr><td>Food</td><td>$300</td></tr></tbody></table>',
    );
    expect(markdown).toBe('|      |      |\n| ---- | ---- |\n| Rent | $900 |\n| Food | $300 |');
    expect(blocks).toEqual([
      {
        type: 'table',
        align: [null, null],
        head: [[], []],
        rows: [
          [[text('Rent')], [text('$900')]],
          [[text('Food')], [text('$300')]],
        ],
        headless: true,
      },
    ]);
  });

  it('keeps a header where the table has one (th in its first row, or a thead)', () => {
    for (const html of [
      '<table><tr><th>Item</th><th>Cost</th></tr><tr><td>Rent</td><td>$900</td></tr></table>',
      '<table><thead><tr><td>Item</td><td>Cost</td></tr></thead><tbody><tr><td>Rent</td><td>$900</td></tr></tbody></table>',
    ]) {
      const [table] = convert(html).blocks;
      expect(table).toMatchObject({ head: [[text('Item')], [text('Cost')]] });
      expect(table).not.toHaveProperty('headless');
    }
  });
});

describe('a table’s caption', () => {
  it('is a `Table:` paragraph after the table, drawn as the table’s caption', () => {
    const { markdown, blocks } = convert(
      '<table><caption>Costs in <em>March</em></caption><tr><th>Item</th></tr><tr><td>Rent</td></tr></table><p>After.</p>',
    );
    expect(markdown).toBe('| Item |\n| ---- |\n| Rent |\n\nTable: Costs in *March*\n\nAfter.');
    expect(blocks).toEqual([
      {
        type: 'table',
        align: [null],
        head: [[text('Item')]],
        rows: [[[text('Rent')]]],
        caption: [text('Costs in '), { type: 'emphasis', children: [text('March')] }],
      },
      { type: 'paragraph', children: [text('After.')] },
    ]);
  });

  it('takes WordPress’s table block caption (a figure’s figcaption) as the table’s', () => {
    const { blocks } = convert(
      '<figure class="wp-block-table"><table><tbody><tr><td>a</td><td>b</td></tr></tbody></table><figcaption class="wp-element-caption">Table caption</figcaption></figure>',
      'wordpress',
    );
    expect(blocks).toEqual([
      {
        type: 'table',
        align: [null, null],
        head: [[], []],
        rows: [[[text('a')], [text('b')]]],
        headless: true,
        caption: [text('Table caption')],
      },
    ]);
  });

  it('leaves a paragraph that only looks like one alone when no table is before it', () => {
    const { blocks } = convert('<p>Table: not a caption</p>');
    expect(blocks).toEqual([{ type: 'paragraph', children: [text('Table: not a caption')] }]);
  });
});

describe('code keeps its language', () => {
  const languageOf = (html: string, flavour?: HtmlFlavour) => {
    const { markdown, blocks } = convert(html, flavour);
    const [code] = blocks as (BlockNode & { lang?: string })[];
    return { fence: markdown.split('\n')[0], lang: code?.lang, value: code && 'value' in code };
  };

  it.each([
    [
      'Ghost’s code card',
      '<pre><code class="language-javascript">let a = 1;</code></pre>',
      'javascript',
    ],
    ['highlight.js’s lang- class', '<pre><code class="lang-ruby">puts 1</code></pre>', 'ruby'],
    ['a class on the pre (Prism)', '<pre class="language-go"><code>x := 1</code></pre>', 'go'],
    [
      'WordPress’s code block with lang',
      '<pre class="wp-block-code"><code lang="php">echo 1;</code></pre>',
      'php',
    ],
    [
      'SyntaxHighlighter’s brush',
      '<pre class="brush: python; title: ; notranslate">x = 1</pre>',
      'python',
    ],
    ['Crayon’s lang:', '<pre class="lang:sh decode:true">ls</pre>', 'sh'],
    ['a data-language', '<pre data-language="c++"><code>int a;</code></pre>', 'c++'],
  ])('from %s', (_, html, language) => {
    expect(languageOf(html)).toEqual({ fence: `\`\`\`${language}`, lang: language, value: true });
  });

  it('from WordPress’s [code] and [sourcecode] shortcodes, the code kept as written', () => {
    const { markdown, blocks } = convert(
      '<p>Before.</p>\n\n[code language="js"]if (a < b) { go(); }[/code]\n\n[sourcecode lang="css"]a > b { }[/sourcecode]',
      'wordpress',
    );
    expect(markdown).toBe('Before.\n\n```js\nif (a < b) { go(); }\n```\n\n```css\na > b { }\n```');
    expect(blocks.slice(1)).toEqual([
      { type: 'code', value: 'if (a < b) { go(); }', lang: 'js' },
      { type: 'code', value: 'a > b { }', lang: 'css' },
    ]);
  });

  it('has none where the HTML names none, or names something no class can carry', () => {
    expect(languageOf('<pre><code>plain</code></pre>')).toEqual({
      fence: '```',
      lang: undefined,
      value: true,
    });
    expect(languageOf('<pre lang="a b&quot;c">x</pre>').lang).toBeUndefined();
  });
});

describe('ordered lists keep their start and direction', () => {
  const listOf = (html: string) => {
    const { markdown, blocks } = convert(html);
    const [list] = blocks;
    if (list?.type !== 'list') throw new Error(`not a list: ${markdown}`);
    return { markdown, start: list.start, reversed: list.reversed ?? false };
  };

  it('starts where the HTML says', () => {
    expect(listOf('<ol start="3"><li>c</li><li>d</li></ol>')).toEqual({
      markdown: '3. c\n4. d',
      start: 3,
      reversed: false,
    });
  });

  it('counts down when reversed: from its number of items, or from its start', () => {
    expect(listOf('<ol reversed="reversed"><li>a</li><li>b</li><li>c</li></ol>')).toEqual({
      markdown: '3. a\n2. b\n1. c',
      start: 3,
      reversed: true,
    });
    expect(listOf('<ol reversed start="10"><li>a</li><li>b</li></ol>')).toEqual({
      markdown: '10. a\n9. b',
      start: 10,
      reversed: true,
    });
  });

  it('stays numbered upwards where counting down would go below 0', () => {
    expect(listOf('<ol reversed start="1"><li>a</li><li>b</li><li>c</li></ol>')).toEqual({
      markdown: '1. a\n2. b\n3. c',
      start: null,
      reversed: false,
    });
  });
});

describe('a definition list keeps each term with its meaning', () => {
  it('is a list of the terms in bold, each with its definitions', () => {
    const { markdown, blocks } = convert(
      '<dl><dt>Escrow</dt><dd>Money held by a third party.</dd><dt>APR</dt><dt>Annual rate</dt><dd>The yearly cost.</dd><dd>Fees <a href="https://www.consumerfinance.gov/">included</a>.</dd></dl>',
    );
    expect(markdown).toBe(
      '- **Escrow**: Money held by a third party.\n\n- **APR / Annual rate**\n\n  The yearly cost.\n\n  Fees [included](https://www.consumerfinance.gov/).',
    );
    const [list] = blocks;
    expect(list).toMatchObject({ type: 'list', ordered: false });
    expect(list?.type === 'list' && list.children[1]?.children).toEqual([
      { type: 'paragraph', children: [{ type: 'strong', children: [text('APR / Annual rate')] }] },
      { type: 'paragraph', children: [text('The yearly cost.')] },
      {
        type: 'paragraph',
        children: [
          text('Fees '),
          { type: 'link', url: 'https://www.consumerfinance.gov/', children: [text('included')] },
          text('.'),
        ],
      },
    ]);
  });
});

describe('through the Ghost export and back', () => {
  it('writes each as HTML says it, and an import of that HTML gives the same body', () => {
    const body = [
      '##### Five',
      '|      |      |\n| ---- | ---- |\n| Rent | $900 |',
      '| Item | Cost |\n| ---- | ---- |\n| Rent | $900 |\n\nTable: Costs in *March*',
      '3. Three left\n2. Two left\n1. One left',
      '```python\nprint("moved")\n```',
      '- **Escrow**: Money held by a third party.',
    ].join('\n\n');
    const html = htmlOfMarkdown(body, 'https://example.org');
    expect(html).toContain('<h5>Five</h5>');
    expect(html).toMatch(/<table>\s*<tbody>\s*<tr>\s*<td>Rent<\/td>/);
    expect(html).toMatch(/<table>\s*<caption>Costs in <em>March<\/em><\/caption>\s*<thead>/);
    expect(html).not.toContain('Table: ');
    expect(html).toContain('<ol start="3" reversed>');
    expect(html).toContain('<code class="language-python">');
    expect(htmlToMarkdown(html, { flavour: 'ghost' }).markdown).toBe(body);
  });
});

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

  it('refuses an image at a path of the site, one without alt text, and one inside a sentence', () => {
    expect(
      findMarkdownProblems(
        `![x](/elsewhere/a.png)\n\n![](${photo})\n\n![](https://example.com/a.png)\n\nSee ![a rally](${photo}) here.\n`,
      ),
    ).toEqual([
      'image "/elsewhere/a.png": images must be uploaded to this site (the desk\'s Upload image)',
      `image "${photo}" needs alt text: describe it for readers who cannot see it`,
      'image "https://example.com/a.png" needs alt text: describe it for readers who cannot see it',
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

describe('tables, footnotes and strikethrough in a body', () => {
  const text = (value: string) => ({ type: 'text', value });

  it('keeps a table with each column’s alignment, a header row and body rows of inline cells', () => {
    const tree = convertMarkdownToTree(
      '| Plan | Cost | Notes |\n|:-----|-----:|:-----:|\n| Basic | $5 | **none** |\n| Plus |\n',
    );
    expect(tree.children).toEqual([
      {
        type: 'table',
        align: ['left', 'right', 'center'],
        head: [[text('Plan')], [text('Cost')], [text('Notes')]],
        rows: [
          [[text('Basic')], [text('$5')], [{ type: 'strong', children: [text('none')] }]],
          // A short row is filled with empty cells: every row has one per column.
          [[text('Plus')], [], []],
        ],
      },
    ]);
    expect(findMarkdownProblems('| a | b |\n|---|---|\n| 1 | 2 |\n')).toEqual([]);
  });

  it('holds a link inside a cell to the same rules as any other link', () => {
    const body = '| Where |\n|---|\n| [IRS](https://www.irs.gov) [bad](javascript:alert(1)) |\n';
    const table = convertMarkdownToTree(body).children[0];
    expect(table?.type === 'table' && table.rows[0]?.[0]).toEqual([
      { type: 'link', url: 'https://www.irs.gov', children: [text('IRS')] },
      text(' '),
      text('bad'),
    ]);
    expect(findMarkdownProblems(body)).toEqual([
      'link to "javascript:alert(1)": links must be http(s) addresses or paths on this site',
    ]);
  });

  it('refuses an image inside a table cell', () => {
    expect(
      findMarkdownProblems('| a |\n|---|\n| ![x](/uploads/0123456789abcdefghij-100x100.webp) |\n'),
    ).toEqual(['an image must be a paragraph of its own, with no text beside it']);
  });

  it('numbers notes by first reference, gives a note referenced twice two anchors, and gathers the notes at the end', () => {
    const tree = convertMarkdownToTree(
      [
        'First[^later], then[^early], and the first again[^later].',
        '[^early]: Written first.',
        '## After the notes',
        '[^later]: Written second,\n\n    in two paragraphs.',
      ].join('\n\n'),
    );
    expect(tree.children).toEqual([
      {
        type: 'paragraph',
        children: [
          text('First'),
          { type: 'footnoteReference', number: 1, id: 'later', occurrence: 1 },
          text(', then'),
          { type: 'footnoteReference', number: 2, id: 'early', occurrence: 1 },
          text(', and the first again'),
          { type: 'footnoteReference', number: 1, id: 'later', occurrence: 2 },
          text('.'),
        ],
      },
      { type: 'heading', depth: 2, children: [text('After the notes')] },
      {
        type: 'footnotes',
        children: [
          {
            type: 'footnote',
            number: 1,
            id: 'later',
            references: 2,
            children: [
              { type: 'paragraph', children: [text('Written second,')] },
              { type: 'paragraph', children: [text('in two paragraphs.')] },
            ],
          },
          {
            type: 'footnote',
            number: 2,
            id: 'early',
            references: 1,
            children: [{ type: 'paragraph', children: [text('Written first.')] }],
          },
        ],
      },
    ]);
  });

  it('keeps a definition nothing references at the end, after the referenced ones', () => {
    const tree = convertMarkdownToTree(
      '[^orphan]: Nobody points here.\n\nText[^1].\n\n[^1]: One.\n',
    );
    const notes = tree.children.at(-1);
    expect(
      notes?.type === 'footnotes' &&
        notes.children.map(({ number, id, references }) => ({ number, id, references })),
    ).toEqual([
      { number: 1, id: '1', references: 1 },
      { number: 2, id: 'orphan', references: 0 },
    ]);
  });

  it('leaves a reference without a definition as its literal text', () => {
    expect(convertMarkdownToTree('See [^missing] here.\n').children).toEqual([
      { type: 'paragraph', children: [text('See [^missing] here.')] },
    ]);
  });

  it('makes the notes’ ids safe for an address, and unique when two labels reduce to one', () => {
    const tree = convertMarkdownToTree(
      'A[^Source.1] B[^source-1] C[^"><script>].\n\n[^Source.1]: a\n[^source-1]: b\n[^"><script>]: c\n',
    );
    const notes = tree.children.at(-1);
    expect(notes?.type === 'footnotes' && notes.children.map((note) => note.id)).toEqual([
      'source-1',
      'source-1-2',
      'script',
    ]);
  });

  it('strikes ~~text~~ through, but a single tilde stays a tilde', () => {
    expect(convertMarkdownToTree('~~Old~~ new, in ~5 minutes or ~10~.\n').children).toEqual([
      {
        type: 'paragraph',
        children: [
          { type: 'delete', children: [text('Old')] },
          text(' new, in ~5 minutes or ~10~.'),
        ],
      },
    ]);
  });

  it('does not turn bare addresses into links (only the three GitHub additions are read)', () => {
    expect(convertMarkdownToTree('Visit www.irs.gov or https://irs.gov today.\n').children).toEqual(
      [{ type: 'paragraph', children: [text('Visit www.irs.gov or https://irs.gov today.')] }],
    );
  });

  it('counts the words of cells and notes, not the table’s markup', () => {
    expect(
      countWords(
        convertMarkdownToTree('| One two |\n|---|\n| three |\n\nFour[^n] more.\n\n[^n]: Five.\n'),
      ),
      // One two, three, Four more, Five.
    ).toBe(6);
  });
});

describe('structures written in plain Markdown (what an import writes)', () => {
  const blocks = (markdown: string) => convertMarkdownToTree(markdown).children;
  const t = (value: string) => ({ type: 'text', value });

  it('draws ##### and ###### at their levels, and a # as ## (the title is the page’s h1)', () => {
    expect(
      blocks('# A\n\n##### B\n\n###### C').map((b) => b.type === 'heading' && b.depth),
    ).toEqual([2, 5, 6]);
  });

  it('reads a list numbered downwards as reversed, and one numbered 1. 1. 1. as counting up', () => {
    expect(blocks('5. a\n4. b\n3. c')).toMatchObject([
      { type: 'list', ordered: true, start: 5, reversed: true },
    ]);
    expect(blocks('1) a\n0) b')).toMatchObject([{ start: 1, reversed: true }]);
    for (const markdown of ['1. a\n1. b', '3. a\n4. b', '7. alone']) {
      expect(blocks(markdown)[0]).not.toHaveProperty('reversed');
    }
  });

  it('keeps a fence’s language, and none that a class name cannot carry', () => {
    expect(blocks('```TypeScript\nlet a = 1;\n```')).toEqual([
      { type: 'code', value: 'let a = 1;', lang: 'typescript' },
    ]);
    expect(blocks('```js title="x.js"\nx\n```')).toEqual([
      { type: 'code', value: 'x', lang: 'js' },
    ]);
    expect(blocks('```{weird}\nx\n```')).toEqual([{ type: 'code', value: 'x' }]);
  });

  it('draws a table with an empty header row as headless, and a `Table:` paragraph right after it as its caption', () => {
    expect(
      blocks('|  |  |\n|--|--|\n| a | b |\n\nTable: The *costs*\n\nTable: a paragraph'),
    ).toEqual([
      {
        type: 'table',
        align: [null, null],
        head: [[], []],
        rows: [[[t('a')], [t('b')]]],
        headless: true,
        caption: [t('The '), { type: 'emphasis', children: [t('costs')] }],
      },
      { type: 'paragraph', children: [t('Table: a paragraph')] },
    ]);
    // A header alone, with no rows, is an empty table's header, not a headless table.
    expect(blocks('|  |\n|--|')[0]).not.toHaveProperty('headless');
  });
});

describe('cards and players in a body', () => {
  const youtube = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
  const article = 'https://example.com/a-long-read';

  it('makes an embed card of a provider’s address alone on its line, with what was read of it', () => {
    const thumbnail = {
      src: '/uploads/abcdefghij0123456789-480x360.webp',
      width: 480,
      height: 360,
    };
    const cards = new Map([
      [
        youtube,
        {
          url: youtube,
          state: 'read' as const,
          card: {
            kind: 'embed' as const,
            provider: 'youtube' as const,
            player: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1',
            title: 'The video',
            author: 'A channel',
            thumbnail,
            aspect: 16 / 9,
          },
        },
      ],
    ]);
    expect(convertMarkdownToTree(`Before.\n\n${youtube}\n\nAfter.`, cards).children[1]).toEqual({
      type: 'embed',
      url: youtube,
      provider: 'youtube',
      player: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1',
      title: 'The video',
      author: 'A channel',
      thumbnail,
      aspect: 16 / 9,
    });
  });

  it('still names the provider and its player when nothing was read of the address', () => {
    expect(convertMarkdownToTree(youtube).children[0]).toMatchObject({
      type: 'embed',
      provider: 'youtube',
      player: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1',
      title: null,
      thumbnail: null,
    });
  });

  it('makes a bookmark of another page that was read, and a link of one that could not be', () => {
    const read = new Map([
      [
        article,
        {
          url: article,
          state: 'read' as const,
          card: {
            kind: 'bookmark' as const,
            title: 'A long read',
            description: 'About things',
            siteName: 'Example',
            image: null,
          },
        },
      ],
    ]);
    expect(convertMarkdownToTree(article, read).children[0]).toEqual({
      type: 'bookmark',
      url: article,
      title: 'A long read',
      description: 'About things',
      siteName: 'Example',
      image: null,
    });
    const unreachable = new Map([
      [article, { url: article, state: 'unreachable' as const, reason: 'timed out' }],
    ]);
    expect(convertMarkdownToTree(article, unreachable).children[0]).toEqual({
      type: 'paragraph',
      children: [{ type: 'link', url: article, children: [{ type: 'text', value: article }] }],
    });
  });

  it('keeps an address written as a link, or beside words, a link or text', () => {
    const tree = convertMarkdownToTree(`[${youtube}](${youtube})\n\nWatch ${youtube}`);
    expect(tree.children.map((block) => block.type)).toEqual(['paragraph', 'paragraph']);
  });

  it('makes a player of an uploaded audio or video file alone on its line', () => {
    const tree = convertMarkdownToTree(
      '![Episode 12](/uploads/abcdefghij0123456789-125s.mp3 "Recorded live")\n\n![](/uploads/abcdefghij0123456789-1280x720-61s.mp4)',
    );
    expect(tree.children).toEqual([
      {
        type: 'audio',
        src: '/uploads/abcdefghij0123456789-125s.mp3',
        title: 'Episode 12',
        caption: 'Recorded live',
        mime: 'audio/mpeg',
        duration: 125,
        width: null,
        height: null,
      },
      {
        type: 'video',
        src: '/uploads/abcdefghij0123456789-1280x720-61s.mp4',
        title: '',
        caption: null,
        mime: 'video/mp4',
        duration: 61,
        width: 1280,
        height: 720,
      },
    ]);
    expect(
      findMarkdownProblems('![](/uploads/abcdefghij0123456789-125s.mp3)\n\n![](/evil/a.mp3)'),
    ).toEqual([
      'image "/evil/a.mp3": images must be uploaded to this site (the desk\'s Upload image)',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { TOUR_VIDEO, tourVideoReading } from '#test/card-readings';
import { TEST_ISSUE, TEST_SITE } from '#test/newsletter-fixtures';
import type { CardReading } from '../../../contract/embeds.js';
import { convertMarkdownToTree } from '../content/markdown-to-tree.js';
import { renderIssue } from './render-issue.js';
import { createMailTracking } from './tracking.js';

const issueWithBody = (markdown: string) =>
  renderIssue({ ...TEST_ISSUE, articles: [], body: convertMarkdownToTree(markdown) }, TEST_SITE);

describe('a mailed issue with tables, footnotes and strikethrough', () => {
  const body = [
    'Rates ~~fell~~ rose[^fed] this week[^fed].',
    '| Account | Rate |\n|:--|--:|\n| [Savings](/wealth) | 4.1% |\n| Checking | 0.5% |',
    '[^fed]: As the Fed [announced](https://www.federalreserve.gov).',
  ].join('\n\n');

  it('draws a table as an HTML table with its columns aligned, and the notes at the end', () => {
    const { html } = issueWithBody(body);
    expect(html).toContain(
      '<p style="margin:0 0 16px;">Rates <del>fell</del> rose<sup>1</sup> this week<sup>1</sup>.</p>',
    );
    const table = /<table[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
    expect(table.match(/<th align="(\w+)"/g)).toEqual(['<th align="left"', '<th align="right"']);
    expect(table).toMatch(/<td align="left" [^>]*><a href="https:\/\/cohort\.example\/wealth"/);
    expect(table).toMatch(
      /<td align="right" style="[^"]*text-align:right;">0\.5%<\/td><\/tr><\/tbody>/,
    );
    // The notes come after the body's last block, and before the footer.
    expect(html.indexOf('<ol style="margin:32px')).toBeGreaterThan(html.indexOf('</table>'));
    expect(html).toMatch(
      /<ol style="margin:32px[^"]*"><li style="margin:0 0 6px;"><p style="margin:0 0 16px;">As the Fed <a href="https:\/\/www\.federalreserve\.gov"/,
    );
  });

  it('writes the same in the text part: rows as lines, references as [1], the notes at the end', () => {
    const { text } = issueWithBody(body);
    expect(text).toContain(
      [
        'Rates ~~fell~~ rose[1] this week[1].',
        '',
        'Account | Rate',
        'Savings (https://cohort.example/wealth) | 4.1%',
        'Checking | 0.5%',
        '',
        '---',
        '[1] As the Fed announced (https://www.federalreserve.gov).',
      ].join('\n'),
    );
  });

  it('escapes what a cell holds', () => {
    const { html } = issueWithBody('| a |\n|---|\n| 1 < 2 & "y" |\n');
    expect(html).toContain('>1 &#60; 2 &#38; &#34;y&#34;</td>');
  });
});

describe('a mailed issue with an imported body’s structures', () => {
  const body = [
    '|      |      |\n| ---- | ---- |\n| Rent | $900 |\n\nTable: Costs by month',
    '3. Three left\n2. Two left\n1. One left',
  ].join('\n\n');

  it('draws a table without a header as rows alone, its caption above, and a list counting down', () => {
    const { html } = issueWithBody(body);
    const table = /<table[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
    expect(table).toMatch(
      /^<table [^>]*><caption style="[^"]*">Costs by month<\/caption><tbody><tr>/,
    );
    expect(table).not.toContain('<th');
    expect(html).toMatch(/<ol start="3" reversed style="[^"]*"><li [^>]*>Three left/);
  });

  it('writes the same in the text part: the caption, the rows, the list counting down', () => {
    const { text } = issueWithBody(body);
    expect(text).toContain(
      ['Costs by month', 'Rent | $900', '', '3. Three left', '2. Two left', '1. One left'].join(
        '\n',
      ),
    );
  });
});

describe('a mailed issue with a video, a bookmark and an episode', () => {
  const video = TOUR_VIDEO;
  const article = 'https://example.org/a-long-read';
  const episode = '/uploads/abcdefghij0123456789-725s.mp3';
  const cards = new Map<string, CardReading>([
    [video, tourVideoReading()],
    [
      article,
      {
        url: article,
        state: 'read',
        card: {
          kind: 'bookmark',
          title: 'A long read',
          description: 'On paying rent without dread.',
          siteName: 'Example Weekly',
          image: { src: '/uploads/klmnopqrst0123456789-1200x630.webp', width: 1200, height: 630 },
        },
      },
    ],
  ]);
  const markdown = [
    'This week:',
    video,
    article,
    `![Episode 12](${episode} "The one about rent")`,
    'https://vimeo.com/76979871',
    '![A photo](/uploads/uvwxyz01234567890abc-2400x1600.webp)',
  ].join('\n\n');
  const issue = { ...TEST_ISSUE, articles: [], body: convertMarkdownToTree(markdown, cards) };
  const page = 'https://cohort.example/newsletter/test-issue';

  it('draws no player: no iframe, script, audio or video, and only JPEG or PNG images', () => {
    const { html } = renderIssue(issue, TEST_SITE);
    expect(html).not.toMatch(/<(iframe|script|audio|video|object|embed)\b/i);
    const images = [...html.matchAll(/<img src="([^"]*)"/g)].map((match) => match[1]);
    expect(images).toEqual([
      'https://cohort.example/uploads/0123456789abcdefghij-480x360-mail1200.jpg',
      'https://cohort.example/uploads/klmnopqrst0123456789-1200x630-mail600.jpg',
      'https://cohort.example/uploads/uvwxyz01234567890abc-2400x1600-mail1200.jpg',
    ]);
    expect(html).not.toContain('youtube');
  });

  it('links the video’s thumbnail and its play line to the issue’s page, its title and author below', () => {
    const { html } = renderIssue(issue, TEST_SITE);
    expect(html).toContain(
      `<a href="${page}" style="display:block;text-decoration:none;"><img src="https://cohort.example/uploads/0123456789abcdefghij-480x360-mail1200.jpg" alt="Play on YouTube: A tour of the editor" width="480" height="360"`,
    );
    const card = html.slice(html.indexOf('-480x360-mail1200.jpg'));
    expect(card).toMatch(
      new RegExp(
        `^[^]*?<a href="${page}" [^>]*>▶︎ Play on YouTube</a><p [^>]*>A tour of the editor</p><p [^>]*>Ghost</p>`,
      ),
    );
    // A video nothing was read of: a box that names its provider, linking to the page as well.
    expect(html).toMatch(
      new RegExp(`<td bgcolor="#1f1f1f"[^>]*><a href="${page}" [^>]*>▶︎ Vimeo</a></td>`),
    );
  });

  it('draws the bookmark as a bordered table linking to its page, and the episode as a box linking to the issue', () => {
    const { html } = renderIssue(issue, TEST_SITE);
    expect(html).toMatch(
      /<table role="presentation"[^>]*border:1px solid #e2dccf;[^>]*><tr><td [^>]*><a href="https:\/\/example\.org\/a-long-read" [^>]*>A long read<\/a><p [^>]*>On paying rent without dread\.<\/p><p [^>]*>Example Weekly<\/p><\/td><td width="160" [^>]*><a href="https:\/\/example\.org\/a-long-read"><img src="[^"]*-mail600\.jpg" alt="" width="160" height="84"/,
    );
    expect(html).toMatch(
      new RegExp(
        `<a href="${page}" [^>]*>▶︎ Listen \\(12:05\\)</a><p [^>]*>Episode 12</p><p [^>]*>The one about rent</p>`,
      ),
    );
  });

  it('draws a post on X with no picture as a bordered card that links to the issue’s page', () => {
    const { html } = issueWithBody('https://x.com/Ghost/status/1395670367216619520');
    expect(html).toMatch(
      new RegExp(
        `<table role="presentation"[^>]*border:1px solid #e2dccf;[^>]*><tr><td [^>]*><a href="${page}" [^>]*>View on X</a></td></tr></table>`,
      ),
    );
    expect(html).not.toContain('x.com');
  });

  it('counts the clicks on the video, the bookmark and the episode as links through the site', () => {
    const tracking = createMailTracking('a-test-secret', TEST_SITE.siteUrl);
    const rendered = renderIssue(issue, { ...TEST_SITE, tracking });
    expect(rendered.links).toEqual([page, article]);
  });

  it('writes each in the text part as what it is and where', () => {
    const { text } = renderIssue(issue, TEST_SITE);
    expect(text).toContain(
      [
        'This week:',
        '',
        `Play on YouTube - A tour of the editor, Ghost: ${page}`,
        '',
        `A long read (Example Weekly): ${article}`,
        '',
        `Listen (12:05) - Episode 12: ${page}`,
        '',
        `Play on Vimeo: ${page}`,
        '',
        '[Image: A photo]',
      ].join('\n'),
    );
  });
});

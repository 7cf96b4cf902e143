import { describe, expect, it } from 'vitest';
import { TEST_ISSUE, TEST_SITE } from '#test/newsletter-fixtures';
import { convertMarkdownToTree } from '../content/markdown-to-tree.js';
import { renderIssue } from './render-issue.js';

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

import { describe, expect, it } from 'vitest';
import { summaryAfterChange } from '../ghost-admin/ghost-post-input.js';
import { htmlToMarkdown } from '../imports/html-to-markdown.js';
import { readMediumPost } from '../imports/medium.js';
import { textOfHtml } from '../imports/source-values.js';
import { cutAtWord, isMadeSummary, publicPartOf, summaryOf } from './post-summary.js';

// The one rule for a summary a writer did not give: what every visitor may read of the post,
// else its title; and the words of what no reader sees (scripts, styles) never in one.

const DIVIDED = 'Everyone reads this.\n\n<!-- members-only -->\n\nMembers read this.';

describe('a summary made from a post', () => {
  it('is a public post’s first paragraph, not its headings or lists', () => {
    const body = '## A heading\n\nThe opening words.\n\n- a list\n\nThen more.';
    expect(summaryOf({ title: 'T', body, visibility: 'public' })).toBe('The opening words.');
  });

  it('is the first paragraph inside a list or quote when the body has none outside, never its headings strung together', () => {
    const headings = '## Getting started\n\n### Install\n\n```sh\nnpm i\n```';
    expect(summaryOf({ title: 'The guide', body: headings, visibility: 'public' })).toBe(
      'The guide',
    );
    const listed = '## Steps\n\n1. Open the *box*.\n2. Read it.';
    expect(summaryOf({ title: 'T', body: listed, visibility: 'public' })).toBe('Open the box.');
    const captioned = '| a |\n| - |\n| b |\n\nTable: The costs\n\nThe opening.';
    expect(summaryOf({ title: 'T', body: captioned, visibility: 'public' })).toBe('The opening.');
  });

  it('still knows a summary made by the earlier rule (every paragraph strung together) as made', () => {
    const post = { title: 'T', body: 'One.\n\n## Two\n\nThree.', visibility: 'public' } as const;
    expect(isMadeSummary('One. Three.', post)).toBe(true);
    expect(isMadeSummary('One.', post)).toBe(true);
    expect(isMadeSummary('Typed by hand.', post)).toBe(false);
  });

  it('is a members-only post’s opening before the divider, and never what follows it', () => {
    const post = { title: 'T', body: DIVIDED, visibility: 'members' } as const;
    expect(publicPartOf(post)).toBe('Everyone reads this.');
    expect(summaryOf(post)).toBe('Everyone reads this.');
    // A public post with a divider is public whole.
    expect(publicPartOf({ body: DIVIDED, visibility: 'public' })).toBe(DIVIDED);
  });

  it('is the title of a members-only post with nothing before its divider, or no divider', () => {
    const title = 'For members';
    const nothingBefore = '<!-- members-only -->\n\nMembers read this.';
    expect(summaryOf({ title, body: nothingBefore, visibility: 'members' })).toBe(title);
    expect(summaryOf({ title, body: 'Members read this.', visibility: 'members' })).toBe(title);
  });

  it('is the summary its writer gave, members’ words or not: that is the writer’s choice', () => {
    const post = { title: 'T', body: 'Members read this.', visibility: 'members' } as const;
    expect(summaryOf(post, 'A teaser I typed.')).toBe('A teaser I typed.');
    expect(summaryOf(post, '  ')).toBe('T');
    expect(summaryOf(post, null)).toBe('T');
  });

  it('is cut at a word to 200 characters, with an ellipsis', () => {
    const long = `${'word '.repeat(60)}end`;
    const summary = summaryOf({ title: 'T', body: long, visibility: 'public' });
    expect(summary.length).toBeLessThanOrEqual(200);
    expect(summary.endsWith('word…')).toBe(true);
    expect(cutAtWord('alpha beta gamma delta', 12)).toBe('alpha beta…');
  });

  it('tells a summary the site made (today or by the rule that read the whole body) from a typed one', () => {
    const post = { title: 'T', body: DIVIDED, visibility: 'members' } as const;
    expect(isMadeSummary('Everyone reads this.', post)).toBe(true);
    expect(isMadeSummary('Everyone reads this. Members read this.', post)).toBe(true);
    expect(isMadeSummary('A teaser I typed.', post)).toBe(false);
  });
});

describe('what no reader sees is never summary text', () => {
  const html =
    '<p>Seen words.</p><script>hiddenScript()</script><style>.hiddenStyle{}</style>' +
    '<noscript>hiddenNoscript</noscript><template>hiddenTemplate</template>';
  const isHidden = (text: string) => /hidden/i.test(text);

  it('in an excerpt, subtitle or title read from HTML (WordPress, Substack)', () => {
    expect(textOfHtml(html)).toBe('Seen words.');
    expect(textOfHtml('Tide &amp; <em>time</em><script>x()</script>')).toBe('Tide & time');
  });

  it('in a Medium subtitle', () => {
    const page =
      '<html><head><title>A title</title></head><body><article>' +
      '<h1 class="p-name">A title</h1>' +
      `<section data-field="subtitle">A subtitle<script>hiddenScript()</script></section>` +
      '<section data-field="body"><p>Body words.</p></section></article></body></html>';
    const post = readMediumPost(page, 'posts/a-title.html');
    expect(post).toMatchObject({ title: 'A title', excerpt: 'A subtitle' });
  });

  it('in a summary made from a body converted from HTML, even one nested too deep to parse', () => {
    const { markdown } = htmlToMarkdown(html, { flavour: 'ghost' });
    const summary = summaryOf({ title: 'T', body: markdown, visibility: 'public' });
    expect(summary).toBe('Seen words.');
    const deep = htmlToMarkdown(`${'<div>'.repeat(100_000)}${html}`, { flavour: 'ghost' });
    expect(deep.dropped).toContain('markup nested too deeply (kept as plain text)');
    expect(deep.markdown).toContain('Seen words.');
    expect(isHidden(deep.markdown)).toBe(false);
  });
});

describe('the summary a change through the Admin API leaves', () => {
  const row = {
    kind: 'article' as const,
    title: 'Chutney notes',
    body: 'Members read this.',
    visibility: 'public' as const,
    fields: { summary: 'Members read this.' },
  };

  it('is made again when the site made it and the post became members-only', () => {
    expect(summaryAfterChange(row, { visibility: 'members' })).toEqual({
      summary: 'Chutney notes',
    });
  });

  it('is made again when a writing app sends back the made summary it read', () => {
    expect(
      summaryAfterChange(row, { visibility: 'members', excerpt: 'Members read this.' }),
    ).toEqual({ summary: 'Chutney notes' });
  });

  it('stays when its writer typed it, and is the writer’s when one is sent', () => {
    const typed = { ...row, fields: { summary: 'A teaser I typed.' } };
    expect(summaryAfterChange(typed, { visibility: 'members' })).toEqual({});
    expect(summaryAfterChange(typed, { excerpt: 'Another.' })).toEqual({ summary: 'Another.' });
    expect(summaryAfterChange({ ...typed, kind: 'page', fields: {} }, {})).toEqual({
      description: 'Members read this.',
    });
  });
});

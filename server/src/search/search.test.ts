import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentFile, writeContentFolder } from '#test/content-folder';
import { buildPost } from '#test/factories';
import type { TestApp } from '#test/test-app';
import { withSite, type Site } from '#test/with-site';
import type { SearchResult, SearchResults } from '../../../contract/search.js';
import { editDistance, excerptParts } from './search.js';

// Search against the real app and PostgreSQL: a fixed set of posts whose words sit in known
// places, so the order of the results is known.

const article = (
  slug: string,
  fields: {
    title: string;
    summary: string;
    category?: string;
    publishedAt?: string;
    membersOnly?: boolean;
  },
  body: string,
) =>
  contentFile(
    {
      ...(fields.membersOnly && { membersOnly: true }),
      slug,
      category: fields.category ?? 'Wealth',
      title: fields.title,
      summary: fields.summary,
      publishedAt: fields.publishedAt ?? '2024-03-01',
      readingMinutes: 4,
    },
    body,
  );

const SEARCH_CONTENT = {
  // "loan" in the title, in the summary, in the body: the order the ranking must give.
  'articles/loan-in-title.md': article(
    'loan-in-title',
    { title: 'The Loan Repayment Guide', summary: 'Plans and payments, step by step.' },
    'Paying back what you borrowed, one month at a time.',
  ),
  'articles/loan-in-summary.md': article(
    'loan-in-summary',
    {
      title: 'Money After College',
      summary: 'What to do about a student loan in your first year of work.',
      publishedAt: '2024-05-01',
    },
    'Your first paycheck and where it goes.',
  ),
  'articles/loan-in-body.md': article(
    'loan-in-body',
    {
      title: 'Budgeting Basics',
      summary: 'A plan for every dollar you earn.',
      // The newest: were dates the order, it would come first.
      publishedAt: '2024-09-01',
    },
    'Rent, food and savings come first.\n\nA car loan is the last thing to add.',
  ),
  'articles/sleep-guide.md': article(
    'sleep-guide',
    {
      title: 'Better Sleep',
      summary: 'Seven to nine hours, most nights.',
      category: 'Health',
    },
    'Keep a **regular** schedule and read [the guide](https://www.cdc.gov/sleep/) at night.',
  ),
  // The matched word far down a long body.
  'articles/deep-match.md': article(
    'deep-match',
    { title: 'A Long Read', summary: 'Many paragraphs.', category: 'Health' },
    `${Array.from({ length: 60 }, (_, i) => `Paragraph ${i} holds ordinary filler words.`).join('\n\n')}\n\nThen the zeppelin landed in the park.`,
  ),
  // A table, a footnote and a strike-through around a word found nowhere else.
  'articles/kumquat-table.md': article(
    'kumquat-table',
    { title: 'Fruit Prices', summary: 'What a crate costs.', category: 'Health' },
    'Compare[^src] the ~~old~~ kumquat crates.\n\n| Market | Kumquat crate |\n|:--|--:|\n| North | $40 |\n\n[^src]: Figures from the markets.',
  ),
  // Made members-only below: its body holds a word found nowhere else.
  'articles/members-briefing.md': article(
    'members-briefing',
    {
      title: 'Quarterly Pension Briefing',
      summary: 'What changed for pensions this quarter.',
      membersOnly: true,
    },
    'The free prelude.\n\n<!-- members-only -->\n\nThe zanzibar clause is the secret part.',
  ),
  // Members-only with no divider: nothing of its body is public, so none of it is found.
  'articles/members-ledger.md': article(
    'members-ledger',
    {
      title: 'The Members Ledger',
      summary: 'Numbers for members.',
      membersOnly: true,
    },
    'The marzipan figures stay behind the wall.',
  ),
  'campaigns/tenant-help.md': contentFile({
    slug: 'tenant-help',
    category: 'Direct Action',
    title: 'Tenant Help Fund',
    summary: 'Legal help for renters facing eviction.',
    publishedAt: '2024-02-01',
    externalLink: 'https://www.lawhelp.org/',
  }),
  'boycotts/grape-boycott.md': contentFile({
    slug: 'grape-boycott',
    title: 'Grape Boycott',
    reason: 'Farm workers asked shoppers to leave grapes on the shelf.',
    status: 'Success',
    alternative: { name: 'Union grapes', description: 'Grapes picked under a union contract.' },
    updates: [
      { date: '1965-09-08', note: 'The strike began in Delano.' },
      { date: '1970-07-29', note: 'Growers signed contracts.' },
    ],
  }),
  'resources/learning.md': contentFile({
    slug: 'learning',
    category: 'Free Learning',
    description: 'Courses that cost nothing.',
    updatedAt: '2024-01-01',
    resources: [
      { id: 1, title: 'Khan Academy', summary: 'Mathematics lessons.', link: 'https://a.example/' },
      {
        id: 2,
        title: 'Open Courseware',
        summary: 'University lectures.',
        link: 'https://b.example/',
      },
      { id: 3, title: 'Public Library', summary: 'Borrow books.', link: 'https://c.example/' },
      {
        id: 4,
        title: 'Code Club',
        summary: 'Programming for beginners.',
        link: 'https://d.example/',
      },
    ],
  }),
};

describe('search', () => {
  let testApp: Site;
  let folder: Awaited<ReturnType<typeof writeContentFolder>>;

  beforeAll(async () => {
    folder = await writeContentFolder(SEARCH_CONTENT);
    testApp = await withSite({
      seedContentDir: folder.dir,
      built: true,
      env: { STAFF_EMAILS: 'search-owner@example.com' },
    });
    // A draft and a post scheduled for next year, each with a word of its own.
    const unpublished = { category: 'Health', readingMinutes: 2 };
    await buildPost(testApp, {
      ...unpublished,
      status: 'draft',
      slug: 'draft-post',
      title: 'Unfinished quokka notes',
      summary: 'Not yet.',
      body: 'quokka',
    });
    await buildPost(testApp, {
      ...unpublished,
      status: 'scheduled',
      at: new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString(),
      slug: 'future-post',
      title: 'Wombat season',
      summary: 'Soon.',
      body: 'wombat',
    });
    await testApp.app.siteContent.refresh();
    await waitForWords(testApp, 'loan');
  });
  afterAll(async () => {
    await testApp?.close();
    await folder?.remove();
  });

  async function search(q: string, limit?: number): Promise<SearchResult[]> {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/search',
      query: { q, ...(limit !== undefined && { limit: String(limit) }) },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SearchResults>().results;
  }
  const slugsOf = (results: SearchResult[]) => results.map((result) => result.path);

  it('ranks a match in the title above one in the summary above one in the body', async () => {
    expect(slugsOf(await search('loan'))).toEqual([
      '/wealth/loan-in-title',
      '/wealth/loan-in-summary',
      '/wealth/loan-in-body',
    ]);
  });

  it('stems English words: "loans" and "repaying" find "loan" and "Repayment"', async () => {
    expect(slugsOf(await search('loans'))).toEqual(slugsOf(await search('loan')));
    expect(slugsOf(await search('repaying'))).toEqual(['/wealth/loan-in-title']);
  });

  it('matches the last word as the start of a word, as the reader types', async () => {
    expect(slugsOf(await search('student lo'))).toEqual(['/wealth/loan-in-summary']);
    expect(slugsOf(await search('budgeti'))).toEqual(['/wealth/loan-in-body']);
  });

  it('forgives a slip of typing: a letter wrong, missing or two swapped', async () => {
    expect(slugsOf(await search('lown'))).toEqual(slugsOf(await search('loan')));
    expect(slugsOf(await search('studnet loan'))).toEqual(['/wealth/loan-in-summary']);
    // "slep" is a slip from "sleep" and from "step" too: the better match first.
    expect(slugsOf(await search('slep'))[0]).toBe('/health/sleep-guide');
    // Words too far from any published word find nothing.
    expect(await search('xylophone')).toEqual([]);
  });

  it('marks the matched words in a short excerpt of plain text (no Markdown)', async () => {
    const [result] = await search('schedule');
    expect(result?.title).toBe('Better Sleep');
    expect(result?.excerpt.filter((part) => part.match).map((part) => part.text)).toEqual([
      'schedule',
    ]);
    const text = result?.excerpt.map((part) => part.text).join('') ?? '';
    expect(text).toContain('Keep a regular schedule and read the guide at night');
    expect(text).not.toMatch(/\*\*|\]\(|https:/);
  });

  it('shows a table’s cells, a footnote’s text and struck words as plain text in an excerpt', async () => {
    const [result] = await search('kumquat');
    expect(result?.path).toBe('/health/kumquat-table');
    const text = result?.excerpt.map((part) => part.text).join('') ?? '';
    expect(text).toContain(
      'Compare the old kumquat crates. Market Kumquat crate North $40 Figures from the markets',
    );
    expect(text).not.toMatch(/\||~~|\[\^|--/);
  });

  it('cuts the excerpt around a match deep in a long body', async () => {
    const [result] = await search('zeppelin');
    expect(result?.path).toBe('/health/deep-match');
    const text = result?.excerpt.map((part) => part.text).join('') ?? '';
    expect(text).toContain('Then the zeppelin landed in the park');
    expect(result?.excerpt.find((part) => part.match)?.text).toBe('zeppelin');
  });

  it('finds a members-only post by its title, summary and public opening, never by what follows the divider, whose words no excerpt shows', async () => {
    expect(await search('zanzibar')).toEqual([]);
    expect(await search('zanzibar clause')).toEqual([]);
    // Nor by a misspelling of it: hidden words are never offered as what was meant.
    expect(await search('zanzibarr')).toEqual([]);
    // Without a divider nothing of the body is public: none of it finds the post.
    expect(await search('marzipan')).toEqual([]);
    expect(slugsOf(await search('members ledger'))).toEqual(['/wealth/members-ledger']);
    // A slip of typing in its opening's words is forgiven, as anywhere else.
    for (const words of ['pension briefing', 'prelude', 'free prelude', 'prelute']) {
      const [found, ...others] = await search(words);
      expect(others, words).toEqual([]);
      expect(found, words).toMatchObject({ path: '/wealth/members-briefing', membersOnly: true });
      const text = found?.excerpt.map((part) => part.text).join('') ?? '';
      expect(text, words).toBe('What changed for pensions this quarter.');
    }
  });

  it('finds campaigns, boycotts and resources, each at its place in its list', async () => {
    expect(await search('eviction')).toMatchObject([
      { kind: 'campaign', path: '/direct-action#tenant-help', section: 'Direct Action' },
    ]);
    expect(await search('delano')).toMatchObject([
      { kind: 'boycott', path: '/collective#grape-boycott', section: 'Collective Action' },
    ]);
    const [resources] = await search('khan academy');
    expect(resources).toMatchObject({ kind: 'resources', path: '/empowerment#learning' });
    expect(resources?.excerpt.filter((part) => part.match).map((part) => part.text)).toEqual([
      'Khan',
      'Academy',
    ]);
  });

  it('never finds a draft or a post scheduled for later, and finds a post once it is live', async () => {
    expect(await search('quokka')).toEqual([]);
    expect(await search('wombat')).toEqual([]);
    await testApp.database.pool.query(
      `UPDATE "posts" SET "publishedAt" = now() - interval '1 minute', "updatedAt" = now()
        WHERE "slug" = 'future-post'`,
    );
    expect(slugsOf(await search('wombat'))).toEqual(['/health/future-post']);
    await testApp.database.pool.query(
      `UPDATE "posts" SET "publishedAt" = now() + interval '1 year' WHERE "slug" = 'future-post'`,
    );
  });

  it('answers at most `limit` results', async () => {
    expect(await search('loan', 2)).toHaveLength(2);
  });

  it('answers hostile input with no results or a 400 with a message, never a 500', async () => {
    for (const q of [
      '',
      '   ',
      '!!! ??? ...',
      `'; DROP TABLE posts; --`,
      'a(b|c)*[^x]{2,}\\d',
      'loan\u0000\u0000',
      ':* & | ! <-> ( )',
      'the of and',
      '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀 ÀÉÎ',
    ]) {
      const response = await testApp.app.inject({
        method: 'GET',
        url: '/api/search',
        query: { q },
      });
      expect(response.statusCode, q).toBe(200);
      expect(Array.isArray(response.json<SearchResults>().results), q).toBe(true);
    }
    expect(slugsOf(await search('loan\u0000'))).toEqual(slugsOf(await search('loan')));

    const long = await testApp.app.inject({
      method: 'GET',
      url: '/api/search',
      query: { q: 'loan '.repeat(200) },
    });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({
      error: {
        code: 'query_too_long',
        message: 'Search for at most 200 characters: a few words find more.',
      },
    });
    for (const url of [
      '/api/search',
      '/api/search?q=loan&limit=0',
      '/api/search?q=loan&limit=51',
      '/api/search?q=loan&limit=ten',
    ]) {
      const response = await testApp.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json<{ error: { message: string } }>().error.message, url).toBeTruthy();
    }
    // Many words: only the first eight are searched for, each at most 40 characters.
    const words = await testApp.app.inject({
      method: 'GET',
      url: '/api/search',
      query: { q: `${'x'.repeat(150)} loan` },
    });
    expect(words.statusCode).toBe(200);
  });

  describe('the page, without JavaScript', () => {
    const visible = (html: string) =>
      (/<div id="root">([\s\S]*)<\/div>/.exec(html)?.[1] ?? '')
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ');

    it('draws the results into /search?q= (a GET form leads there)', async () => {
      const response = await testApp.app.inject({ method: 'GET', url: '/search?q=loan' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      const html = response.body;
      expect(html).toMatch(/<form[^>]*action="\/search"/);
      expect(html).toMatch(/<input[^>]*name="q"[^>]*value="loan"/);
      const text = visible(html);
      expect(text).toContain('3 results for “loan”');
      const titles = [...html.matchAll(/<h2 class="search-result__title"><a href="([^"]+)"/g)].map(
        (match) => match[1],
      );
      expect(titles).toEqual([
        '/wealth/loan-in-title',
        '/wealth/loan-in-summary',
        '/wealth/loan-in-body',
      ]);
      expect(html).toContain('<mark>loan</mark>');
      expect(html).toContain('<title>Search: loan · Cohort</title>');
    });

    it('says when nothing is found, and answers a query too long with 400 and its message', async () => {
      const none = await testApp.app.inject({ method: 'GET', url: '/search?q=xylophone' });
      expect(none.statusCode).toBe(200);
      expect(visible(none.body)).toContain('Nothing found for “xylophone”');

      const long = await testApp.app.inject({
        method: 'GET',
        url: `/search?q=${'loan+'.repeat(200)}`,
      });
      expect(long.statusCode).toBe(400);
      expect(visible(long.body)).toContain('Search for at most 200 characters');
    });

    it('is the plain search page without a query, and never shows a member’s words', async () => {
      const page = await testApp.app.inject({ method: 'GET', url: '/search' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toMatch(/<input[^>]*name="q"/);
      const hidden = await testApp.app.inject({ method: 'GET', url: '/search?q=pension' });
      expect(hidden.body).not.toContain('zanzibar');
      expect(hidden.body).not.toContain('secret part');
    });
  });
});

describe('search helpers', () => {
  it('counts typing slips: one per letter added, dropped or changed, or two swapped', () => {
    expect(editDistance('loan', 'loan')).toBe(0);
    expect(editDistance('lown', 'loan')).toBe(1);
    expect(editDistance('studnet', 'student')).toBe(1);
    expect(editDistance('slep', 'sleep')).toBe(1);
    expect(editDistance('study', 'studnet')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('splits an excerpt at its marks and collapses its spaces', () => {
    expect(excerptParts('a \uE000loan\uE001\n\n  for \uE000you\uE001')).toEqual([
      { text: 'a ' },
      { text: 'loan', match: true },
      { text: ' for ' },
      { text: 'you', match: true },
    ]);
  });
});

/** Waits until the search words (added in the background after each change) hold `word`. */
async function waitForWords(testApp: TestApp, word: string) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const { rowCount } = await testApp.database.pool.query(
      `SELECT 1 FROM "search_words" WHERE "word" = $1`,
      [word],
    );
    if (rowCount) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`The search words never held "${word}"`);
}

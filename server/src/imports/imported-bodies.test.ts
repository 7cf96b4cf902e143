import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { importIntoSite } from '#test/card-readings';
import { withSite, type Site } from '#test/with-site';

// A post's body imported from a Ghost export and drawn on its page by the real app (the built
// pages): headings at their levels, a table without a header drawn without one, lists that start
// at 3 or count down, code in its language, a table's caption, a definition list's pairs, and a
// summary that is the first paragraph.

const BODY = [
  '<h1>Why we moved</h1>',
  '<h4>A small heading</h4>',
  '<h2>Before</h2>',
  '<p>We moved the <em>whole</em> archive in one evening.</p>',
  '<p>Nothing was lost on the way.</p>',
  '<h6>Smallest</h6>',
  '<table><tbody><tr><td>Rent</td><td>$900</td></tr><tr><td>Food</td><td>$300</td></tr></tbody></table>',
  '<table><caption>Costs by month</caption><thead><tr><th>Month</th><th>Cost</th></tr></thead><tbody><tr><td>March</td><td>$1,200</td></tr></tbody></table>',
  '<ol start="3"><li>Third step</li><li>Fourth step</li></ol>',
  '<ol reversed><li>Three left</li><li>Two left</li><li>One left</li></ol>',
  '<pre><code class="language-python">print("moved")</code></pre>',
  '<dl><dt>Escrow</dt><dd>Money held by a third party.</dd></dl>',
].join('\n');

const exportOf = (posts: Record<string, unknown>[]) =>
  JSON.stringify({
    db: [{ meta: { exported_on: 1_700_000_000_000, version: '5.0.0' }, data: { posts } }],
  });

describe('an imported body drawn on its page', () => {
  let site: Site;
  let folder: string;
  let page = '';

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'cohort-imported-bodies-'));
    const file = join(folder, 'ghost.json');
    await writeFile(
      file,
      exportOf([
        {
          id: 'moved',
          title: 'How we moved',
          slug: 'how-we-moved',
          html: BODY,
          status: 'published',
          type: 'post',
          visibility: 'public',
          published_at: '2024-05-06T07:08:09.000Z',
        },
      ]),
    );
    site = await withSite({ built: true });
    await importIntoSite(site, file);
    const get = () => site.app.inject({ method: 'GET', url: '/wealth/how-we-moved' });
    // The site's published posts are read again just after an import: the page answers then.
    const response = await vi.waitFor(
      async () => {
        const answer = await get();
        if (answer.statusCode !== 200) throw new Error(`the page answers ${answer.statusCode}`);
        return answer;
      },
      { timeout: 10_000, interval: 100 },
    );
    page = response.body;
  });
  afterAll(async () => {
    await site?.close();
    await rm(folder, { recursive: true, force: true });
  });

  /** The drawn body: from the first heading the import made to the end of the definition list. */
  const body = () => {
    const start = page.indexOf('<h2>Why we moved</h2>');
    const end = page.indexOf('Money held by a third party.', start);
    expect(start, page).toBeGreaterThan(-1);
    expect(end).toBeGreaterThan(start);
    return page.slice(start, end + 40);
  };

  it('draws each heading at its level: the body’s h1 as h2, h4 and h6 as they were', () => {
    expect(body()).toMatch(
      /<h2>Why we moved<\/h2><h4>A small heading<\/h4><h2>Before<\/h2>.*<h6>Smallest<\/h6>/s,
    );
  });

  it('draws the table without a header as rows alone, and the other with its header and caption', () => {
    const tables = [...body().matchAll(/<table>([\s\S]*?)<\/table>/g)].map((match) => match[1]);
    expect(tables).toEqual([
      '<tbody><tr><td>Rent</td><td>$900</td></tr><tr><td>Food</td><td>$300</td></tr></tbody>',
      '<caption>Costs by month</caption><thead><tr><th>Month</th><th>Cost</th></tr></thead>' +
        '<tbody><tr><td>March</td><td>$1,200</td></tr></tbody>',
    ]);
    // The caption is the table's, not a paragraph of its own.
    expect(body()).not.toContain('Table: ');
  });

  it('draws the lists from 3 up, and from 3 down', () => {
    expect(body()).toContain('<ol start="3"><li>Third step</li><li>Fourth step</li></ol>');
    expect(body()).toMatch(
      /<ol (?:start="3" reversed=""|reversed="" start="3")><li>Three left<\/li><li>Two left<\/li><li>One left<\/li><\/ol>/,
    );
  });

  it('draws the code in its language, and the definition list as its term and meaning', () => {
    expect(body()).toContain(
      '<pre><code class="language-python">print(&quot;moved&quot;)</code></pre>',
    );
    expect(body()).toContain(
      '<ul><li><strong>Escrow</strong>: Money held by a third party.</li></ul>',
    );
  });

  it('sums the post up by its first paragraph, not its headings', () => {
    expect(page).toContain(
      '<meta name="description" content="We moved the whole archive in one evening."',
    );
  });
});

import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { ARCHIVE_PAGE_SIZE, readArchivePath } from '../../../contract/archive.js';
import type { ArticleSummary } from '../../../contract/content-types.js';
import { ARTICLE, SITE, useDeskPostsSite } from '#test/desk-posts-site';
import { withTransaction } from '../db/transaction.js';
import { archiveData, archivePages } from './archive-pages.js';
import { contentChanged } from './content-changes.js';

// The archive (/archive, /archive/<yyyy>, /archive/<yyyy>/<mm>): every published article by month,
// newest first, drawn by the server into the page; a restricted one listed by its title and badge
// as the home page lists it, a draft not at all; a month with nothing, or a malformed date, the
// 404 page. And the feeds' GUIDs, which stay while a post is edited, re-slugged or moved.

describe('the archive', () => {
  const { t, page, published, owner, call, sitemap } = useDeskPostsSite();

  /** A post's date set in the past, as an import writes it. */
  async function dated(id: number, day: string) {
    const generation = await withTransaction(t.database.pool, async (tx) => {
      await tx.query(`UPDATE "posts" SET "publishedAt" = $2 WHERE "id" = $1`, [
        id,
        `${day}T12:00:00Z`,
      ]);
      return contentChanged(tx);
    });
    await t.app.siteContent.waitFor(generation);
  }

  beforeAll(async () => {
    const early = await published({ title: 'The Early Harbour', slug: 'early-harbour' });
    const late = await published({ title: 'The Late Harbour', slug: 'late-harbour' });
    const locked = await published({
      title: 'The Members’ Harbour',
      slug: 'members-harbour',
      visibility: 'members',
      body: 'Open to all.\n\n<!-- members-only -->\n\nThe tide tables only members read.\n',
    });
    const summer = await published({ title: 'Summer at Sea', slug: 'summer-at-sea' });
    await published({ title: 'A Harbour Draft', slug: 'harbour-draft', status: 'draft' });
    await dated(early.id, '1991-03-05');
    await dated(late.id, '1991-03-20');
    await dated(locked.id, '1991-03-12');
    await dated(summer.id, '1992-07-01');
  });

  const titlesIn = (html: string, titles: string[]) =>
    titles
      .map((title) => [title, html.indexOf(title)] as const)
      .filter(([, at]) => at >= 0)
      .sort((a, b) => a[1] - b[1])
      .map(([title]) => title);

  it('lists a month’s articles newest first, a restricted one by its title and badge, no draft', async () => {
    const month = await page('/archive/1991/03');
    expect(month.statusCode).toBe(200);
    expect(month.body).toContain('<h1>March 1991</h1>');
    expect(
      titlesIn(month.body, [
        'The Early Harbour',
        'The Late Harbour',
        'The Members’ Harbour',
        'Summer at Sea',
        'A Harbour Draft',
      ]),
    ).toEqual(['The Late Harbour', 'The Members’ Harbour', 'The Early Harbour']);
    expect(month.body).toContain('members-badge');
    expect(month.body).not.toContain('The tide tables only members read.');
    expect(month.body).toContain('href="/wealth/late-harbour"');
  });

  it('groups a year’s and the whole archive’s articles by month, newest first, with links to each', async () => {
    const year = await page('/archive/1991');
    expect(year.statusCode).toBe(200);
    expect(year.body).toContain('href="/archive/1991/03"');
    expect(titlesIn(year.body, ['Summer at Sea', 'The Early Harbour'])).toEqual([
      'The Early Harbour',
    ]);
    const all = await page('/archive');
    expect(all.statusCode).toBe(200);
    expect(titlesIn(all.body, ['The Early Harbour', 'Summer at Sea', 'The Late Harbour'])).toEqual([
      'Summer at Sea',
      'The Late Harbour',
      'The Early Harbour',
    ]);
    const months = [...all.body.matchAll(/<h2 id="archive-(\d{4}-\d{2})"/g)].map((m) => m[1]);
    expect(months).toEqual([...months].sort().reverse());
    expect(months).toEqual(expect.arrayContaining(['1992-07', '1991-03']));
    expect(all.body).toContain('href="/archive/1992"');
    // The site's footer leads here, on every page.
    expect((await page('/')).body).toContain('href="/archive"');
    expect(await sitemap()).toContain(`${SITE}/archive/1991/03</loc>`);
  });

  it('answers 404 for a month or year with nothing, a malformed date and a page past the last', async () => {
    for (const url of [
      '/archive/1991/04',
      '/archive/1990',
      '/archive/1991/13',
      '/archive/1991/3',
      '/archive/91',
      '/archive/1991/03/05',
      '/archive/page/1',
      '/archive/page/99',
      '/archive/march',
    ]) {
      expect((await page(url)).statusCode, url).toBe(404);
    }
    // What the browser asks when it moves there: nothing, so it draws the not-found page too.
    const data = await page('/api/site-data?path=/archive/1991/04');
    expect(data.json()).not.toHaveProperty('archive');
  });

  it('keeps an article’s GUID in every feed while it is edited, re-slugged and moved', async () => {
    const post = await published({ ...ARTICLE, title: 'Tide Tables', slug: 'tide-tables' });
    const guidIn = async (url: string, title: string) => {
      const parsed = new XMLParser({ isArray: (name) => name === 'item' }).parse(
        (await page(url)).body,
      ) as { rss: { channel: { item: { title: string; link: string; guid: string }[] } } };
      const item = parsed.rss.channel.item.find((each) => each.title === title);
      return { guid: item?.guid, link: item?.link };
    };
    const guid = `${new URL(SITE).host}:post:${post.id}`;
    expect(await guidIn('/rss.xml', 'Tide Tables')).toEqual({
      guid,
      link: `${SITE}/wealth/tide-tables`,
    });
    expect((await page('/rss.xml')).body).toContain(`<guid isPermaLink="false">${guid}</guid>`);
    const moved = await call(owner, 'PATCH', `/api/desk/posts/${post.id}`, {
      version: post.version,
      title: 'Tide Tables, Revised',
      slug: 'tide-tables-revised',
      category: 'Health',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    for (const feed of ['/rss.xml', '/health/rss.xml']) {
      const after = await guidIn(feed, 'Tide Tables, Revised');
      expect(after.link, feed).toBe(`${SITE}/health/tide-tables-revised`);
      expect(after.guid, feed).toBe(guid);
    }
  });

  it('keeps the address a post was known by in the feeds before they knew posts by id', async () => {
    const post = await published({ ...ARTICLE, title: 'Old Soundings', slug: 'old-soundings' });
    // As the migration that brought ids in left a post already in the feeds: marked, not filled.
    const marked = await withTransaction(t.database.pool, async (tx) => {
      await tx.query(`UPDATE "posts" SET "feedGuidPath" = '' WHERE "id" = $1`, [post.id]);
      return contentChanged(tx);
    });
    await t.app.siteContent.waitFor(marked);
    const itemOf = async (title: string) =>
      (
        new XMLParser({ isArray: (name) => name === 'item' }).parse(
          (await page('/rss.xml')).body,
        ) as { rss: { channel: { item: { title: string; guid: string | { '#text': string } }[] } } }
      ).rss.channel.item.find((each) => each.title === title)?.guid;
    const guidText = (guid: string | { '#text': string } | undefined) =>
      typeof guid === 'object' ? guid['#text'] : guid;
    expect(guidText(await itemOf('Old Soundings'))).toBe(`${SITE}/wealth/old-soundings`);
    const stored = await t.database.pool.query<{ feedGuidPath: string }>(
      `SELECT "feedGuidPath" FROM "posts" WHERE "id" = $1`,
      [post.id],
    );
    expect(stored.rows[0]?.feedGuidPath).toBe('/wealth/old-soundings');
    const moved = await call(owner, 'PATCH', `/api/desk/posts/${post.id}`, {
      version: post.version,
      title: 'Old Soundings, Revised',
      slug: 'old-soundings-revised',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(guidText(await itemOf('Old Soundings, Revised'))).toBe(`${SITE}/wealth/old-soundings`);
  });
});

describe('the archive’s pages', () => {
  const articles = Array.from({ length: 2 * ARCHIVE_PAGE_SIZE + 20 }, (_, at) => {
    const day = new Date(Date.UTC(2020, 0, 1) - at * 86_400_000).toISOString().slice(0, 10);
    return { id: at + 1, publishedAt: day } as ArticleSummary;
  });

  it('pages the whole archive, and lists every year and month with an article', () => {
    const paths = archivePages(articles).map((page) => page.path);
    expect(paths.slice(0, 3)).toEqual(['/archive', '/archive/page/2', '/archive/page/3']);
    expect(paths).toEqual(
      expect.arrayContaining(['/archive/2020', '/archive/2020/01', '/archive/2019/12']),
    );
    expect(paths).not.toContain('/archive/page/4');
    const third = archiveData(articles, '/archive/page/3');
    expect(third.articles).toHaveLength(20);
    expect(third.archive?.pageCount).toBe(3);
    expect(archiveData(articles, '/archive/page/4')).toEqual({});
    // Nothing published: the archive is there, and says so.
    expect(archivePages([]).map((page) => page.path)).toEqual(['/archive']);
    expect(archiveData([], '/archive').articles).toEqual([]);
  });

  it('reads only plain archive addresses', () => {
    expect(readArchivePath('/archive/2013/01')).toEqual({
      kind: 'month',
      year: '2013',
      month: '01',
    });
    expect(readArchivePath('/archive/page/2')).toEqual({ kind: 'all', page: 2 });
    for (const path of ['/archive/page/02', '/archive/2013/00', '/archive/2013/1', '/archives']) {
      expect(readArchivePath(path), path).toBeNull();
    }
  });
});

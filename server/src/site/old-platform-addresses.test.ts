import { existsSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { ARTICLE, SITE, useDeskPostsSite } from '#test/desk-posts-site';
import { sample } from '#test/migration-samples';

// After a move, the feed and archive addresses of Ghost, WordPress and Substack answer 301, in
// one hop, to a page or feed of the site that answers 200 (site/old-platform-addresses.ts): the
// real Ghost v4 and WordPress theme unit test exports imported first. A post or page of the site's
// own at such an address wins, and an unknown tag, author or month is a 404. Ghost's posts keep
// the GUIDs Ghost's feed gave them. Skipped, saying so, where the samples are absent.

const GHOST = 'ghost/v4_export.json';
const WORDPRESS = 'wordpress/theme-unit-test-data.xml';
const haveSamples = existsSync(sample(GHOST)) && existsSync(sample(WORDPRESS));

describe('old platforms’ feed and archive addresses', () => {
  const { t, page, owner, published, importSample } = useDeskPostsSite();

  // The theme unit test's hundred posts take a while on a busy machine.
  beforeAll(async () => {
    if (!haveSamples) return;
    await importSample('ghost', GHOST);
    await importSample('wordpress', WORDPRESS);
  }, 180_000);

  /** Where an address leads: its 301's Location, and what that answers. */
  async function follow(url: string) {
    const first = await page(url);
    expect(first.statusCode, `${url}: ${first.body.slice(0, 200)}`).toBe(301);
    const location = String(first.headers.location);
    const then = await page(location);
    return { location, status: then.statusCode, type: String(then.headers['content-type']) };
  }

  it('leads each platform’s feeds, tags, categories, authors and date archives to a page that answers 200', async (context) => {
    if (!haveSamples) context.skip('the samples are not here');
    const expected: [from: string, to: string, type: 'html' | 'rss'][] = [
      // Ghost
      ['/rss/', '/rss.xml', 'rss'],
      ['/tag/getting-started/', '/topics/getting-started', 'html'],
      ['/tag/getting-started/rss/', '/topics/getting-started/rss.xml', 'rss'],
      ['/author/ghost/', '/authors/ghost', 'html'],
      ['/author/ghost/rss/', '/authors/ghost/rss.xml', 'rss'],
      // WordPress
      ['/feed/', '/rss.xml', 'rss'],
      ['/feed', '/rss.xml', 'rss'],
      ['/feed/rss2/', '/rss.xml', 'rss'],
      ['/comments/feed/', '/rss.xml', 'rss'],
      ['/category/markup/', '/topics/markup', 'html'],
      ['/category/markup/feed/', '/topics/markup/rss.xml', 'rss'],
      // Two WordPress terms of one name (Media, media-2) are one topic here.
      ['/category/media-2/', '/topics/media', 'html'],
      ['/tag/markup/', '/topics/markup', 'html'],
      ['/author/themereviewteam/', '/authors/themereviewteam', 'html'],
      ['/2013/', '/archive/2013', 'html'],
      ['/2013/01/', '/archive/2013/01', 'html'],
      ['/2013/01/10/', '/archive/2013/01', 'html'],
      ['/page/2/', '/archive', 'html'],
      ['/page/6/', '/archive/page/2', 'html'],
    ];
    for (const [from, to, type] of expected) {
      const answer = await follow(from);
      expect(answer.location, from).toBe(to);
      expect(answer.status, to).toBe(200);
      expect(answer.type, to).toContain(type === 'rss' ? 'application/rss+xml' : 'text/html');
    }
    // Substack's archive is the site's own; its feed the site's.
    expect((await page('/archive')).statusCode).toBe(200);
    expect((await follow('/archive/')).location).toBe('/archive');
  });

  it('keeps a page’s query (a campaign’s tags) and leaves a feed’s behind', async (context) => {
    if (!haveSamples) context.skip('the samples are not here');
    expect((await follow('/tag/getting-started/?utm_source=mail')).location).toBe(
      '/topics/getting-started?utm_source=mail',
    );
    expect((await follow('/2013/01/?utm_source=mail')).location).toBe(
      '/archive/2013/01?utm_source=mail',
    );
    expect((await follow('/feed/?withoutcomments=1')).location).toBe('/rss.xml');
  });

  it('answers 404 for a tag, category, author, month or page the site does not have', async (context) => {
    if (!haveSamples) context.skip('the samples are not here');
    for (const url of [
      '/tag/no-such-tag/',
      '/tag/no-such-tag/rss/',
      '/category/nothing-here/',
      '/author/nobody/',
      '/author/nobody/rss/',
      '/1999/',
      '/2013/02/',
      '/2013/13/',
      '/2013/01/32/',
      '/page/999/',
      '/page/0/',
      '/feed/nonsense/',
    ]) {
      expect((await page(url)).statusCode, url).toBe(404);
    }
  });

  it('never shadows a post or page of the site’s own: a page at /feed is that page', async () => {
    const made = await t.call(owner, 'POST', '/api/desk/posts', {
      kind: 'page',
      slug: 'feed',
      title: 'Our feed, explained',
      description: 'How to follow us.',
      body: 'Follow us with any feed reader.\n',
    });
    expect(made.statusCode, made.body).toBe(201);
    const { post } = made.json();
    const live = await t.call(owner, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version,
    });
    expect(live.statusCode, live.body).toBe(200);
    const own = await page('/feed');
    expect(own.statusCode).toBe(200);
    expect(own.body).toContain('Our feed, explained');
    // The slash goes, to the page, not to the feed.
    expect((await follow('/feed/')).location).toBe('/feed');
    // The site's feed of its own is still where it was.
    expect((await follow('/rss/')).location).toBe('/rss.xml');
    // An article in a section named like an old platform's word is an article.
    const article = await published({ ...ARTICLE, title: 'Tagged along', slug: 'tagged-along' });
    expect((await page(article.path)).statusCode).toBe(200);
  });

  it('keeps the GUIDs Ghost’s feed gave its posts, through a second import, an edit and a new slug', async (context) => {
    if (!haveSamples) context.skip('the samples are not here');
    const guids = async () => {
      const parsed = new XMLParser({ isArray: (name) => name === 'item' }).parse(
        (await page('/rss.xml')).body,
      ) as { rss: { channel: { item: { title: string; guid: string | { '#text': string } }[] } } };
      return new Map(
        parsed.rss.channel.item.map((item) => [
          item.title,
          typeof item.guid === 'string' ? item.guid : item.guid['#text'],
        ]),
      );
    };
    const { rows } = await t.database.pool.query<{ id: number; title: string }>(
      `SELECT p."id", p."title" FROM "posts" p JOIN "import_items" i
        ON i."targetId" = p."id"::text AND i."source" = 'ghost' AND i."kind" = 'post'
        WHERE p."slug" = 'welcome' AND p."kind" = 'article'`,
    );
    const welcome = rows[0];
    if (!welcome) throw new Error('The Ghost sample’s "welcome" post was not imported');
    // Ghost's own id of the post, as its feed gave it (the export's posts[].id).
    expect((await guids()).get(welcome.title)).toBe('605ac141a2d5a6aa9e101ec9');
    await importSample('ghost', GHOST);
    expect((await guids()).get(welcome.title)).toBe('605ac141a2d5a6aa9e101ec9');
    // Edited and re-slugged here: still the same item to a feed reader.
    const before = (await t.call(owner, 'GET', `/api/desk/posts/${welcome.id}`)).json().post;
    const edited = await t.call(owner, 'PATCH', `/api/desk/posts/${welcome.id}`, {
      version: before.version,
      title: 'Welcome, again',
      slug: 'welcome-again',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await guids()).get('Welcome, again')).toBe('605ac141a2d5a6aa9e101ec9');
    // A WordPress post is known by its id here.
    const { rows: wordpress } = await t.database.pool.query<{ id: number; title: string }>(
      `SELECT "id", "title" FROM "posts" WHERE "slug" = 'markup-html-tags-and-formatting'`,
    );
    const markup = wordpress[0];
    if (!markup) throw new Error('The WordPress sample’s markup post was not imported');
    expect((await guids()).get(markup.title)).toBe(`${new URL(SITE).host}:post:${markup.id}`);
  });
});

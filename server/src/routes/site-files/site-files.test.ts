import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentFile, writeContentFolder } from '#test/content-folder';
import { withSite, type Site } from '#test/with-site';

// Titles and summaries with every character XML must escape, and one it cannot hold at all.
const HOSTILE_TITLE = `Rent & "Buy" <Now> or 'Later'?`;
const HOSTILE_SUMMARY = `Fees < 1% & > 0; a "quote", an 'apostrophe' and a bell\u0007 character.`;

const article = (
  slug: string,
  category: string,
  title: string,
  summary: string,
  publishedAt: string,
) =>
  contentFile(
    { slug, category, title, summary, publishedAt, readingMinutes: 3 },
    'A short article of the test’s own.',
  );
const issue = (
  slug: string,
  title: string,
  summary: string,
  publishedAt: string,
  membersOnly: boolean,
) => contentFile({ slug, title, summary, publishedAt, membersOnly }, 'An issue.');

/** The site these tests serve: three articles (one hostile), two issues, a draft-free folder. */
const SITE_FILES_CONTENT = {
  'articles/sleep-debt-reset.md': article(
    'sleep-debt-reset',
    'Health',
    'Sleep Debt Reset',
    'Pay it back.',
    '2024-06-04',
  ),
  'articles/index-funds-explained.md': article(
    'index-funds-explained',
    'Wealth',
    'Index Funds Explained',
    'Own the market.',
    '2024-03-10',
  ),
  'articles/rent-vs-buy.md': article(
    'rent-vs-buy',
    'Wealth',
    HOSTILE_TITLE,
    HOSTILE_SUMMARY,
    '2024-05-01',
  ),
  'newsletters/members-briefing.md': issue(
    'members-briefing',
    'Members’ briefing',
    'A checklist for members.',
    '2024-07-02',
    true,
  ),
  'newsletters/first-issue.md': issue(
    'first-issue',
    'Welcome',
    'What this newsletter is.',
    '2024-07-01',
    false,
  ),
};

const SITE_URL = 'https://members.example.org';
const parser = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'item' });

interface RssItem {
  title: string;
  link: string;
  guid: { '#text': string; '@_isPermaLink': string };
  description: string;
  category: string;
  pubDate: string;
}

describe('the sitemap, feeds, robots.txt and manifest', () => {
  let testApp: Site;
  let folder: Awaited<ReturnType<typeof writeContentFolder>>;

  beforeAll(async () => {
    folder = await writeContentFolder(SITE_FILES_CONTENT);
    // SITE_URL with a trailing slash and SITE_NAME with an ampersand, as an operator might write them.
    const env = { SITE_URL: `${SITE_URL}/`, SITE_NAME: 'Fish & Chips "Co-op"' };
    testApp = await withSite({ env, seedContentDir: folder.dir });
  });
  afterAll(async () => {
    await testApp?.close();
    await folder?.remove();
  });

  const get = (url: string) => testApp.app.inject({ method: 'GET', url });
  /** An article's GUID: its id on this site, whatever its address (site-files/feed-guids.ts). */
  const guidOf = async (slug: string) => {
    const { rows } = await testApp.database.pool.query<{ id: number }>(
      `SELECT "id" FROM "posts" WHERE "kind" = 'article' AND "slug" = $1`,
      [slug],
    );
    return `${new URL(SITE_URL).host}:post:${rows[0]?.id}`;
  };

  /** The response parsed as XML, after a validator (a stricter reader) accepted it. */
  async function fetchXml(url: string, type: RegExp) {
    const response = await get(url);
    expect(response.statusCode, url).toBe(200);
    expect(response.headers['content-type'], url).toMatch(type);
    expect(response.headers['cache-control'], url).toBe('public, max-age=60');
    expect(XMLValidator.validate(response.body), url).toBe(true);
    expect(response.body, url).not.toContain('\u0007');
    return parser.parse(response.body) as Record<string, unknown>;
  }

  async function fetchFeed(url: string) {
    const xml = (await fetchXml(url, /^application\/rss\+xml; charset=utf-8$/)) as {
      rss: {
        '@_version': string;
        channel: {
          title: string;
          link: string;
          'atom:link': { '@_href': string };
          item?: RssItem[];
        };
      };
    };
    expect(xml.rss['@_version']).toBe('2.0');
    return xml.rss.channel;
  }

  it('lists every public page in the sitemap at SITE_URL, with lastmod where the page has a date', async () => {
    const xml = (await fetchXml('/sitemap.xml', /^application\/xml; charset=utf-8$/)) as {
      urlset: { '@_xmlns': string; url: { loc: string; lastmod?: string }[] };
    };
    expect(xml.urlset['@_xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    // Each article with its date; each section list with its newest article's.
    for (const [path, lastmod] of [
      ['/health/sleep-debt-reset', '2024-06-04'],
      ['/wealth/rent-vs-buy', '2024-05-01'],
      ['/wealth/index-funds-explained', '2024-03-10'],
      ['/health', '2024-06-04'],
      ['/wealth', '2024-05-01'],
      ['/newsletter/first-issue', '2024-07-01'],
    ]) {
      expect(xml.urlset.url).toContainEqual({ loc: `${SITE_URL}${path}`, lastmod });
    }
    const locs = xml.urlset.url.map((url) => url.loc);
    // The screens the site always has, with the newest date of the site where they show none.
    for (const path of ['/', '/empowerment', '/early-access', '/newsletter']) {
      expect(locs).toContain(`${SITE_URL}${path}`);
    }
    expect(xml.urlset.url.filter((url) => !/^\d{4}-\d{2}-\d{2}$/.test(url.lastmod ?? ''))).toEqual(
      [],
    );
    expect(new Set(locs).size).toBe(locs.length);
    expect(locs.every((loc) => loc.startsWith(`${SITE_URL}/`))).toBe(true);
  });

  it('lists every article in /rss.xml, newest first, with its summary, escaped where it must be', async () => {
    const channel = await fetchFeed('/rss.xml');
    expect(channel.title).toBe('Fish & Chips "Co-op"');
    expect(channel.link).toBe(`${SITE_URL}/`);
    expect(channel['atom:link']['@_href']).toBe(`${SITE_URL}/rss.xml`);
    expect(channel.item).toEqual([
      {
        title: 'Sleep Debt Reset',
        link: `${SITE_URL}/health/sleep-debt-reset`,
        guid: { '#text': await guidOf('sleep-debt-reset'), '@_isPermaLink': 'false' },
        description: 'Pay it back.',
        category: 'Health',
        pubDate: 'Tue, 04 Jun 2024 00:00:00 GMT',
      },
      {
        title: HOSTILE_TITLE,
        link: `${SITE_URL}/wealth/rent-vs-buy`,
        guid: { '#text': await guidOf('rent-vs-buy'), '@_isPermaLink': 'false' },
        description: HOSTILE_SUMMARY.replace('\u0007', ''),
        category: 'Wealth',
        pubDate: 'Wed, 01 May 2024 00:00:00 GMT',
      },
      {
        title: 'Index Funds Explained',
        link: `${SITE_URL}/wealth/index-funds-explained`,
        guid: { '#text': await guidOf('index-funds-explained'), '@_isPermaLink': 'false' },
        description: 'Own the market.',
        category: 'Wealth',
        pubDate: 'Sun, 10 Mar 2024 00:00:00 GMT',
      },
    ]);
  });

  it('has one feed per section, beside its list, with only that section’s articles', async () => {
    const health = await fetchFeed('/health/rss.xml');
    expect(health.title).toBe('Fish & Chips "Co-op": Health');
    expect(health.link).toBe(`${SITE_URL}/health`);
    expect(health['atom:link']['@_href']).toBe(`${SITE_URL}/health/rss.xml`);
    expect(health.item?.map((item) => item.link)).toEqual([`${SITE_URL}/health/sleep-debt-reset`]);

    const wealth = await fetchFeed('/wealth/rss.xml');
    expect(wealth.item?.map((item) => item.title)).toEqual([
      HOSTILE_TITLE,
      'Index Funds Explained',
    ]);
  });

  it('lists every newsletter issue in /newsletter/rss.xml with its summary, members-only ones marked', async () => {
    const channel = await fetchFeed('/newsletter/rss.xml');
    expect(channel.title).toBe('Fish & Chips "Co-op" newsletter');
    expect(channel.link).toBe(`${SITE_URL}/newsletter`);
    expect(channel['atom:link']['@_href']).toBe(`${SITE_URL}/newsletter/rss.xml`);
    expect(channel.item).toEqual([
      {
        title: 'Members’ briefing',
        link: `${SITE_URL}/newsletter/members-briefing`,
        guid: { '#text': `${SITE_URL}/newsletter/members-briefing`, '@_isPermaLink': 'true' },
        description: 'A checklist for members.',
        category: 'Members only',
        pubDate: 'Tue, 02 Jul 2024 00:00:00 GMT',
      },
      {
        title: 'Welcome',
        link: `${SITE_URL}/newsletter/first-issue`,
        guid: { '#text': `${SITE_URL}/newsletter/first-issue`, '@_isPermaLink': 'true' },
        description: 'What this newsletter is.',
        pubDate: 'Mon, 01 Jul 2024 00:00:00 GMT',
      },
    ]);
  });

  it('names the sitemap by its absolute address in robots.txt', async () => {
    const response = await get('/robots.txt');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body.split('\n')).toEqual([
      'User-agent: *',
      'Allow: /',
      'Disallow: /desk',
      '',
      `Sitemap: ${SITE_URL}/sitemap.xml`,
      '',
    ]);
  });

  it('names the site after its first settings (SITE_NAME) in the web manifest, with its accent and the build’s icons', async () => {
    const response = await get('/manifest.webmanifest');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    expect(response.json()).toEqual({
      name: 'Fish & Chips "Co-op"',
      short_name: 'Fish & Chips "Co-op"',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      lang: 'en',
      // A new site's accent (content/site-settings.ts), until the desk sets another.
      theme_color: '#f5c542',
      background_color: '#fbfaf7',
      icons: expect.arrayContaining([
        { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
      ]),
    });
  });

  it('answers HEAD as crawlers send it', async () => {
    const response = await testApp.app.inject({ method: 'HEAD', url: '/rss.xml' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
  });
});

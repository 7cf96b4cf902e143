import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentFile, writeContentFolder } from '#test/content-folder';
import { withSite, type Site } from '#test/with-site';
import type { ArticleSummary } from '../../../contract/content-types.js';
import type { SiteData } from '../../../contract/site-data.js';
import { topicSlug } from '../../../contract/topics.js';
import { collectTopics, relatedArticles } from './topics.js';

const summary = (
  id: number,
  category: 'Health' | 'Wealth',
  tags: string[],
  publishedAt: string,
): ArticleSummary => ({
  id,
  slug: `article-${id}`,
  category,
  title: `Article ${id}`,
  summary: 'A summary.',
  publishedAt,
  readingMinutes: 3,
  heroImage: '/art/x.svg',
  tags,
});

describe('topics and related reading', () => {
  it('makes an address of a tag: lower case, hyphens, no accents', () => {
    expect(topicSlug('Student debt')).toBe('student-debt');
    expect(topicSlug('  Rent & Housing!  ')).toBe('rent-housing');
    expect(topicSlug('Café Économie')).toBe('cafe-economie');
    expect(topicSlug('!!!')).toBe('');
  });

  it('gathers each tag once, named as the newest post writes it, with its posts newest first', () => {
    const articles = [
      summary(3, 'Wealth', ['Student Debt', 'Budgeting'], '2024-05-01'),
      summary(2, 'Health', ['budgeting'], '2024-04-01'),
      summary(1, 'Wealth', ['student debt'], '2024-03-01'),
    ];
    const topics = collectTopics(articles, []);
    expect([...topics.keys()]).toEqual(['budgeting', 'student-debt']);
    expect(topics.get('budgeting')).toMatchObject({
      name: 'Budgeting',
      count: 2,
      lastmod: '2024-05-01',
    });
    expect(topics.get('student-debt')?.articles.map((item) => item.id)).toEqual([3, 1]);
  });

  it('offers the articles sharing most topics first, then the section, never the article itself', () => {
    const article = summary(1, 'Wealth', ['Housing', 'Budgeting'], '2024-01-01');
    const articles = [
      summary(9, 'Wealth', [], '2024-09-01'), // same section only: 1
      summary(8, 'Health', ['Housing'], '2024-08-01'), // one topic: 2
      summary(7, 'Health', ['Housing', 'Budgeting'], '2024-07-01'), // two topics: 4
      summary(6, 'Health', [], '2024-06-01'), // nothing in common: never
      summary(5, 'Wealth', ['Budgeting'], '2024-05-01'), // a topic and the section: 3
      article,
    ];
    expect(relatedArticles(article, articles).map((item) => item.id)).toEqual([7, 5, 8]);
    // With nothing shared, the newest of the section, never an unrelated one.
    const alone = summary(2, 'Health', [], '2024-01-01');
    expect(relatedArticles(alone, [...articles, alone]).map((item) => item.id)).toEqual([8, 7, 6]);
  });
});

const article = (slug: string, category: string, tags: string[], publishedAt: string) =>
  contentFile(
    {
      slug,
      category,
      title: `About ${slug}`,
      summary: `The ${slug} summary.`,
      publishedAt,
      readingMinutes: 3,
      tags,
    },
    'A body.',
  );

const TOPIC_CONTENT = {
  'articles/renting.md': article('renting', 'Wealth', ['Housing', 'Budgeting'], '2024-04-01'),
  'articles/buying.md': article('buying', 'Wealth', ['Housing'], '2024-05-01'),
  'articles/sleep.md': article('sleep', 'Health', ['Habits'], '2024-06-01'),
  'campaigns/tenants.md': contentFile({
    slug: 'tenants',
    category: 'Direct Action',
    title: 'Tenant Fund',
    summary: 'Help renters.',
    publishedAt: '2024-03-01',
    externalLink: 'https://www.lawhelp.org/',
    tags: ['housing'],
  }),
};

describe('topic pages, feeds and the sitemap', () => {
  let testApp: Site;
  let folder: Awaited<ReturnType<typeof writeContentFolder>>;
  const SITE = 'https://members.example.org';

  beforeAll(async () => {
    folder = await writeContentFolder(TOPIC_CONTENT);
    testApp = await withSite({ env: { SITE_URL: SITE }, seedContentDir: folder.dir, built: true });
  });
  afterAll(async () => {
    await testApp?.close();
    await folder?.remove();
  });

  const get = (url: string) => testApp.app.inject({ method: 'GET', url });
  /** A screen's data, without the navigation every answer carries. */
  const siteData = async (path: string): Promise<SiteData> => {
    const data = (await get(`/api/site-data?path=${encodeURIComponent(path)}`)).json<SiteData>();
    // What every answer carries, whatever the screen.
    delete data.navigation;
    delete data.settings;
    return data;
  };

  it('gives a topic page its articles and campaigns, newest first, and the list every topic', async () => {
    const data = await siteData('/topics/housing');
    expect(data.topics).toEqual([
      {
        slug: 'housing',
        name: 'Housing',
        description: 'Articles and campaigns about housing, newest first.',
        count: 3,
      },
    ]);
    expect(data.articles?.map((item) => item.slug)).toEqual(['buying', 'renting']);
    expect(data.campaigns?.map((item) => item.slug)).toEqual(['tenants']);
    expect((await siteData('/topics')).topics?.map((topic) => [topic.slug, topic.count])).toEqual([
      ['budgeting', 1],
      ['habits', 1],
      ['housing', 3],
    ]);
    expect(await siteData('/topics/unknown')).toEqual({ topics: [] });
  });

  it('puts the related articles under an article: shared topics first, never itself', async () => {
    const data = await siteData('/wealth/renting');
    expect(data.articles?.map((item) => item.slug)).toEqual(['renting', 'buying']);
  });

  it('serves each topic’s feed, and lists every topic page in the sitemap with its date', async () => {
    const feed = await get('/topics/housing/rss.xml');
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(XMLValidator.validate(feed.body)).toBe(true);
    const channel = (
      new XMLParser({ isArray: (name) => name === 'item' }).parse(feed.body) as {
        rss: { channel: { title: string; link: string; item: { link: string }[] } };
      }
    ).rss.channel;
    expect(channel.title).toBe('Cohort: Housing');
    expect(channel.link).toBe(`${SITE}/topics/housing`);
    expect(channel.item.map((item) => item.link)).toEqual([
      `${SITE}/wealth/buying`,
      `${SITE}/wealth/renting`,
      `${SITE}/direct-action#tenants`,
    ]);
    expect((await get('/topics/unknown/rss.xml')).statusCode).toBe(404);

    const sitemap = (await get('/sitemap.xml')).body;
    expect(sitemap).toContain(
      `<loc>${SITE}/topics/housing</loc>\n    <lastmod>2024-05-01</lastmod>`,
    );
    expect(sitemap).toContain(`<loc>${SITE}/topics</loc>`);
    expect(sitemap).toContain(`<loc>${SITE}/search</loc>`);
  });

  it('draws a topic page with its posts and its feed’s link, and 404 for an unknown one', async () => {
    const page = await get('/topics/housing');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Housing · Cohort</title>');
    expect(page.body).toContain(
      `<link rel="alternate" type="application/rss+xml" title="Cohort: Housing" href="${SITE}/topics/housing/rss.xml"`,
    );
    for (const title of ['About buying', 'About renting', 'Tenant Fund']) {
      expect(page.body).toContain(title);
    }
    expect(page.body).not.toContain('About sleep');
    expect((await get('/topics/unknown')).statusCode).toBe(404);

    // The article names its topics, each a link to its page.
    const articlePage = await get('/wealth/renting');
    expect(articlePage.body).toContain('<a href="/topics/housing">Housing</a>');
    expect(articlePage.body).toContain('<a href="/topics/budgeting">Budgeting</a>');
    expect(articlePage.body).toContain('Related reading');
  });
});

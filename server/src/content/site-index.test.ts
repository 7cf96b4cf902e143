import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECTION_FEED_PATHS, type SiteIndex } from '../../../contract/site-index.js';
import { contentPages } from '../../../contract/site-paths.js';
import { withSite, type Site } from '#test/with-site';
import type { ContentFile, LoadedContent } from './content-files.js';
import { loadContent } from './load-content.js';
import { indexSite, readCssColour } from './site-index.js';

const contentDir = fileURLToPath(new URL('../../../content', import.meta.url));
const css = readFileSync(new URL('../../../client/src/styles.css', import.meta.url), 'utf8');
const SITE_URL = 'https://cohort.example';

/** The index of the shipped content folder, as the site indexes its posts. */
function createSiteIndex(folder: LoadedContent, stylesheet: string) {
  const data = <T>(files: readonly ContentFile<T>[]) => files.map((file) => file.data);
  return indexSite(
    {
      articles: data(folder.articles),
      campaigns: data(folder.campaigns),
      boycotts: data(folder.boycotts),
      pages: folder.pages.map(({ name, data: page }) => ({
        slug: name,
        updatedAt: page.updatedAt,
      })),
      resourceGroups: data(folder.resourceGroups),
      perks: data(folder.perks),
      newsletters: data(folder.newsletters),
    },
    stylesheet,
  );
}

let content: LoadedContent;
let index: SiteIndex;

beforeAll(async () => {
  content = await loadContent(contentDir);
  index = createSiteIndex(content, css);
});

describe('the site index of the real content', () => {
  it('lists every article with its section page, newest first', () => {
    expect(index.articles).toHaveLength(content.articles.length);
    const dates = index.articles.map((article) => article.publishedAt);
    expect(dates).toEqual([...dates].sort().reverse());
    for (const { data } of content.articles) {
      expect(index.articles).toContainEqual({
        slug: data.slug,
        section: data.category,
        path: `/${data.category.toLowerCase()}/${data.slug}`,
        title: data.title,
        summary: data.summary,
        publishedAt: data.publishedAt,
      });
    }
  });

  it('lists the home page, the section lists, every article and the static pages once each', () => {
    const pagePaths = index.pages.map((page) => page.path);
    expect(new Set(pagePaths).size).toBe(pagePaths.length);
    expect(pagePaths).toEqual(
      expect.arrayContaining([
        '/',
        '/health',
        '/wealth',
        '/direct-action',
        '/collective',
        '/empowerment',
        '/early-access',
        '/perks',
        '/newsletter',
        ...contentPages.map((page) => page.path),
        ...index.articles.map((article) => article.path),
        // Every issue's page, members-only ones too (they show their summary).
        ...content.newsletters.map(({ data }) => `/newsletter/${data.slug}`),
      ]),
    );
    for (const hidden of [
      '/account',
      '/login',
      '/register',
      '/reset-password',
      '/newsletter/confirm',
      '/newsletter/unsubscribe',
    ]) {
      expect(pagePaths).not.toContain(hidden);
    }
  });

  it('dates each page by its newest content, the copy it shows included', () => {
    const lastmod = (path: string) => index.pages.find((page) => page.path === path)?.lastmod;
    const newest = (dates: string[]) => [...dates].sort().at(-1);
    const pageDate = (name: string) =>
      content.pages.find((page) => page.name === name)?.data.updatedAt ?? '';
    const health = content.articles.filter(({ data }) => data.category === 'Health');
    const boycottDates = content.boycotts.flatMap(({ data }) => data.updates.map((u) => u.date));
    const campaignDates = content.campaigns.map(({ data }) => data.publishedAt);

    expect(lastmod('/health')).toBe(newest(health.map(({ data }) => data.publishedAt)));
    expect(lastmod('/collective')).toBe(newest([...boycottDates, pageDate('collective')]));
    expect(lastmod('/direct-action')).toBe(newest(campaignDates));
    expect(lastmod('/')).toBe(
      newest([
        ...index.articles.map((a) => a.publishedAt),
        ...boycottDates,
        ...campaignDates,
        pageDate('home'),
      ]),
    );
    expect(lastmod('/newsletter')).toBe(
      newest(content.newsletters.map(({ data }) => data.publishedAt)),
    );
    // Pages of copy and resources are dated by their files' `updatedAt`.
    expect(lastmod('/early-access')).toBe(pageDate('why'));
    expect(lastmod('/empowerment')).toBe(
      newest([
        pageDate('empowerment'),
        ...content.resourceGroups.map(({ data }) => data.updatedAt),
      ]),
    );
    expect(lastmod('/perks')).toBe(newest(content.perks.map(({ data }) => data.updatedAt)));
    expect(lastmod('/privacy')).toBe(pageDate('privacy'));
  });

  it('gives every address in the sitemap a lastmod', () => {
    expect(index.pages.filter((page) => !page.lastmod)).toEqual([]);
  });

  it('dates an empty list by the newest date of the whole site', () => {
    const empty = createSiteIndex({ ...content, newsletters: [], perks: [] }, css);
    const lastmod = (path: string) => empty.pages.find((page) => page.path === path)?.lastmod;
    const newestOfAll = empty.pages
      .map((page) => page.lastmod ?? '')
      .sort()
      .at(-1);
    expect(lastmod('/newsletter')).toBe(newestOfAll);
    expect(lastmod('/perks')).toBe(newestOfAll);
  });

  it('puts each section’s feed beside its list, as the contract names it', () => {
    expect(index.sections).toEqual([
      { name: 'Health', path: '/health', feedPath: SECTION_FEED_PATHS.Health },
      { name: 'Wealth', path: '/wealth', feedPath: SECTION_FEED_PATHS.Wealth },
    ]);
  });

  it('takes the manifest’s colours from the stylesheet, and fails the build when they are gone', () => {
    expect(index.manifest.themeColor).toBe(readCssColour(css, '--ink'));
    expect(index.manifest.backgroundColor).toBe(readCssColour(css, '--paper'));
    expect(index.manifest.themeColor).toMatch(/^#[0-9a-f]{6}$/);
    // A colour given for both schemes: the light one, the site's as it first shows.
    expect(readCssColour(':root { --ink: light-dark(#141414, #ecebe6); }', '--ink')).toBe(
      '#141414',
    );
    expect(() => createSiteIndex(content, ':root { --paper: #fff; }')).toThrow(/--ink/);
  });
});

describe('the real content through the server', () => {
  let testApp: Site;
  const parser = new XMLParser({ isArray: (name) => name === 'item' || name === 'url' });

  beforeAll(async () => {
    testApp = await withSite({ env: { SITE_URL }, seedContentDir: contentDir });
  });
  afterAll(async () => {
    await testApp?.close();
  });

  async function readXml(url: string) {
    const response = await testApp.app.inject({ method: 'GET', url });
    expect(response.statusCode, url).toBe(200);
    return parser.parse(response.body) as {
      rss: { channel: { item: { link: string }[] } };
      urlset: { url: { loc: string }[] };
    };
  }

  it('lists every article in /rss.xml and every article of a section in its feed', async () => {
    const all = (await readXml('/rss.xml')).rss.channel.item.map((item) => item.link);
    expect(all).toEqual(index.articles.map((article) => `${SITE_URL}${article.path}`));

    for (const [section, feedPath] of Object.entries(SECTION_FEED_PATHS)) {
      const links = (await readXml(feedPath)).rss.channel.item.map((item) => item.link);
      const expected = content.articles.filter(({ data }) => data.category === section);
      expect(links).toHaveLength(expected.length);
    }
  });

  it('serves a sitemap whose every address has a lastmod, /empowerment and /early-access included', async () => {
    const urls = (await readXml('/sitemap.xml')).urlset.url as { loc: string; lastmod?: string }[];
    expect(urls.filter((url) => !/^\d{4}-\d{2}-\d{2}$/.test(url.lastmod ?? ''))).toEqual([]);
    for (const path of ['/empowerment', '/early-access', '/perks', '/privacy']) {
      expect(urls.map((url) => url.loc)).toContain(`${SITE_URL}${path}`);
    }
  });

  it('lists every article in the sitemap', async () => {
    const locs = (await readXml('/sitemap.xml')).urlset.url.map((url) => url.loc);
    for (const article of index.articles) expect(locs).toContain(`${SITE_URL}${article.path}`);
  });
});

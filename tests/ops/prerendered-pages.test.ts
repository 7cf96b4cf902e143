import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSite, type Site } from '#test/with-site';
import { PRERENDER_SITE_URL } from '../../contract/prerendered.js';
import type { NewsletterIssue } from '../../contract/newsletters.js';
import type { SiteIndex } from '../../contract/site-index.js';
import { clientDistDir, contentDir } from '../../server/src/paths.js';

/**
 * The pages the server draws from the shipped content (server/src/site/), served by the real app
 * as a crawler or a link preview fetches them: without JavaScript.
 */

const SITE = 'https://members.example.org';
const builtApp = { built: true, seedContentDir: contentDir };

/** The width and height a PNG's header declares. */
function pngSize(png: Buffer): { width: number; height: number } | null {
  const signature = '89504e470d0a1a0a';
  if (png.subarray(0, 8).toString('hex') !== signature) return null;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const metaContent = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1] ?? null;

/** The text a reader sees in the page's body, tags and scripts aside. */
const visibleText = (html: string) =>
  (/<div id="root">([\s\S]*)<\/div>/.exec(html)?.[1] ?? '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

describe('every page as HTML, before JavaScript', () => {
  let t: Site;
  let routes: { pages: { path: string }[] };
  let index: SiteIndex;

  beforeAll(async () => {
    t = await withSite({ ...builtApp, env: { SITE_URL: SITE } });
    index = t.app.siteContent.current().index;
    routes = { pages: index.pages };
  });
  afterAll(() => t?.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('draws every public page of the sitemap, every shipped article included', async () => {
    const articles = readdirSync(join(contentDir, 'articles'));
    expect(index.articles).toHaveLength(articles.length);
    for (const { path } of index.pages) expect((await get(path)).statusCode, path).toBe(200);
  });

  it('answers each page with its own title, text, canonical link, Open Graph and JSON-LD', async () => {
    for (const { path } of routes.pages) {
      const response = await get(path);
      expect(response.statusCode, path).toBe(200);
      const html = response.body;
      expect(html, path).not.toContain(PRERENDER_SITE_URL);
      const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
      expect(title, path).toMatch(/\S/);
      expect(html).toContain(`<link rel="canonical" href="${SITE}${path}"`);
      expect(metaContent(html, 'og:url'), path).toBe(`${SITE}${path}`);
      expect(metaContent(html, 'og:title'), path).toBe(title.replace(/ · Cohort$/, ''));
      expect(metaContent(html, 'og:image'), path).toMatch(
        new RegExp(`^${SITE}/og/.+\\.png(\\?v=[\\w-]+)?$`),
      );
      expect(metaContent(html, 'twitter:card')).toBe('summary_large_image');
      expect(html, path).toMatch(/<h1[\s>]/);
      expect(visibleText(html).length, `${path}: text`).toBeGreaterThan(200);
      for (const [, json] of html.matchAll(
        /<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/g,
      )) {
        expect(() => JSON.parse(json ?? ''), path).not.toThrow();
      }
    }
  });

  it('holds each article’s full text, its date and its Article data', async () => {
    for (const article of index.articles) {
      const html = (await get(article.path)).body;
      expect(html).toContain(`<title>${escapeText(article.title)} · Cohort</title>`);
      expect(visibleText(html)).toContain(article.summary);
      // The body: articles run 450–900 words (content/FORMAT.md).
      expect(visibleText(html).split(' ').length, article.path).toBeGreaterThan(450);
      expect(metaContent(html, 'article:published_time')).toBe(article.publishedAt);
      const data = [
        ...html.matchAll(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/g),
      ].map(([, json]) => JSON.parse(json ?? '{}') as { '@type': string; headline?: string });
      expect(data.find((item) => item['@type'] === 'Article')?.headline).toBe(article.title);
    }
  });

  it('links each section’s own feed from its list page', async () => {
    for (const section of index.sections) {
      const html = (await get(section.path)).body;
      expect(html).toContain(
        `<link rel="alternate" type="application/rss+xml" title="Cohort: ${section.name}" href="${SITE}${section.feedPath}"`,
      );
    }
  });

  it('draws every preview image as a 1200×630 PNG', async () => {
    const images = new Set<string>();
    for (const { path } of routes.pages) {
      images.add(metaContent((await get(path)).body, 'og:image')?.slice(SITE.length) ?? '');
    }
    expect(images.size).toBeGreaterThan(index.articles.length);
    for (const image of images) {
      const response = await get(image);
      expect(response.statusCode, image).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      expect(pngSize(response.rawPayload), image).toEqual({ width: 1200, height: 630 });
    }
    // Every page's preview drawn as a PNG: about 15 s on a quiet two-core machine.
  }, 60_000);

  it('answers unknown addresses and slugs with the 404 page and a 404', async () => {
    for (const url of [
      '/pk',
      '/no-such-page',
      '/health/no-such-article',
      '/wealth/sleep-debt-reset',
      '/newsletter/no-such-issue',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body).toContain('Page not found');
      expect(response.body).not.toContain('rel="canonical"');
    }
  });
});

describe('the newsletter archive as HTML', () => {
  let t: Site;
  let issues: NewsletterIssue[];

  beforeAll(async () => {
    t = await withSite(builtApp);
    issues = t.app.siteContent.current().newsletters;
  });
  afterAll(() => t?.close());

  const page = async (url: string) => visibleText((await t.app.inject({ url })).body);

  it('lists every issue, newest first, with its summary and the sign-up', async () => {
    const text = await page('/newsletter');
    const positions = issues.map((issue) => text.indexOf(issue.title));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    for (const issue of issues) expect(text).toContain(issue.summary);
    expect(text).toContain('Subscribe');
  });

  it('holds a public issue’s text, and of a members-only issue the summary and how to join, never its body', async () => {
    const publicIssue = issues.find((issue) => !issue.membersOnly);
    const membersIssue = issues.find((issue) => issue.membersOnly);
    if (!publicIssue || !membersIssue) throw new Error('content/newsletters needs one of each');

    const publicText = await page(`/newsletter/${publicIssue.slug}`);
    for (const line of bodyLines(publicIssue)) expect(publicText).toContain(line);
    for (const article of publicIssue.articles) expect(publicText).toContain(article.title);

    const membersText = await page(`/newsletter/${membersIssue.slug}`);
    expect(membersText).toContain(membersIssue.summary);
    expect(membersText).toContain('This issue is for members');
    expect(membersText).toContain('Join');
    const secret = bodyLines(membersIssue);
    expect(secret.length).toBeGreaterThan(0);
    for (const line of secret) expect(membersText).not.toContain(line);

    // Nor in anything the site serves a visitor: every page of the sitemap and the data its
    // screen fetches, the feeds and site files, and every built file under dist/client.
    const index = t.app.siteContent.current().index;
    const urls = [
      ...index.pages.flatMap(({ path }) => [
        path,
        `/api/site-data?path=${encodeURIComponent(path)}`,
      ]),
      `/api/site-data?path=${encodeURIComponent(`/newsletter/${membersIssue.slug}`)}`,
      '/rss.xml',
      '/health/rss.xml',
      '/wealth/rss.xml',
      '/newsletter/rss.xml',
      '/sitemap.xml',
      '/api/newsletter/issues',
    ];
    for (const url of urls) {
      const { body } = await t.app.inject({ url });
      for (const line of secret) expect(body.includes(line), `${url}: ${line}`).toBe(false);
    }
    const served = readdirSync(clientDistDir, { recursive: true, encoding: 'utf8' })
      .map((file) => join(clientDistDir, file))
      .filter((file) => /\.(js|html|json|map|txt|xml|css)$/.test(file));
    expect(served.length).toBeGreaterThan(10);
    for (const file of served) {
      const text = readFileSync(file, 'utf8');
      for (const line of secret) expect(text.includes(line), `${file}: ${line}`).toBe(false);
    }
  });
});

/** The longer runs of text in an issue's body: what would give it away if it were in a file. */
function bodyLines(issue: NewsletterIssue): string[] {
  const lines: string[] = [];
  const visit = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    const { type, value, children } = node as {
      type?: string;
      value?: unknown;
      children?: unknown;
    };
    if (type === 'text' && typeof value === 'string' && value.trim().length >= 20) {
      lines.push(value.trim().replace(/\s+/g, ' '));
    }
    if (Array.isArray(children)) children.forEach(visit);
  };
  visit(issue.body);
  return lines;
}

/** Titles and summaries as the HTML escapes them. */
function escapeText(text: string) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

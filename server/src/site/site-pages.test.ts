import { performance } from 'node:perf_hooks';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentFile, writeContentFolder } from '#test/content-folder';
import { withSite, type Site } from '#test/with-site';
import { SITE_DATA_ELEMENT_ID } from '../../../contract/site-data.js';
import { pageCopy } from './site-pages.js';

// Text that a replacement string would expand: `$&` is the matched text, `` $` `` what comes before
// it in the page, `$'` what comes after it, `$1` a group. Pages must carry it exactly as written.
const TITLE = "Saving $` and $' and $& and $1 a week";
const SUMMARY = "Costs $` less, $' more, $& in all and $1 each: kept as written.";
const SITE_NAME = "Cents $' Sense";

/** Every string anywhere in a parsed JSON value. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

/** HTML text as the browser shows it. */
function textOf(html = ''): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return html.replace(
    /&(?:#(x?)([0-9a-f]+)|([a-z]+));/gi,
    (entity: string, hex: string, code: string | undefined, name: string) =>
      code ? String.fromCodePoint(parseInt(code, hex ? 16 : 10)) : (named[name] ?? entity),
  );
}

/** The page's data for the browser, parsed as the browser parses it to hydrate. */
function siteDataOf(html: string): unknown {
  const scripts = [
    ...html.matchAll(
      new RegExp(
        `<script type="application/json" id="${SITE_DATA_ELEMENT_ID}">([\\s\\S]*?)</script>`,
        'g',
      ),
    ),
  ];
  expect(scripts).toHaveLength(1);
  return JSON.parse(scripts[0]?.[1] ?? '');
}

describe('text spliced into a page', () => {
  let testApp: Site;
  let folder: Awaited<ReturnType<typeof writeContentFolder>>;

  beforeAll(async () => {
    folder = await writeContentFolder({
      'articles/saving-weekly.md': contentFile(
        {
          slug: 'saving-weekly',
          category: 'Wealth',
          title: TITLE,
          summary: SUMMARY,
          publishedAt: '2024-03-01',
          readingMinutes: 3,
        },
        'Put a little aside every week, before the rent is due.',
      ),
    });
    testApp = await withSite({ seedContentDir: folder.dir, built: true, env: { SITE_NAME } });
    for (let attempt = 0; ; attempt += 1) {
      const found = await testApp.app.inject({ url: '/api/search?q=saving' });
      if (found.json<{ results: unknown[] }>().results.length > 0) break;
      if (attempt === 100) throw new Error('The search never found the article');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  afterAll(async () => {
    await testApp?.close();
    await folder?.remove();
  });

  it("keeps a title and summary holding $`, $', $& and $1 exactly, in data that parses, on every page showing them", async () => {
    // A search result shows an excerpt of the body, not the summary.
    for (const [url, shown] of [
      ['/', [TITLE, SUMMARY]],
      ['/wealth', [TITLE, SUMMARY]],
      ['/wealth/saving-weekly', [TITLE, SUMMARY]],
      ['/search?q=saving', [TITLE]],
    ] as const) {
      const response = await testApp.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      const html = response.body;
      const strings = stringsIn(siteDataOf(html));
      for (const text of shown) expect(strings, url).toContain(text);
      // The head's structured data parses too, and the page is one document, not copies of it.
      for (const [, json] of html.matchAll(
        /<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g,
      )) {
        expect(() => JSON.parse(json ?? ''), url).not.toThrow();
      }
      expect(html.match(/<html\b/g), url).toHaveLength(1);
      expect(html.match(/<\/html>/g), url).toHaveLength(1);
    }
    // What the reader sees: the title in the tab and as the heading, as written.
    const post = (await testApp.app.inject({ url: '/wealth/saving-weekly' })).body;
    expect(textOf(/<title>([^<]*)<\/title>/.exec(post)?.[1])).toBe(`${TITLE} · ${SITE_NAME}`);
    expect(textOf(/<h1[^>]*>([^<]*)<\/h1>/.exec(post)?.[1])).toBe(TITLE);
  });

  it('answers a search for a$`$`… with a page as small as any search’s, while other requests go on', async () => {
    const headers = { 'accept-encoding': 'gzip, deflate, br' };
    const html = async (url: string) => {
      const response = await testApp.app.inject({ url, headers });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-encoding']).toBe('br');
      return brotliDecompressSync(response.rawPayload).toString();
    };
    const ordinary = await html('/search?q=a');

    // The address a browser sends for the query a$`$`$`$`$`$`$`$`$`$`.
    const hostile = `/search?q=a${'$%60'.repeat(10)}`;
    let searching = true;
    const started = performance.now();
    const search = html(hostile).finally(() => {
      searching = false;
    });
    const waits: number[] = [];
    while (searching) {
      const asked = performance.now();
      const health = await testApp.app.inject({ url: '/healthz' });
      expect(health.statusCode).toBe(200);
      waits.push(performance.now() - asked);
    }
    const page = await search;
    const took = performance.now() - started;

    expect(page.length).toBeLessThan(ordinary.length + 2_000);
    expect(stringsIn(siteDataOf(page))).toContain(`a${'$`'.repeat(10)}`);
    expect(took).toBeLessThan(3_000);
    expect(Math.max(...waits)).toBeLessThan(1_000);
  });
});

describe('a page as it is sent', () => {
  it('is compressed off the event loop, which goes on turning meanwhile', async () => {
    const text = Array.from({ length: 50_000 }, (_, i) => `<p>Paragraph ${i * 7919}</p>`).join('');
    const copy = pageCopy(text);
    let turns = 0;
    let compressing = true;
    const turn = () => {
      if (!compressing) return;
      turns += 1;
      setImmediate(turn);
    };
    setImmediate(turn);
    const [gzip, brotli] = await Promise.all([copy.compressed('gzip'), copy.compressed('br')]);
    compressing = false;
    expect(turns).toBeGreaterThan(0);
    expect(gunzipSync(gzip).toString()).toBe(text);
    expect(brotliDecompressSync(brotli).toString()).toBe(text);
    // Once: the next reader gets the same bytes without compressing again.
    expect(await copy.compressed('gzip')).toBe(gzip);
  });
});

import { describe, expect, it } from 'vitest';
import { useSite } from '#test/with-site';
import { PRERENDER_SITE_NAME, PRERENDER_SITE_NAME_IN_JSON } from '../../contract/site-name.js';
import { contentDir } from '../../server/src/paths.js';

/**
 * SITE_NAME names the site in every prerendered page (titles, Open Graph, JSON-LD, the navbar, the
 * footer, the home hero), filled in at start as SITE_URL is: one build serves any site.
 */

// A name an operator might write, with every character HTML and JSON treat specially.
const NAME = `Tidewater "Press" & <Sons>' $& Co`;
const IN_HTML = 'Tidewater &quot;Press&quot; &amp; &lt;Sons&gt;&#39; $&amp; Co';

const meta = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1] ?? null;
const jsonLd = (html: string): { '@type': string; name?: string; publisher?: { name: string } }[] =>
  [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([^<]*)<\/script>/g)].map((match) =>
    JSON.parse(match[1] ?? 'null'),
  );
const navbarBrand = (html: string) =>
  /<a [^>]*class="navbar__brand"[^>]*>(?:<!--[^>]*-->)*<span class="navbar__name">([^<]*)<\/span><\/a>/.exec(
    html,
  )?.[1] ?? null;
/** HTML text as it reads: React writes ' as &#x27;, the server's fill as &#39;; both are right. */
const textOf = (html: string | null) =>
  html
    ?.replace(/&#(?:39|x27);/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&') ?? null;
const footerBrand = (html: string) =>
  /<p class="footer__brand">([^<]*)<\/p>/.exec(html)?.[1] ?? null;

describe('a site named by SITE_NAME', () => {
  const t = useSite({
    built: true,
    seedContentDir: contentDir,
    env: { SITE_URL: 'https://tidewater.example', SITE_NAME: NAME },
  });

  const html = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode, url).toBe(url === '/no-such-page' ? 404 : 200);
    return response.body;
  };

  it('says its name in the home page’s title, Open Graph, JSON-LD, navbar, hero and footer, never "Cohort"', async () => {
    const home = await html('/');
    expect(home).toContain(`<title>${IN_HTML} · Your Generation, Better Informed</title>`);
    expect(meta(home, 'og:site_name')).toBe(IN_HTML);
    expect(meta(home, 'application-name')).toBe(IN_HTML);
    expect(textOf(navbarBrand(home))).toBe(NAME);
    expect(textOf(footerBrand(home))).toBe(NAME);
    expect(textOf(/<p class="eyebrow">([^<]*)<\/p>/.exec(home)?.[1] ?? null)).toBe(NAME);
    const data = jsonLd(home);
    expect(data.find((item) => item['@type'] === 'WebSite')?.name).toBe(NAME);
    expect(data.find((item) => item['@type'] === 'Organization')?.name).toBe(NAME);
    expect(home).not.toContain('Cohort');
    expect(home).not.toContain(PRERENDER_SITE_NAME);
  });

  it('follows every page’s own title with the name, and puts it in articles’ JSON-LD', async () => {
    for (const path of ['/health', '/early-access', '/newsletter', '/privacy', '/no-such-page']) {
      const page = await html(path);
      expect(page, path).toMatch(
        new RegExp(`<title>[^<]+ · ${IN_HTML.replace(/[$&]/g, '\\$&')}</title>`),
      );
      expect(textOf(navbarBrand(page)), path).toBe(NAME);
      expect(page, path).not.toContain(PRERENDER_SITE_NAME);
      expect(page, path).not.toContain(PRERENDER_SITE_NAME_IN_JSON);
    }
    const article = await html('/health/sleep-debt-reset');
    expect(meta(article, 'og:site_name')).toBe(IN_HTML);
    expect(jsonLd(article).find((item) => item['@type'] === 'Article')?.publisher?.name).toBe(NAME);
  });

  it('names itself in the shell of the pages drawn in the browser, for the browser to read', async () => {
    const account = await html('/account');
    expect(meta(account, 'application-name')).toBe(IN_HTML);
    expect(account).toContain(`<title>${IN_HTML}</title>`);
  });
});

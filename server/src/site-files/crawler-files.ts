import { DESK_PATH } from '../../../contract/constants.js';
import { SITE_FILE_PATHS, type SiteIndex } from '../../../contract/site-index.js';
import { textElement, XML_DECLARATION } from './xml.js';

/** The sitemap protocol's `<urlset>`: every public page at the deployment's address. */
export function renderSitemap(index: SiteIndex, siteUrl: string): string {
  const urls = index.pages.map(({ path, lastmod }) =>
    [
      '  <url>',
      `    ${textElement('loc', `${siteUrl}${path}`)}`,
      ...(lastmod ? [`    ${textElement('lastmod', lastmod)}`] : []),
      '  </url>',
    ].join('\n'),
  );
  return [
    XML_DECLARATION,
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/**
 * Everything may be crawled but the staff's desk (which answers crawlers 404 anyway); the sitemap
 * is named with its absolute address, as it must be.
 */
export function renderRobotsTxt(siteUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    `Disallow: ${DESK_PATH}`,
    '',
    `Sitemap: ${siteUrl}${SITE_FILE_PATHS.sitemap}`,
    '',
  ].join('\n');
}

/** What the web manifest says: the publication's settings, the site's background and icons. */
export interface WebManifest {
  name: string;
  description: string;
  lang: string;
  themeColor: string;
  backgroundColor: string;
  icons: readonly { src: string; sizes: string; type: string }[];
}

/** The web manifest (W3C Web App Manifest): the publication's name, words, colour and icons. */
export function renderWebManifest(site: WebManifest): string {
  const manifest = {
    name: site.name,
    short_name: site.name,
    ...(site.description && { description: site.description }),
    lang: site.lang,
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: site.themeColor,
    background_color: site.backgroundColor,
    icons: site.icons,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

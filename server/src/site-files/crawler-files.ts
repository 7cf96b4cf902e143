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

/** The web manifest (W3C Web App Manifest): the deployment's name, the build's colours and icons. */
export function renderWebManifest(index: SiteIndex, siteName: string): string {
  const manifest = {
    name: siteName,
    short_name: siteName,
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: index.manifest.themeColor,
    background_color: index.manifest.backgroundColor,
    icons: index.manifest.icons,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

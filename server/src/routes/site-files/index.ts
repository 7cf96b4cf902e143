import type { FastifyInstance } from 'fastify';
import {
  SECTION_FEED_PATHS,
  SITE_FILE_PATHS,
  type SiteIndex,
} from '../../../../contract/site-index.js';
import { NEWSLETTER_PATHS } from '../../../../contract/newsletters.js';
import { HttpError } from '../../http/errors.js';
import {
  renderRobotsTxt,
  renderSitemap,
  renderWebManifest,
} from '../../site-files/crawler-files.js';
import { renderRssFeed } from '../../site-files/rss-feed.js';

const CACHE_CONTROL = 'public, max-age=3600';

/**
 * The sitemap, the feeds, robots.txt and the web manifest, with absolute addresses from this
 * deployment's SITE_URL (PRODUCT.md decision 10). Each is drawn once, at start.
 */
export default async function siteFileRoutes(
  app: FastifyInstance,
  options: { siteUrl: string; siteName: string; siteIndex: SiteIndex | null },
) {
  const { siteUrl, siteName, siteIndex } = options;

  function send(path: string, type: string, body: string | null) {
    app.get(path, async (_request, reply) => {
      if (body === null) {
        throw new HttpError(503, 'not_built', 'The site is not built: run `npm run build`.');
      }
      return reply.header('cache-control', CACHE_CONTROL).type(type).send(body);
    });
  }
  /** A file drawn from the site index: 503 until the site is built. */
  const serve = (path: string, type: string, render: (index: SiteIndex) => string) =>
    send(path, type, siteIndex && render(siteIndex));

  send(SITE_FILE_PATHS.robots, 'text/plain; charset=utf-8', renderRobotsTxt(siteUrl));
  serve(SITE_FILE_PATHS.sitemap, 'application/xml; charset=utf-8', (index) =>
    renderSitemap(index, siteUrl),
  );
  serve(SITE_FILE_PATHS.manifest, 'application/manifest+json; charset=utf-8', (index) =>
    renderWebManifest(index, siteName),
  );

  const rss = 'application/rss+xml; charset=utf-8';
  serve(SITE_FILE_PATHS.feed, rss, (index) =>
    renderRssFeed(
      {
        title: siteName,
        description: `Health and Wealth articles from ${siteName}, newest first.`,
        link: `${siteUrl}/`,
        self: `${siteUrl}${SITE_FILE_PATHS.feed}`,
      },
      index.articles,
      siteUrl,
    ),
  );
  serve(SITE_FILE_PATHS.newsletterFeed, rss, (index) =>
    renderRssFeed(
      {
        title: `${siteName} newsletter`,
        description: `Every issue of the ${siteName} newsletter, newest first.`,
        link: `${siteUrl}${NEWSLETTER_PATHS.archive}`,
        self: `${siteUrl}${SITE_FILE_PATHS.newsletterFeed}`,
      },
      // A members-only issue's entry carries its summary, as its page does.
      index.newsletters.map(({ membersOnly, ...issue }) => ({
        ...issue,
        ...(membersOnly && { section: 'Members only' }),
      })),
      siteUrl,
    ),
  );
  for (const [name, feedPath] of Object.entries(SECTION_FEED_PATHS)) {
    serve(feedPath, rss, (index) => {
      const section = index.sections.find((item) => item.name === name);
      if (!section) throw new Error(`The site index has no section ${name}: rebuild`);
      return renderRssFeed(
        {
          title: `${siteName}: ${name}`,
          description: `${name} articles from ${siteName}, newest first.`,
          link: `${siteUrl}${section.path}`,
          self: `${siteUrl}${feedPath}`,
        },
        index.articles.filter((article) => article.section === name),
        siteUrl,
      );
    });
  }
}

import type { FastifyInstance } from 'fastify';
import { SITE_FILE_PATHS, type SiteIndex } from '../../../../contract/site-index.js';
import { NEWSLETTER_PATHS } from '../../../../contract/newsletters.js';
import {
  renderRobotsTxt,
  renderSitemap,
  renderWebManifest,
} from '../../site-files/crawler-files.js';
import { renderRssFeed } from '../../site-files/rss-feed.js';
import { readPodcasts } from '../../content/section-store.js';
import { enclosureSizes, renderPodcastFeed } from '../../podcasts/podcast-feed.js';
import type { SectionPodcast } from '../../../../contract/podcasts.js';
import { storeUnavailable } from '../uploads/index.js';
import podcastFeedRoutes from './podcast-feeds.js';
import { authorFeedPath, authorPath } from '../../../../contract/authors.js';
import { AUTHORS_PATH } from '../../../../contract/site-paths.js';
import { errorBody } from '../../http/errors.js';
import { topicFeedPath, topicPath } from '../../../../contract/topics.js';
import { paths } from '../../../../contract/site-paths.js';
import { postPath } from '../../../../contract/posts.js';
import { manifestIcons } from '../../site/site-look.js';
import { readImportedGuids, readKeptGuidPaths, siteGuid } from '../../site-files/feed-guids.js';

// A minute: a post published now reaches readers' feed readers and the search engines soon.
const CACHE_CONTROL = 'public, max-age=60';

/**
 * The sitemap, the feeds, robots.txt and the web manifest, with absolute addresses from this
 * deployment's SITE_URL (docs/decisions/0027-site-address.md) and the publication's name, words
 * and language from its settings. Each is drawn from the published content when first asked for,
 * and again after the content (or a setting) changes. A section that is a podcast has a podcast's
 * feed, and each member a private one of it (podcast-feeds.ts).
 */
export default async function siteFileRoutes(app: FastifyInstance, options: { siteUrl: string }) {
  const { siteUrl } = options;
  /** The publication's settings in the content drawn now (contract/site-settings.ts). */
  const settings = () => app.siteContent.current().settings;
  /** Each feed's channel says the publication's language. */
  const language = () => settings().language;
  let drawn = new Map<string, string>();
  /** The sections that are podcasts, read again once the content (a section with it) changes. */
  let podcasts: Promise<Map<number, SectionPodcast>> | null = null;
  /** The imported posts' GUIDs (site-files/feed-guids.ts), read again once the content changes. */
  let importedGuids: Promise<ReadonlyMap<number, string>> | null = null;
  /** The paths the posts in the feeds before ids were keep as their GUIDs (feed-guids.ts). */
  let keptPaths: Promise<ReadonlyMap<number, string | null>> | null = null;
  app.siteContent.onChange(() => {
    drawn = new Map();
    podcasts = null;
    importedGuids = null;
    keptPaths = null;
  });
  /**
   * Each item with what it is known by whatever its address: the articles' (and campaigns') ids,
   * by the article's slug where the item has no id of its own (the index's articles).
   */
  async function withGuids<T extends { slug?: string; id?: number; path: string }>(
    items: readonly T[],
  ): Promise<(T & { guid?: string })[]> {
    const reading = (importedGuids ??= readImportedGuids(app.db.pool));
    reading.catch(() => {
      if (importedGuids === reading) importedGuids = null;
    });
    const imported = await reading;
    const content = app.siteContent.current();
    const ids = new Map(content.articles.map((item) => [item.slug, item.id]));
    const keptReading = (keptPaths ??= readKeptGuidPaths(
      app.db.pool,
      new Map(
        content.index.articles.flatMap((article) => {
          const id = ids.get(article.slug);
          return id === undefined ? [] : [[id, article.path] as const];
        }),
      ),
    ));
    keptReading.catch(() => {
      if (keptPaths === keptReading) keptPaths = null;
    });
    const kept = await keptReading;
    return items.map((item) => {
      const id = item.id ?? (item.slug === undefined ? undefined : ids.get(item.slug));
      if (id === undefined) return item;
      const keptPath = kept.get(id);
      const guid =
        imported.get(id) ??
        (keptPath === undefined ? siteGuid(siteUrl, id) : siteUrl + (keptPath ?? item.path));
      return { ...item, guid };
    });
  }
  const currentPodcasts = () => {
    const reading = (podcasts ??= readPodcasts(app.db.pool));
    reading.catch(() => {
      if (podcasts === reading) podcasts = null;
    });
    return reading;
  };
  const sizeOf = enclosureSizes(app.imageStore);
  await app.register(podcastFeedRoutes, { siteUrl, podcasts: currentPodcasts, sizeOf });

  /** A file drawn from the site index; null: the site has no such file now (404). */
  function serve(
    path: string,
    type: string,
    render: (index: SiteIndex) => string | null | Promise<string | null>,
  ) {
    app.get(
      path,
      { config: { access: 'anyone', changesState: false } },
      async (_request, reply) => {
        // What is drawn now is kept in the map of the content it was drawn from.
        const kept = drawn;
        let body = kept.get(path);
        if (body === undefined) {
          const drawnNow = await render(app.siteContent.current().index);
          if (drawnNow === null)
            return reply.code(404).send(errorBody('not_found', 'No such feed.'));
          body = drawnNow;
          kept.set(path, body);
        }
        return reply.header('cache-control', CACHE_CONTROL).type(type).send(body);
      },
    );
  }

  const robots = renderRobotsTxt(siteUrl);
  serve(SITE_FILE_PATHS.robots, 'text/plain; charset=utf-8', () => robots);
  serve(SITE_FILE_PATHS.sitemap, 'application/xml; charset=utf-8', (index) =>
    renderSitemap(index, siteUrl),
  );
  serve(SITE_FILE_PATHS.manifest, 'application/manifest+json; charset=utf-8', (index) => {
    const { title, description, language: lang, accentColor } = settings();
    return renderWebManifest({
      name: title,
      description,
      lang,
      themeColor: accentColor,
      backgroundColor: index.manifest.backgroundColor,
      icons: manifestIcons(settings(), index.manifest.icons),
    });
  });

  const rss = 'application/rss+xml; charset=utf-8';
  serve(SITE_FILE_PATHS.feed, rss, async (index) =>
    renderRssFeed(
      {
        title: settings().title,
        description: settings().description || `Articles from ${settings().title}, newest first.`,
        link: `${siteUrl}/`,
        self: `${siteUrl}${SITE_FILE_PATHS.feed}`,
        language: language(),
      },
      await withGuids(index.articles),
      siteUrl,
    ),
  );
  serve(SITE_FILE_PATHS.newsletterFeed, rss, (index) =>
    renderRssFeed(
      {
        title: `${settings().title} newsletter`,
        description: `Every issue of the ${settings().title} newsletter, newest first.`,
        link: `${siteUrl}${NEWSLETTER_PATHS.archive}`,
        self: `${siteUrl}${SITE_FILE_PATHS.newsletterFeed}`,
        language: language(),
      },
      // A members-only issue's entry carries its summary, as its page does.
      index.newsletters.map(({ membersOnly, ...issue }) => ({
        ...issue,
        ...(membersOnly && { section: 'Members only' }),
      })),
      siteUrl,
    ),
  );
  // Each section of articles' feed, beside its list (`/health` → `/health/rss.xml`): the
  // shipped sections' and every one the publisher added, at the section's address now; a
  // podcast's, the episodes anyone may hear, with their files.
  app.get<{ Params: { section: string } }>(
    '/:section/rss.xml',
    { config: { access: 'anyone', changesState: false } },
    async (request, reply) => {
      const feedPath = `/${request.params.section}/rss.xml`;
      // What is drawn now is kept in the map of the content it was drawn from.
      const kept = drawn;
      let body = kept.get(feedPath);
      if (body === undefined) {
        const content = app.siteContent.current();
        const section = content.index.sections.find((item) => item.feedPath === feedPath);
        if (!section) return reply.code(404).send(errorBody('not_found', 'No such feed.'));
        const { name } = section;
        const row = content.navigation.sections.find((each) => each.name === name);
        const podcast = row && (await currentPodcasts()).get(row.id);
        if (row && podcast) {
          try {
            body = await renderPodcastFeed({
              show: { section: row, podcast },
              content,
              token: null,
              siteUrl,
              self: `${siteUrl}${feedPath}`,
              sizeOf,
            });
          } catch (error) {
            request.log.error({ err: error }, 'could not read the podcast’s files');
            throw storeUnavailable();
          }
        } else {
          body = renderRssFeed(
            {
              title: `${settings().title}: ${name}`,
              description: `${name} articles from ${settings().title}, newest first.`,
              link: `${siteUrl}${section.path}`,
              self: `${siteUrl}${feedPath}`,
              language: language(),
            },
            await withGuids(content.index.articles.filter((article) => article.section === name)),
            siteUrl,
          );
        }
        kept.set(feedPath, body);
      }
      return reply.header('cache-control', CACHE_CONTROL).type(rss).send(body);
    },
  );

  // Each author's feed: their articles, newest first (contract/authors.ts).
  app.get<{ Params: { slug: string } }>(
    `${AUTHORS_PATH}/:slug/rss.xml`,
    { config: { access: 'anyone', changesState: false } },
    async (request, reply) => {
      const { slug } = request.params;
      const entry = app.siteContent.current().authors.get(slug);
      if (!entry) return reply.code(404).send(errorBody('not_found', 'No such author.'));
      const feedPath = authorFeedPath(slug);
      // Kept in the map of the content it was drawn from, though the content changes meanwhile.
      const kept = drawn;
      let body = kept.get(feedPath);
      if (body === undefined) {
        const { author } = entry;
        body = renderRssFeed(
          {
            title: `${settings().title}: ${author.name}`,
            description: `Articles by ${author.name} on ${settings().title}, newest first.`,
            link: `${siteUrl}${authorPath(slug)}`,
            self: `${siteUrl}${feedPath}`,
            language: language(),
          },
          await withGuids(
            app.siteContent
              .current()
              .index.articles.filter((article) =>
                article.authors?.some((credit) => credit.path === authorPath(slug)),
              ),
          ),
          siteUrl,
        );
        kept.set(feedPath, body);
      }
      return reply.header('cache-control', CACHE_CONTROL).type(rss).send(body);
    },
  );

  // Each topic's feed: its articles and campaigns, newest first (contract/topics.ts).
  app.get<{ Params: { slug: string } }>(
    `${paths.topics}/:slug/rss.xml`,
    { config: { access: 'anyone', changesState: false } },
    async (request, reply) => {
      const { slug } = request.params;
      const topic = app.siteContent.current().topics.get(slug);
      if (!topic) return reply.code(404).send(errorBody('not_found', 'No such topic.'));
      const feedPath = topicFeedPath(slug);
      // Kept in the map of the content it was drawn from, though the content changes meanwhile.
      const kept = drawn;
      let body = kept.get(feedPath);
      if (body === undefined) {
        body = renderRssFeed(
          {
            title: `${settings().title}: ${topic.name}`,
            description: topic.description,
            link: `${siteUrl}${topicPath(slug)}`,
            self: `${siteUrl}${feedPath}`,
            language: language(),
          },
          await withGuids([
            ...topic.articles.map((article) => ({
              id: article.id,
              title: article.title,
              path: postPath(
                { kind: 'article', slug: article.slug, category: article.category },
                app.siteContent.current().sectionSlugs,
              ),
              summary: article.summary,
              publishedAt: article.publishedAt,
              section: article.category,
            })),
            ...topic.campaigns.map((campaign) => ({
              id: campaign.id,
              title: campaign.title,
              path: `${postPath(
                { kind: 'campaign', slug: campaign.slug },
                undefined,
                app.siteContent.current().specialSlugs,
              )}#${campaign.slug}`,
              summary: campaign.summary,
              publishedAt: campaign.publishedAt,
              section: campaign.category,
            })),
          ]),
          siteUrl,
        );
        kept.set(feedPath, body);
      }
      return reply.header('cache-control', CACHE_CONTROL).type(rss).send(body);
    },
  );
}

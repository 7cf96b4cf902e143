import { Type, type Static } from 'typebox';

/**
 * The files about the whole site that the Node server answers (nginx passes them on), because
 * they hold the deployment's SITE_URL or SITE_NAME: one built image serves any site.
 */
export const SITE_FILE_PATHS = {
  sitemap: '/sitemap.xml',
  robots: '/robots.txt',
  manifest: '/manifest.webmanifest',
  /** Every section's articles together. */
  feed: '/rss.xml',
  /** The newsletter's issues, beside its archive (/newsletter). */
  newsletterFeed: '/newsletter/rss.xml',
} as const;

/**
 * The shipped sections' RSS feeds, beside their lists (`/health` → `/health/rss.xml`); a section
 * added in the desk has one at its own address too (nginx.conf passes on any `/<slug>/rss.xml`).
 */
export const SECTION_FEED_PATHS = {
  Health: '/health/rss.xml',
  Wealth: '/wealth/rss.xml',
} as const;

/** Every exact path above: the app's, in nginx.conf and in Vite's dev proxy alike. */
export const SITE_FILES = [
  ...Object.values(SITE_FILE_PATHS),
  ...Object.values(SECTION_FEED_PATHS),
] as const;

const IsoDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const SitePath = Type.String({ pattern: '^/' });
/** An article section's name (the sections table: the publisher's). */
const Section = Type.String({ minLength: 1 });
const Colour = Type.String({ pattern: '^#[0-9a-fA-F]{3,8}$' });

/**
 * What the published content gives the sitemap, the feeds and the manifest
 * (server/src/content/site-index.ts draws it again whenever a post changes). Paths only: the
 * server puts SITE_URL in front of them.
 */
export const SiteIndexSchema = Type.Object({
  /** Every public page with a route of its own; `lastmod` is the newest date of its content. */
  pages: Type.Array(Type.Object({ path: SitePath, lastmod: Type.Union([IsoDate, Type.Null()]) })),
  /** Every article, newest first. */
  articles: Type.Array(
    Type.Object({
      slug: Type.String({ minLength: 1 }),
      section: Section,
      path: SitePath,
      title: Type.String({ minLength: 1 }),
      summary: Type.String(),
      publishedAt: IsoDate,
      /** Its authors (contract/authors.ts), each with their page: JSON-LD and the feeds name them. */
      authors: Type.Optional(Type.Array(Type.Object({ name: Type.String(), path: SitePath }))),
    }),
  ),
  /** Every author with a published article, with their page and feed (contract/authors.ts). */
  authors: Type.Optional(
    Type.Array(
      Type.Object({
        slug: Type.String({ minLength: 1 }),
        name: Type.String(),
        path: SitePath,
        feedPath: SitePath,
      }),
    ),
  ),
  /** Every newsletter issue, newest first: what the archive and the issue pages say about it. */
  newsletters: Type.Array(
    Type.Object({
      slug: Type.String({ minLength: 1 }),
      path: SitePath,
      title: Type.String({ minLength: 1 }),
      summary: Type.String(),
      publishedAt: IsoDate,
      /** Its body is for members: the page and the feed carry the summary alone. */
      membersOnly: Type.Boolean(),
    }),
  ),
  /** Every topic (contract/topics.ts) with its page and feed, ordered by name. */
  topics: Type.Array(
    Type.Object({
      slug: Type.String({ minLength: 1 }),
      name: Type.String({ minLength: 1 }),
      description: Type.String(),
      path: SitePath,
      feedPath: SitePath,
    }),
  ),
  /** The article sections, each with its list's path. */
  sections: Type.Array(
    Type.Object({
      name: Section,
      path: SitePath,
      /** Its RSS feed, beside its list (`/culture/rss.xml`). */
      feedPath: SitePath,
    }),
  ),
  /** The web manifest's colours (the site's CSS) and icons (generated at build). */
  manifest: Type.Object({
    themeColor: Colour,
    backgroundColor: Colour,
    icons: Type.Array(Type.Object({ src: SitePath, sizes: Type.String(), type: Type.String() })),
  }),
});
export type SiteIndex = Static<typeof SiteIndexSchema>;
export type SiteIndexArticle = SiteIndex['articles'][number];
export type SiteIndexNewsletter = SiteIndex['newsletters'][number];

/** The web manifest's icons: the SVG itself, and the two PNG sizes Android asks for. */
export const MANIFEST_ICONS = [
  { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
  { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
  { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
] as const;

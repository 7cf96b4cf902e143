import { createHash } from 'node:crypto';
import { PRERENDER_SITE_URL, type PageHead, escapeHtml } from '../../../contract/prerendered.js';
import { PRERENDER_SITE_NAME, PRERENDER_SITE_NAME_IN_JSON } from '../../../contract/site-name.js';
import { SITE_FILE_PATHS, type SiteIndex } from '../../../contract/site-index.js';
import { NEWSLETTER_PATHS } from '../../../contract/newsletters.js';
import { parseUploadUrl, shareImageUrl } from '../../../contract/images.js';
import type { SiteSettings } from '../../../contract/site-settings.js';
import type { ArtworkTheme } from '../content/generate-artwork.js';
import { iconVersion, siteIconUrl } from './site-look.js';
import { OG_HEIGHT, OG_WIDTH } from './og-image.js';

// What a page says about itself in its <head>: title, description, canonical link, Open Graph and
// Twitter tags, JSON-LD and its 1200×630 preview image. Absolute addresses use PRERENDER_SITE_URL
// and the site's name PRERENDER_SITE_NAME (PRERENDER_SITE_NAME_IN_JSON in JSON-LD): the server
// fills in SITE_URL and the settings' title once the page is drawn (contract/prerendered.ts). The
// rest of what the publication's settings say of it (its language, tagline and logo) is `look`.

const SITE_NAME = PRERENDER_SITE_NAME;

/** What a page's head says of the publication, from its settings (contract/site-settings.ts). */
export type HeadLook = Pick<SiteSettings, 'title' | 'description' | 'language' | 'logo' | 'icon'>;

/**
 * A page's link preview (server/src/site/og-images.ts draws it when first asked). Only the home
 * page's names the site (its title and tagline): its address carries their `version`, so a
 * rename is a new image for the share cards' caches too.
 */
export interface PreviewImage {
  /** Its path without the leading slash, e.g. `og/health.png`. */
  file: string;
  artworkSeed: string;
  theme: ArtworkTheme;
  eyebrow: string;
  title: string;
  version?: string;
}

/**
 * JSON inside <script>: no `</script>` can end it early; the site's name is marked for the server to
 * fill in escaped for JSON, not for HTML.
 */
export const jsonForScript = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replaceAll(PRERENDER_SITE_NAME, () => PRERENDER_SITE_NAME_IN_JSON);

/** A post's feature photo as its 1200×630 share copy, when the page has one. */
function sharedPhoto(head: PageHead): string | undefined {
  const photo = head.openGraph?.image && parseUploadUrl(head.openGraph.image.url);
  return photo ? `${PRERENDER_SITE_URL}${shareImageUrl(photo)}` : undefined;
}

/** The publication's logo for JSON-LD: its uploaded logo, else its icon, else the build's. */
function logoOf(look: HeadLook): string {
  const icon = iconVersion(look);
  return `${PRERENDER_SITE_URL}${look.logo ?? (icon ? siteIconUrl(icon, 180) : '/apple-touch-icon.png')}`;
}

export function describePage(
  path: string,
  head: PageHead,
  index: SiteIndex,
  look: HeadLook,
): { preview: PreviewImage; jsonLd: object[] } {
  const site = PRERENDER_SITE_URL;
  const inLanguage = look.language;
  const organization = {
    '@type': 'Organization',
    name: SITE_NAME,
    url: `${site}/`,
    ...(look.logo && { logo: logoOf(look) }),
  };
  const article = index.articles.find((item) => item.path === path);
  const section = index.sections.find((item) => item.path === path);
  const issue = index.newsletters.find((item) => item.path === path);
  const crumbs = (items: { name: string; path: string }[]) => ({
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: item.name,
      item: `${site}${item.path}`,
    })),
  });

  if (article) {
    const preview: PreviewImage = {
      file: `og/articles/${article.slug}.png`,
      artworkSeed: article.slug,
      theme: article.section === 'Health' ? 'health' : 'wealth',
      eyebrow: article.section,
      title: article.title,
    };
    const sectionPath = index.sections.find((item) => item.name === article.section)?.path ?? '/';
    return {
      preview,
      jsonLd: [
        {
          '@context': 'https://schema.org',
          '@type': 'Article',
          inLanguage,
          headline: article.title,
          description: article.summary,
          datePublished: article.publishedAt,
          articleSection: article.section,
          // What its link previews show: the feature photo, else the drawn title card.
          image: sharedPhoto(head) ?? `${site}/${preview.file}`,
          mainEntityOfPage: `${site}${path}`,
          // Its authors as people, each with their page; an article credited to nobody, the site.
          author: article.authors?.length
            ? article.authors.map((person) => ({
                '@type': 'Person',
                name: person.name,
                url: `${site}${person.path}`,
              }))
            : organization,
          publisher: organization,
        },
        crumbs([
          { name: 'Home', path: '/' },
          { name: article.section, path: sectionPath },
          { name: article.title, path },
        ]),
      ],
    };
  }
  if (issue) {
    const preview: PreviewImage = {
      file: `og/newsletter/${issue.slug}.png`,
      artworkSeed: `newsletter-${issue.slug}`,
      theme: 'collective',
      eyebrow: `Newsletter${issue.membersOnly ? ' · Members only' : ''}`,
      title: issue.title,
    };
    return {
      preview,
      jsonLd: [
        {
          '@context': 'https://schema.org',
          '@type': 'Article',
          inLanguage,
          headline: issue.title,
          description: issue.summary,
          datePublished: issue.publishedAt,
          articleSection: 'Newsletter',
          // A members-only issue's text is not in the page: its summary is free, the rest is not.
          isAccessibleForFree: !issue.membersOnly,
          image: `${site}/${preview.file}`,
          mainEntityOfPage: `${site}${path}`,
          author: organization,
          publisher: organization,
        },
        crumbs([
          { name: 'Home', path: '/' },
          { name: 'Newsletter', path: NEWSLETTER_PATHS.archive },
          { name: issue.title, path },
        ]),
      ],
    };
  }
  if (path === NEWSLETTER_PATHS.archive) {
    return {
      preview: {
        file: 'og/newsletter.png',
        artworkSeed: 'newsletter',
        theme: 'collective',
        eyebrow: 'Newsletter',
        title: 'Every issue, newest first',
      } satisfies PreviewImage,
      jsonLd: [
        {
          '@context': 'https://schema.org',
          '@type': 'CollectionPage',
          inLanguage,
          name: head.name,
          description: head.description,
          url: `${site}${path}`,
          hasPart: index.newsletters.map((item) => ({
            '@type': 'Article',
            headline: item.title,
            url: `${site}${item.path}`,
            datePublished: item.publishedAt,
          })),
        },
        crumbs([
          { name: 'Home', path: '/' },
          { name: 'Newsletter', path },
        ]),
      ],
    };
  }
  if (section) {
    return {
      preview: {
        file: `og/${section.name.toLowerCase()}.png`,
        artworkSeed: section.name,
        theme: section.name === 'Health' ? 'health' : 'wealth',
        eyebrow: 'Articles',
        title: section.name,
      } satisfies PreviewImage,
      jsonLd: [
        crumbs([
          { name: 'Home', path: '/' },
          { name: section.name, path },
        ]),
      ],
    };
  }
  // The publication's own words: its name above its tagline (or its name alone).
  const homeTitle = look.description.trim() || look.title;
  const home: PreviewImage = {
    file: 'og/home.png',
    artworkSeed: 'home',
    theme: 'wealth',
    eyebrow: look.title,
    title: homeTitle,
    version: createHash('sha256')
      .update(`${look.title}\n${homeTitle}`)
      .digest('base64url')
      .slice(0, 12),
  };
  if (path === '/') {
    return {
      preview: home,
      jsonLd: [
        {
          '@context': 'https://schema.org',
          '@type': 'WebSite',
          name: SITE_NAME,
          url: `${site}/`,
          inLanguage,
          ...(look.description && { description: look.description }),
        },
        { '@context': 'https://schema.org', ...organization, logo: logoOf(look) },
      ],
    };
  }
  // Every other page: its place under the home page, and the site's own preview.
  const name = head.name;
  return {
    preview: home,
    jsonLd: [
      crumbs([
        { name: 'Home', path: '/' },
        { name, path },
      ]),
    ],
  };
}

/** The tags a page adds to index.html's head; `data-page-head` lets the browser drop them later. */
export function headTags(path: string, head: PageHead, index: SiteIndex, look: HeadLook) {
  const { preview, jsonLd } = describePage(path, head, index, look);
  const url = `${PRERENDER_SITE_URL}${path}`;
  const title = head.name;
  const meta = (attribute: 'property' | 'name', key: string, value: string | undefined) =>
    value ? `<meta ${attribute}="${key}" content="${escapeHtml(value)}" data-page-head />` : '';
  const og = head.openGraph;
  // A post's feature photo, as its 1200×630 share copy; else the drawn title card.
  const photo = sharedPhoto(head);
  const image =
    photo ??
    `${PRERENDER_SITE_URL}/${preview.file}${preview.version ? `?v=${preview.version}` : ''}`;
  const imageAlt = (photo && og?.image?.alt) || title;
  const section = index.sections.find((item) => item.path === path);
  const feed = (title: string, feedPath: string) =>
    `<link rel="alternate" type="application/rss+xml" title="${escapeHtml(title)}" href="${PRERENDER_SITE_URL}${feedPath}" data-page-head />`;
  const topic = index.topics.find((item) => item.path === path);
  const author = index.authors?.find((item) => item.path === path);
  const inNewsletter =
    path === NEWSLETTER_PATHS.archive || index.newsletters.some((item) => item.path === path);
  const tags = [
    // A section's list links its own feed, beside the site-wide one index.html names; the
    // newsletter's pages link the archive's.
    section ? feed(`${SITE_NAME}: ${section.name}`, section.feedPath) : '',
    inNewsletter ? feed(`${SITE_NAME} newsletter`, SITE_FILE_PATHS.newsletterFeed) : '',
    topic ? feed(`${SITE_NAME}: ${topic.name}`, topic.feedPath) : '',
    author ? feed(`${SITE_NAME}: ${author.name}`, author.feedPath) : '',
    head.status === 200 ? `<link rel="canonical" href="${escapeHtml(url)}" data-page-head />` : '',
    meta('property', 'og:type', og?.type ?? 'website'),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:title', title),
    meta('property', 'og:description', head.description),
    meta('property', 'og:url', url),
    meta('property', 'og:image', image),
    meta('property', 'og:image:width', String(OG_WIDTH)),
    meta('property', 'og:image:height', String(OG_HEIGHT)),
    meta('property', 'og:image:alt', imageAlt),
    meta('property', 'article:published_time', og?.publishedTime),
    meta('property', 'article:section', og?.section),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', head.description),
    meta('name', 'twitter:image', image),
    ...(head.status === 200
      ? jsonLd.map(
          (data) =>
            `<script type="application/ld+json" data-page-head>${jsonForScript(data)}</script>`,
        )
      : []),
  ].filter(Boolean);
  return { tags, preview };
}

/**
 * index.html with the page in #root and its head. The site's one stylesheet (about 6 KB gzipped)
 * goes inline: a first visit then paints with the HTML alone, without waiting on a second request
 * (Lighthouse's render-blocking audit); the bare shell keeps the cached file.
 *
 * Each piece goes in through a function, never a replacement string: `replace` would read `$&`,
 * `` $` `` and `$'` in a title or a search query as the matched text and the page around it, and
 * copy the page into itself (lint refuses a replacement that is neither a literal nor a function).
 */
export function composePage(
  template: string,
  html: string,
  head: PageHead,
  tags: string[],
  css: Css,
) {
  const withTitle = template
    .replace(css.link, () => `<style>${css.text}</style>`)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(head.title)}</title>`)
    .replace(
      /(<meta\s+name="description"\s+content=")[^"]*(")/,
      (_match, before: string, after: string) =>
        head.description ? `${before}${escapeHtml(head.description)}${after}` : _match,
    );
  const withHead = withTitle.replace('</head>', () => `    ${tags.join('\n    ')}\n  </head>`);
  if (!withHead.includes('<div id="root"></div>')) {
    throw new Error('dist/client/index.html has no empty <div id="root"></div> to fill');
  }
  return withHead.replace('<div id="root"></div>', () => `<div id="root">${html}</div>`);
}

export interface Css {
  /** The <link> tag index.html has for it. */
  link: string;
  text: string;
}

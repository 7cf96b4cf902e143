import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Value } from 'typebox/value';
import {
  PAGES_DIR,
  PAGES_ROUTES_FILE,
  PRERENDER_SITE_URL,
  type PageHead,
  type PrerenderedRoutes,
} from '../../contract/prerendered.js';
import { PRERENDER_SITE_NAME, PRERENDER_SITE_NAME_IN_JSON } from '../../contract/site-name.js';
import { SITE_FILE_PATHS, SITE_INDEX_FILE, SiteIndexSchema } from '../../contract/site-index.js';
import type { SiteIndex } from '../../contract/site-index.js';
import { NEWSLETTER_PATHS } from '../../contract/newsletters.js';
import { browserOnlyPages, redirects } from '../src/config/paths.js';
import { generateArtwork, type ArtworkTheme } from './generate-artwork.js';
import { OG_HEIGHT, OG_WIDTH, renderOgImage } from './og-image.js';

/**
 * Writes every public page as HTML (PRODUCT: pages that exist before JavaScript): the server build
 * of the app (dist/ssr) renders each route of the site index with its full text; this puts it
 * into index.html with the page's own title, description, canonical link, Open Graph and Twitter
 * tags and JSON-LD, and draws its 1200×630 preview image. Absolute addresses use
 * PRERENDER_SITE_URL, which the server swaps for SITE_URL at start (one build, any site); the site's
 * name is PRERENDER_SITE_NAME (PRERENDER_SITE_NAME_IN_JSON in JSON-LD), swapped for SITE_NAME.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const SITE_NAME = PRERENDER_SITE_NAME;
const quiet = process.argv.includes('--quiet');

type RenderPage = (path: string) => Promise<{ html: string; head: PageHead }>;

/**
 * A page's link preview. Images are drawn once, at build time, so they never name the site: the
 * server fills SITE_NAME into the HTML at start, but not into a PNG.
 */
interface PreviewImage {
  /** Under dist/client, e.g. `og/health.png`. */
  file: string;
  artworkSeed: string;
  theme: ArtworkTheme;
  eyebrow: string;
  title: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/**
 * JSON inside <script>: no `</script>` can end it early; the site's name is marked for the server to
 * fill in escaped for JSON, not for HTML.
 */
const jsonForScript = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replaceAll(PRERENDER_SITE_NAME, PRERENDER_SITE_NAME_IN_JSON);

/** dist/pages/<path>.html: `/` → index.html, `/health/sleep` → health/sleep.html. */
const pageFile = (path: string) => (path === '/' ? 'index.html' : `${path.slice(1)}.html`);

function describePage(path: string, head: PageHead, index: SiteIndex) {
  const site = PRERENDER_SITE_URL;
  const organization = { '@type': 'Organization', name: SITE_NAME, url: `${site}/` };
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
          headline: article.title,
          description: article.summary,
          datePublished: article.publishedAt,
          articleSection: article.section,
          image: `${site}/${preview.file}`,
          mainEntityOfPage: `${site}${path}`,
          author: organization,
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
        title: 'New guides, campaigns worth backing and one thing to do each week',
      } satisfies PreviewImage,
      jsonLd: [
        {
          '@context': 'https://schema.org',
          '@type': 'CollectionPage',
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
  const home: PreviewImage = {
    file: 'og/home.png',
    artworkSeed: 'home',
    theme: 'wealth',
    eyebrow: 'For Millennials and Gen Z',
    title: 'Trusted guides, causes to back and free learning for Millennials and Gen Z',
  };
  if (path === '/') {
    return {
      preview: home,
      jsonLd: [
        { '@context': 'https://schema.org', '@type': 'WebSite', name: SITE_NAME, url: `${site}/` },
        {
          '@context': 'https://schema.org',
          ...organization,
          logo: `${site}/apple-touch-icon.png`,
        },
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
function headTags(path: string, head: PageHead, index: SiteIndex) {
  const { preview, jsonLd } = describePage(path, head, index);
  const url = `${PRERENDER_SITE_URL}${path}`;
  const image = `${PRERENDER_SITE_URL}/${preview.file}`;
  const title = head.name;
  const meta = (attribute: 'property' | 'name', key: string, value: string | undefined) =>
    value ? `<meta ${attribute}="${key}" content="${escapeHtml(value)}" data-page-head />` : '';
  const og = head.openGraph;
  const section = index.sections.find((item) => item.path === path);
  const feed = (title: string, feedPath: string) =>
    `<link rel="alternate" type="application/rss+xml" title="${escapeHtml(title)}" href="${PRERENDER_SITE_URL}${feedPath}" data-page-head />`;
  const inNewsletter =
    path === NEWSLETTER_PATHS.archive || index.newsletters.some((item) => item.path === path);
  const tags = [
    // A section's list links its own feed, beside the site-wide one index.html names; the
    // newsletter's pages link the archive's.
    section ? feed(`${SITE_NAME}: ${section.name}`, section.feedPath) : '',
    inNewsletter ? feed(`${SITE_NAME} newsletter`, SITE_FILE_PATHS.newsletterFeed) : '',
    head.status === 200 ? `<link rel="canonical" href="${escapeHtml(url)}" data-page-head />` : '',
    meta('property', 'og:type', og?.type ?? 'website'),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:title', title),
    meta('property', 'og:description', head.description),
    meta('property', 'og:url', url),
    meta('property', 'og:image', image),
    meta('property', 'og:image:width', String(OG_WIDTH)),
    meta('property', 'og:image:height', String(OG_HEIGHT)),
    meta('property', 'og:image:alt', title),
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
 */
function composePage(template: string, html: string, head: PageHead, tags: string[], css: Css) {
  const withTitle = template
    .replace(css.link, `<style>${css.text}</style>`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(head.title)}</title>`)
    .replace(
      /(<meta\s+name="description"\s+content=")[^"]*(")/,
      (_match, before: string, after: string) =>
        head.description ? `${before}${escapeHtml(head.description)}${after}` : _match,
    );
  const withHead = withTitle.replace('</head>', `    ${tags.join('\n    ')}\n  </head>`);
  if (!withHead.includes('<div id="root"></div>')) {
    throw new Error('dist/client/index.html has no empty <div id="root"></div> to fill');
  }
  return withHead.replace('<div id="root"></div>', `<div id="root">${html}</div>`);
}

interface Css {
  /** The <link> tag index.html has for it. */
  link: string;
  text: string;
}

async function readStylesheet(template: string): Promise<Css> {
  const links = [
    ...template.matchAll(/<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g),
  ];
  const [link] = links;
  if (links.length !== 1 || !link?.[1]) {
    throw new Error(
      'dist/client/index.html should link exactly one stylesheet (cssCodeSplit: false)',
    );
  }
  const text = await readFile(join(root, 'dist/client', link[1]), 'utf8');
  // Nothing in it may end the <style> element early.
  if (text.includes('</')) throw new Error(`${link[1]} holds "</"`);
  return { link: link[0], text };
}

async function main() {
  const template = await readFile(join(root, 'dist/client/index.html'), 'utf8');
  const css = await readStylesheet(template);
  const index = Value.Parse(
    SiteIndexSchema,
    JSON.parse(await readFile(join(root, SITE_INDEX_FILE), 'utf8')),
  );
  const { renderPage } = (await import(
    pathToFileURL(join(root, 'dist/ssr/entry-server.js')).href
  )) as { renderPage: RenderPage };

  const pagesDir = join(root, PAGES_DIR);
  await rm(pagesDir, { recursive: true, force: true });
  const previews = new Map<string, PreviewImage>();
  const routes: PrerenderedRoutes = {
    pages: [],
    notFound: '404.html',
    shell: 'shell.html',
    browserOnly: [...browserOnlyPages],
    redirects: redirects.map(({ from, to }) => ({ from, to })),
  };

  async function write(file: string, content: string) {
    const target = join(pagesDir, file);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }

  for (const { path } of index.pages) {
    const { html, head } = await renderPage(path);
    if (head.status !== 200) throw new Error(`${path} rendered as a ${head.status} page`);
    if (!html.includes('<h1')) throw new Error(`${path} rendered without a heading`);
    const { tags, preview } = headTags(path, head, index);
    previews.set(preview.file, preview);
    await write(pageFile(path), composePage(template, html, head, tags, css));
    routes.pages.push({ path, file: pageFile(path) });
  }
  // The not-found page, drawn for an address no route knows.
  const missing = await renderPage('/this-page-does-not-exist');
  if (missing.head.status !== 404) throw new Error('The not-found page did not say 404');
  const { tags } = headTags('/404', missing.head, index);
  await write(routes.notFound, composePage(template, missing.html, missing.head, tags, css));
  await write(routes.shell, template);
  await write(PAGES_ROUTES_FILE, `${JSON.stringify(routes, null, 2)}\n`);

  for (const preview of previews.values()) {
    const png = renderOgImage({
      artworkSvg: generateArtwork(preview.artworkSeed, preview.theme),
      eyebrow: preview.eyebrow,
      title: preview.title,
    });
    const target = join(root, 'dist/client', preview.file);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, png);
  }
  if (!quiet) {
    console.log(
      `Prerendered ${routes.pages.length} pages and the 404 page into ${PAGES_DIR}, with ${previews.size} preview images (${SITE_FILE_PATHS.sitemap} lists the pages).`,
    );
  }
}

await main();

import { escapeHtml } from '../../../contract/prerendered.js';
import { createHash } from 'node:crypto';
import { parseUploadUrl } from '../../../contract/images.js';
import { accentProperties } from '../../../contract/site-look.js';
import { CUSTOM_CSS_PATH, type SiteSettings } from '../../../contract/site-settings.js';

// The publication's look on the server (contract/site-settings.ts): what a page's <html> and head
// carry of the settings for the first paint without JavaScript (the language, the colour scheme,
// the fonts, the accent as CSS custom properties, the icons, the owners' stylesheet), drawn again
// with each content generation, so a change in the desk shows on the next page on every server.
// The client's CSS reads only these names: `data-color-scheme`, `data-fonts`, `--accent`,
// `--accent-ink`, `--accent-soft`.

/** Where the icons made from the uploaded icon are served: `/site/icon-<size>.png?v=<version>`. */
export const SITE_ICON_PREFIX = '/site/icon-';
/** The sizes made from an uploaded icon: favicons, iOS's home screen, the manifest's two. */
export const SITE_ICON_SIZES = [16, 32, 180, 192, 512] as const;
export type SiteIconSize = (typeof SITE_ICON_SIZES)[number];

/** The icons without an uploaded one: the build's own, drawn from client/public/favicon.svg. */
const DEFAULT_ICONS = {
  favicons: [
    { href: '/favicon.ico', sizes: '48x48' },
    { href: '/favicon.svg', type: 'image/svg+xml' },
  ],
  appleTouch: '/apple-touch-icon.png',
};

const shortHash = (text: string) =>
  createHash('sha256').update(text).digest('base64url').slice(0, 16);

/** The version in the owners' stylesheet's address: a new address for each new text. */
export const customCssVersion = (css: string) => shortHash(css);

/** The uploaded icon's version (its image id: a digest of its bytes), or null without one. */
export function iconVersion(settings: Pick<SiteSettings, 'icon'>): string | null {
  return (settings.icon && parseUploadUrl(settings.icon)?.id) || null;
}

/** An icon of one size made from the uploaded icon, at its address with its version. */
export const siteIconUrl = (version: string, size: SiteIconSize) =>
  `${SITE_ICON_PREFIX}${size}.png?v=${version}`;

/** The web manifest's icons: made from the uploaded icon, else the build's. */
export function manifestIcons(
  settings: Pick<SiteSettings, 'icon'>,
  builtIcons: readonly { src: string; sizes: string; type: string }[],
) {
  const version = iconVersion(settings);
  if (!version) return builtIcons.map((icon) => ({ ...icon }));
  return ([192, 512] as const).map((size) => ({
    src: siteIconUrl(version, size),
    sizes: `${size}x${size}`,
    type: 'image/png',
  }));
}

/** What a page that says no description of its own describes itself with: the settings' tagline. */
const DESCRIPTION_MARK = '__COHORT_SITE_DESCRIPTION__';

/**
 * The built index.html with its description a mark for the settings' tagline: a drawn page puts
 * its own there (page-head.ts composePage), any other gets the tagline (applyLook).
 */
export function markDescription(template: string): string {
  return template.replace(
    /(<meta\s+name="description"\s+content=")[^"]*(")/,
    (_match, before: string, after: string) => `${before}${DESCRIPTION_MARK}${after}`,
  );
}

/** The `<html>` element's attributes from the settings (its `lang` among them), escaped. */
export function htmlAttributes(settings: SiteSettings): string {
  const style = accentProperties(settings.accentColor)
    .map(([name, value]) => `${name}:${value}`)
    .join(';');
  return [
    `lang="${escapeHtml(settings.language)}"`,
    `data-color-scheme="${escapeHtml(settings.colorScheme)}"`,
    `data-fonts="${escapeHtml(settings.fonts)}"`,
    `style="${style}"`,
  ].join(' ');
}

/** The head's icon links: made from the uploaded icon, else the build's. */
function iconLinks(settings: SiteSettings): string[] {
  const version = iconVersion(settings);
  if (!version) {
    return [
      ...DEFAULT_ICONS.favicons.map(
        (icon) =>
          `<link rel="icon" href="${icon.href}"${'sizes' in icon ? ` sizes="${icon.sizes}"` : ''}${'type' in icon ? ` type="${icon.type}"` : ''} />`,
      ),
      `<link rel="apple-touch-icon" href="${DEFAULT_ICONS.appleTouch}" />`,
    ];
  }
  return [
    `<link rel="icon" type="image/png" sizes="32x32" href="${siteIconUrl(version, 32)}" />`,
    `<link rel="icon" type="image/png" sizes="16x16" href="${siteIconUrl(version, 16)}" />`,
    `<link rel="apple-touch-icon" sizes="180x180" href="${siteIconUrl(version, 180)}" />`,
  ];
}

/**
 * The page with the settings' look: `<html>`'s attributes, the theme colour, the icons, the
 * site feed's title, the description of a page that says none of its own (index.html's), and the
 * owners' stylesheet after the site's. Each piece goes in through a function, never a replacement
 * string (page-head.ts says why).
 */
export function applyLook(html: string, settings: SiteSettings): string {
  const attributes = htmlAttributes(settings);
  const icons = iconLinks(settings);
  const css = settings.customCss.trim()
    ? `<link rel="stylesheet" href="${CUSTOM_CSS_PATH}?v=${customCssVersion(settings.customCss)}" data-custom-css />`
    : '';
  let done = html
    .replace(/<html\b[^>]*>/, () => `<html ${attributes}>`)
    .replace(
      /<meta name="theme-color" content="[^"]*"\s*\/?>/,
      () => `<meta name="theme-color" content="${escapeHtml(settings.accentColor)}" />`,
    )
    .replace(DESCRIPTION_MARK, () => escapeHtml(settings.description))
    .replace(
      /(<link rel="alternate" type="application\/rss\+xml" title=")[^"]*(" href="\/rss\.xml")/,
      (_match, before: string, after: string) => `${before}${escapeHtml(settings.title)}${after}`,
    );
  // The build's icon links, each replaced by the settings': the first one's place takes them all.
  let placed = false;
  done = done.replace(/[ \t]*<link rel="(?:icon|apple-touch-icon)"[^>]*>\n?/g, (match) => {
    if (placed) return '';
    placed = true;
    const indent = /^[ \t]*/.exec(match)?.[0] ?? '';
    return icons.map((link) => `${indent}${link}\n`).join('');
  });
  if (!css) return done;
  // After the site's stylesheet (inline in a drawn page, linked in the bare shell): it wins.
  const afterSiteCss = /<\/style>|<link rel="stylesheet"[^>]*href="\/assets\/[^"]+\.css"[^>]*>/;
  return afterSiteCss.test(done)
    ? done.replace(afterSiteCss, (match) => `${match}\n    ${css}`)
    : done.replace('</head>', () => `    ${css}\n  </head>`);
}

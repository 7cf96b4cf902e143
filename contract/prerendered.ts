import { PRERENDER_SITE_NAME, PRERENDER_SITE_NAME_IN_JSON } from './site-name.js';

/**
 * The origin the built shell (dist/client/index.html) holds in place of the site's own; the server
 * puts the deployment's SITE_URL there when it reads the shell, so one build serves any site.
 */
export const PRERENDER_SITE_URL = 'https://cohort-site-url.invalid';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as HTML text or an attribute's value, escaped as React escapes it: one way everywhere. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

/** A built page with this deployment's address and name in place of the build's. */
export function fillPrerenderedPage(html: string, site: { url: string; name: string }): string {
  const nameInHtml = escapeHtml(site.name);
  // A JSON string's content that no `</script>` or `<!--` inside can end early.
  const nameInJson = JSON.stringify(site.name).slice(1, -1).replace(/</g, '\\u003c');
  return html
    .replaceAll(PRERENDER_SITE_URL, () => site.url)
    .replaceAll(PRERENDER_SITE_NAME_IN_JSON, () => nameInJson)
    .replaceAll(PRERENDER_SITE_NAME, () => nameInHtml);
}

/** Open Graph details for pages worth sharing (articles). Title and description come along. */
export interface OpenGraph {
  type: 'article' | 'website';
  /** ISO date, for articles. */
  publishedTime?: string;
  section?: string;
  /**
   * The page's feature photo, an uploaded image's address (contract/images.ts), and its alt
   * text: link previews show its 1200×630 share copy, not the drawn title card.
   */
  image?: { url: string; alt: string };
}

/** What a page says about itself (client/src/lib/document-head.ts), as the prerender collects it. */
export interface PageHead {
  /** The full title, "Health · Cohort". */
  title: string;
  /** The page's own name, without the site's ("Health"): Open Graph's title, breadcrumbs. */
  name: string;
  description?: string;
  openGraph?: OpenGraph;
  /** 404 for the not-found page. */
  status: number;
}

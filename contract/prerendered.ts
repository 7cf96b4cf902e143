import { PRERENDER_SITE_NAME, PRERENDER_SITE_NAME_IN_JSON } from './site-name.js';
import { Type, type Static } from 'typebox';

/**
 * Where the build writes the prerendered pages (client/build/prerender.ts), relative to the project
 * root: beside dist/client, not in it, because their absolute addresses still hold
 * PRERENDER_SITE_URL, which the server replaces with the deployment's SITE_URL at start.
 */
export const PAGES_DIR = 'dist/pages';
export const PAGES_ROUTES_FILE = 'routes.json';

/** The origin written into the HTML at build time, in place of the site's own. */
export const PRERENDER_SITE_URL = 'https://cohort-site-url.invalid';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** A prerendered page with this deployment's address and name in place of the build's. */
export function fillPrerenderedPage(html: string, site: { url: string; name: string }): string {
  const nameInHtml = site.name.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
  // A JSON string's content that no `</script>` or `<!--` inside can end early.
  const nameInJson = JSON.stringify(site.name).slice(1, -1).replace(/</g, '\\u003c');
  return html
    .replaceAll(PRERENDER_SITE_URL, () => site.url)
    .replaceAll(PRERENDER_SITE_NAME_IN_JSON, () => nameInJson)
    .replaceAll(PRERENDER_SITE_NAME, () => nameInHtml);
}

/** What the server needs to answer page requests with the right HTML and status. */
export const PrerenderedRoutesSchema = Type.Object({
  /** Every prerendered page: its path and its file under PAGES_DIR. */
  pages: Type.Array(Type.Object({ path: Type.String({ pattern: '^/' }), file: Type.String() })),
  /** The not-found page's file, answered with 404. */
  notFound: Type.String(),
  /** The bare shell for the screens drawn only in the browser (sign-in, the account). */
  shell: Type.String(),
  /** Paths answered with the shell (200). */
  browserOnly: Type.Array(Type.String({ pattern: '^/' })),
  /** Old addresses answered with a 301 to their new page. */
  redirects: Type.Array(
    Type.Object({ from: Type.String({ pattern: '^/' }), to: Type.String({ pattern: '^/' }) }),
  ),
});
export type PrerenderedRoutes = Static<typeof PrerenderedRoutesSchema>;

/** Open Graph details for pages worth sharing (articles). Title and description come along. */
export interface OpenGraph {
  type: 'article' | 'website';
  /** ISO date, for articles. */
  publishedTime?: string;
  section?: string;
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

import { PRERENDER_SITE_NAME, SITE_NAME_META } from '../../../contract/site-name';

/** The name when the page carries none (Vite's dev server serves index.html unfilled). */
const DEFAULT_SITE_NAME = 'Cohort';

/**
 * The site's name. While prerendering (no document) it is PRERENDER_SITE_NAME, which the server
 * replaces with SITE_NAME at start; in the browser, the name the server wrote into the page being
 * hydrated (the meta tag index.html has for it), so the first render says exactly what the HTML
 * says. The same as `GET /api/config`'s `siteName`, without waiting for it. It never changes
 * while a page is open: a constant, not React state.
 */
function readSiteName(): string {
  if (typeof document === 'undefined') return PRERENDER_SITE_NAME;
  const name = document.querySelector<HTMLMetaElement>(`meta[name="${SITE_NAME_META}"]`)?.content;
  return name && name !== PRERENDER_SITE_NAME ? name : DEFAULT_SITE_NAME;
}
const siteName = readSiteName();

export function useSiteName(): string {
  return siteName;
}

import { createContext, useContext } from 'react';
import { PRERENDER_SITE_NAME, SITE_NAME_META } from '../../../contract/site-name';

/** The name when the page carries none (Vite's dev server serves index.html unfilled). */
const DEFAULT_SITE_NAME = 'Cohort';

/**
 * The name the server wrote into the page being hydrated (SITE_NAME, in the meta tag index.html
 * has for it), so the first render says exactly what the HTML says. The same as `GET /api/config`'s
 * `siteName`, without waiting for it.
 */
function readSiteName(): string {
  if (typeof document === 'undefined') return DEFAULT_SITE_NAME;
  const name = document.querySelector<HTMLMetaElement>(`meta[name="${SITE_NAME_META}"]`)?.content;
  return name && name !== PRERENDER_SITE_NAME ? name : DEFAULT_SITE_NAME;
}

/**
 * The site's name. The prerender gives PRERENDER_SITE_NAME, which the server replaces with SITE_NAME
 * at start (client/src/entry-server.tsx); in the browser, the name the page carries.
 */
export const SiteNameContext = createContext<string>(readSiteName());

export function useSiteName(): string {
  return useContext(SiteNameContext);
}

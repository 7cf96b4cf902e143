import { createContext, useContext, useEffect } from 'react';
import type { OpenGraph, PageHead } from '../../../contract/prerendered';
import { useSiteName } from './site-name';
/** index.html's description, restored on pages that have none of their own. */
let siteDescription: string | undefined;

export type { OpenGraph, PageHead };

/**
 * Given while prerendering (client/src/entry-server.tsx): the page being rendered writes its head
 * here, since effects never run on the server. Null in the browser.
 */
export const PageHeadContext = createContext<PageHead | null>(null);

/**
 * Sets the document title and the meta description for the page being shown (a page without a
 * description gets the site's default one back). While prerendering, records them for the HTML
 * instead, with the Open Graph details and the status (`status: 404` on the not-found page).
 * A page's title is followed by the site's name ("Health · Cohort"); `{ full }` is a title as it
 * stands (the home page's, which begins with the name).
 */
export function useDocumentHead(
  title: string | { full: string },
  description?: string,
  openGraph?: OpenGraph,
  status = 200,
) {
  const siteName = useSiteName();
  const name = typeof title === 'string' ? title : title.full;
  const fullTitle = typeof title === 'string' ? `${title} · ${siteName}` : title.full;
  const collecting = useContext(PageHeadContext);
  if (collecting) {
    Object.assign(collecting, { title: fullTitle, name, description, openGraph, status });
  }
  useEffect(() => {
    document.title = fullTitle;
    const descriptionTag = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (descriptionTag) {
      siteDescription ??= descriptionTag.content;
      descriptionTag.content = description ?? siteDescription;
    }
    forgetPrerenderedHead();
  }, [fullTitle, description]);
}

/** The page the prerendered head tags (canonical, Open Graph, JSON-LD) describe. */
let prerenderedPath: string | undefined;

/**
 * The prerendered head describes the page the browser first loaded; once the reader moves on to
 * another page, those tags would describe the wrong one, so they go (crawlers and link previews
 * read the HTML, never these later changes).
 */
function forgetPrerenderedHead() {
  prerenderedPath ??= window.location.pathname;
  if (window.location.pathname === prerenderedPath) return;
  for (const tag of document.head.querySelectorAll('[data-page-head]')) tag.remove();
}

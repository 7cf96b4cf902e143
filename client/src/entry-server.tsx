import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { StaticRouter } from './lib/router';
import { AppRoutes } from './app/router';
import { PageHeadContext, type PageHead } from './lib/document-head';
import { SessionProvider } from './lib/session/session-context';
import { PRERENDER_SITE_NAME } from '../../contract/site-name';
import type { SiteData } from '../../contract/site-data';
import { SiteDataContext } from './lib/site-data';

/**
 * One page as HTML, drawn by the server from `data` (server/src/site/), with what it said about
 * itself.
 * The site's name is PRERENDER_SITE_NAME, which the server replaces with SITE_NAME at start.
 * The same tree as the browser's App (main.tsx), with a StaticRouter, so `hydrateRoot` adopts
 * this HTML without a mismatch. A first pass (`prerender`) waits for every lazy screen and
 * article body; the second renders them all at once, so the HTML needs no inline script to put
 * late parts in place (the site's CSP allows none).
 */
export async function renderPage(
  path: string,
  data: SiteData,
): Promise<{ html: string; head: PageHead }> {
  const head: PageHead = { title: PRERENDER_SITE_NAME, name: PRERENDER_SITE_NAME, status: 200 };
  const page = (
    <StrictMode>
      <PageHeadContext value={head}>
        <SiteDataContext value={data}>
          <SessionProvider>
            <StaticRouter location={path}>
              <AppRoutes />
            </StaticRouter>
          </SessionProvider>
        </SiteDataContext>
      </PageHeadContext>
    </StrictMode>
  );
  await prerender(page);
  const html = renderToString(page);
  if (html.includes('<script')) throw new Error(`${path}: the page still waited on something`);
  return { html, head };
}

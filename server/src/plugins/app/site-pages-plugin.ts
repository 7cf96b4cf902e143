import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SitePages, type SitePagesOptions } from '../../site/site-pages.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The site's pages drawn from the published content (site/site-pages.ts). */
    sitePages: SitePagesSource;
  }
}

export interface SitePagesSource {
  /** The pages, once the app is ready; null when the client is not built (`npm run build`). */
  current(): SitePages | null;
}

/**
 * The pages the site draws with the client's server build, from the published content: opened
 * when the app is ready and drawn again from each new content. The page routes
 * (routes/pages), the link previews and the desk's preview draw from them.
 */
export default fp(
  async function sitePagesPlugin(app: FastifyInstance, options: SitePagesOptions) {
    let pages: SitePages | null = null;
    app.decorate('sitePages', { current: () => pages });
    app.addHook('onReady', async () => {
      pages = await SitePages.open(options, app.siteContent.current());
      if (!pages) {
        app.log.warn(`No build in ${options.clientDir}: run \`npm run build\` to serve the site.`);
      }
    });
    app.siteContent.onChange((content) => pages?.update(content));
  },
  { name: 'site-pages', dependencies: ['site-content'] },
);

import type { FastifyPluginAsync } from 'fastify';
import commentRoutes from './comments/index.js';
import configRoutes from './config/index.js';
import eventRoutes from './events/index.js';
import healthRoutes from './health/index.js';
import newsletterRoutes from './newsletter/index.js';
import newsletterIssueRoutes from './newsletter/issues.js';
import newsletterTrackingRoutes from './newsletter/tracking.js';
import pageRoutes from './pages/index.js';
import perkRoutes from './perks/index.js';
import searchRoutes from './search/index.js';
import sessionRoutes from './session/index.js';
import siteDataRoutes from './site-data/index.js';
import siteFileRoutes from './site-files/index.js';
import siteLookRoutes from './site-files/site-look.js';
import uploadedImageRoutes from './uploads/index.js';
import { siteNamed } from '../http/site-named.js';

/**
 * What any visitor's browser asks of the API and of the site's files: health, the run-time
 * configuration, the session, the content's data and files (sitemap, feeds), search, the
 * newsletter's sign-up and issues, the perks, uploaded images; then the pages, the screens of
 * contract/screens.ts, at every address no route has (routes/pages). The built client's files
 * are plugins/app/client-assets.ts.
 */
const publicSite: FastifyPluginAsync = async (app) => {
  const { config } = app;
  await app.register(healthRoutes);
  await app.register(configRoutes, { config });
  await app.register(sessionRoutes);
  await app.register(siteDataRoutes);
  await app.register(siteFileRoutes, { siteUrl: config.siteUrl });
  await app.register(siteLookRoutes, { store: app.imageStore });
  await app.register(searchRoutes);
  await app.register(newsletterRoutes, siteNamed(app, { sessionSecret: config.sessionSecret }));
  await app.register(newsletterIssueRoutes);
  await app.register(newsletterTrackingRoutes, {
    siteUrl: config.siteUrl,
    sessionSecret: config.sessionSecret,
    tracking: config.newsletterTracking,
  });
  await app.register(perkRoutes, { catalog: app.perkCatalog });
  await app.register(uploadedImageRoutes, { store: app.imageStore });
  await app.register(commentRoutes);
  await app.register(eventRoutes);
  await app.register(pageRoutes);
};

export default publicSite;

import type { FastifyPluginAsync } from 'fastify';
import accountRoutes from './account/index.js';
import accountPaymentRoutes from './account/payments.js';
import membershipMoveRoutes from './account/membership-moves.js';
import podcastFeedAccountRoutes from './account/podcast-feeds.js';
import authRoutes from './auth/index.js';
import passkeyRoutes from './auth/passkeys.js';
import { siteNamed } from '../http/site-named.js';

/**
 * Accounts: registering, signing in (password, link, code, passkey), and /account's requests (a
 * member's private podcast feeds among them).
 */
const accounts: FastifyPluginAsync = async (app) => {
  const { config } = app;
  // Their mails name the site as its settings do when each is sent.
  const site = siteNamed(app, { graceDays: config.membership.graceDays });
  await app.register(authRoutes, site);
  await app.register(passkeyRoutes, site);
  await app.register(accountRoutes, site);
  await app.register(accountPaymentRoutes);
  await app.register(membershipMoveRoutes, { graceDays: config.membership.graceDays });
  await app.register(podcastFeedAccountRoutes, { siteUrl: config.siteUrl });
};

export default accounts;

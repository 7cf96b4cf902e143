import type { FastifyPluginAsync } from 'fastify';
import accountRoutes from './account/index.js';
import accountPaymentRoutes from './account/payments.js';
import authRoutes from './auth/index.js';
import passkeyRoutes from './auth/passkeys.js';

/** Accounts: registering, signing in (password, link, code, passkey), and /account's requests. */
const accounts: FastifyPluginAsync = async (app) => {
  const { config } = app;
  const site = { siteUrl: config.siteUrl, siteName: config.siteName };
  await app.register(authRoutes, { ...site, graceDays: config.membership.graceDays });
  await app.register(passkeyRoutes, { ...site, graceDays: config.membership.graceDays });
  await app.register(accountRoutes, site);
  await app.register(accountPaymentRoutes);
};

export default accounts;

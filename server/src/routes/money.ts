import type { FastifyPluginAsync } from 'fastify';
import giftRoutes from './gifts/index.js';
import paymentRoutes from './payments/index.js';
import seatRoutes from './seats/index.js';

/** What a reader pays for: the membership's checkouts, gifts, and solidarity seats. */
const money: FastifyPluginAsync = async (app) => {
  const { config } = app;
  await app.register(paymentRoutes, { config });
  await app.register(giftRoutes, {
    siteName: config.siteName,
    graceDays: config.membership.graceDays,
  });
  await app.register(seatRoutes, { siteName: config.siteName });
};

export default money;

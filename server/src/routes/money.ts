import type { FastifyPluginAsync } from 'fastify';
import giftRoutes from './gifts/index.js';
import paymentRoutes from './payments/index.js';
import seatRoutes from './seats/index.js';

/** The routes that begin a payment: a membership's, a gift's, seats'. */
const CHECKOUT_ROUTES = new Set([
  '/create-payment-intent',
  '/api/checkout',
  '/api/gifts',
  '/api/seats',
]);

/** What a reader pays for: the membership's checkouts, gifts, and solidarity seats. */
const money: FastifyPluginAsync = async (app) => {
  const { config } = app;
  // A payment begun: what the reader read last waits for it (docs/analytics.md#what-is-counted).
  app.addHook('onSend', async (request, reply) => {
    if (reply.statusCode !== 200 || !CHECKOUT_ROUTES.has(request.routeOptions.url ?? '')) return;
    const session = await request.getSession().catch(() => null);
    if (!session) return;
    await app.analytics
      .rememberCheckout(request, session.userId)
      .catch((error: unknown) => request.log.error({ err: error }, 'could not keep a checkout'));
  });
  await app.register(paymentRoutes, { config });
  await app.register(giftRoutes, { graceDays: config.membership.graceDays });
  await app.register(seatRoutes);
};

export default money;

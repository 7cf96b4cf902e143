import type { FastifyInstance } from 'fastify';
import { ErrorResponseSchema, PaymentsResponseSchema } from '../../../../contract/api.js';
import { listPayments } from '../../memberships/memberships.js';
import { sessionOf } from '../../plugins/app/route-access.js';

/** The member's payments and the time each one covers, newest first, for the account page. */
export default async function accountPaymentRoutes(app: FastifyInstance) {
  app.get(
    '/api/account/payments',
    {
      schema: {
        response: {
          200: PaymentsResponseSchema,
          401: ErrorResponseSchema,
        },
      },
      config: { access: 'session', changesState: false },
    },
    async (request) => {
      const session = sessionOf(request);
      if (!session.user) return { payments: [] };
      return { payments: await listPayments(app, session.userId) };
    },
  );
}

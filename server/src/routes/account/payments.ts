import type { FastifyInstance } from 'fastify';
import { ErrorResponseSchema, PaymentsResponseSchema } from '../../../../contract/api.js';
import { listPayments } from '../../memberships/memberships.js';

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
    },
    async (request) => {
      const session = await request.requireSession();
      if (!session.user) return { payments: [] };
      return { payments: await listPayments(app, session.userId) };
    },
  );
}

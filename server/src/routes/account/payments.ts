import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ErrorResponseSchema } from '../../http/error-schema.js';
import { listPayments } from '../../memberships/memberships.js';

const PaymentSchema = Type.Object({
  id: Type.String(),
  kind: Type.Union([
    Type.Literal('one-time'),
    Type.Literal('subscription-invoice'),
    Type.Literal('comp'),
  ]),
  amountCents: Type.Integer(),
  currency: Type.String(),
  paidAt: Type.String({ format: 'date-time' }),
  state: Type.Union([
    Type.Literal('active'),
    Type.Literal('suspended'),
    Type.Literal('refunded'),
    Type.Literal('revoked'),
  ]),
  covers: Type.Union([
    Type.Object({
      from: Type.String({ format: 'date-time' }),
      until: Type.String({ format: 'date-time' }),
    }),
    Type.Null(),
  ]),
});

/** The member's payments and the time each one covers, newest first, for the account page. */
export default async function accountPaymentRoutes(app: FastifyInstance) {
  app.get(
    '/api/account/payments',
    {
      schema: {
        response: {
          200: Type.Object({ payments: Type.Array(PaymentSchema) }),
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

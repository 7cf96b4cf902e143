import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { changeEmail, requirePassword } from '../../accounts/accounts.js';
import { MAX_PASSWORD_LENGTH } from '../../accounts/passwords.js';
import { ErrorResponseSchema } from '../../http/error-schema.js';
import { HttpError } from '../../http/errors.js';
import { callStripe } from '../../memberships/stripe-state.js';
import { UserResponseSchema } from '../../users/user-schema.js';
import { findSessionUser, toUserView } from '../../users/users.js';

const Password = Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH * 2 });
const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
  409: ErrorResponseSchema,
  502: ErrorResponseSchema,
};

export default async function accountRoutes(app: FastifyInstance) {
  async function requireRegistered(request: FastifyRequest) {
    const session = await request.requireSession();
    if (!session.user?.email) {
      throw new HttpError(403, 'registration_required', 'Create an account first.');
    }
    return session;
  }

  /** A new email, also given to the Stripe customer so receipts go to the right place. */
  app.post<{ Body: { email: string; password: string } }>(
    '/api/account/email',
    {
      schema: {
        body: Type.Object(
          { email: Type.String({ minLength: 1, maxLength: 320 }), password: Password },
          { additionalProperties: false },
        ),
        response: { 200: UserResponseSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireRegistered(request);
      const changed = await changeEmail(app.db.prisma, { userId: session.userId, ...request.body });
      if (changed.stripeCustomerId && app.payments) {
        const customerId = changed.stripeCustomerId;
        await callStripe(() =>
          app.requirePayments().stripe.customers.update(customerId, { email: changed.email }),
        ).catch((error: unknown) =>
          // Our record is right; Stripe's copy catches up the next time the email changes.
          request.log.warn({ err: error }, 'could not update the email of the Stripe customer'),
        );
      }
      return {
        user: toUserView(session.userId, await findSessionUser(app.db, session.userId)),
      };
    },
  );

  /**
   * Deletes the account: a live subscription is cancelled at Stripe first (if that fails, nothing
   * is deleted), then the user and everything of theirs goes, and the browser starts afresh.
   */
  app.post<{ Body: { password: string } }>(
    '/api/account/delete',
    {
      schema: {
        body: Type.Object({ password: Password }, { additionalProperties: false }),
        response: { 200: UserResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireRegistered(request);
      await requirePassword(app.db.prisma, session.userId, request.body.password);
      const membership = await app.db.prisma.membership.findUnique({
        where: { userId: session.userId },
        select: { stripeSubscriptionId: true, status: true },
      });
      const subscriptionId = membership?.stripeSubscriptionId;
      if (subscriptionId && !['canceled', 'incomplete_expired'].includes(membership.status)) {
        await callStripe(() => app.requirePayments().stripe.subscriptions.cancel(subscriptionId));
      }
      await app.db.prisma.user.delete({ where: { id: session.userId } });
      const userId = await app.sessions.startAnonymous(request, reply);
      return { user: toUserView(userId, null) };
    },
  );
}

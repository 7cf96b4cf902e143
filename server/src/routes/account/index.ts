import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  AccountDeleteBodySchema,
  EmailChangeBodySchema,
  ErrorResponseSchema,
  UserResponseSchema,
} from '../../../../contract/api.js';
import { changeEmail, requirePassword } from '../../accounts/accounts.js';
import { HttpError } from '../../http/errors.js';
import { deleteUserAndLedger, liveSubscriptionIds } from '../../memberships/memberships.js';
import { callStripe } from '../../stripe/call-stripe.js';
import { cancelSubscription } from '../../stripe/stripe-actions.js';
import { findSessionUser, toUser } from '../../users/users.js';

const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
  409: ErrorResponseSchema,
  502: ErrorResponseSchema,
};

const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  async function requireRegistered(request: FastifyRequest) {
    const session = await request.requireSession();
    if (!session.user?.email) {
      throw new HttpError(403, 'registration_required', 'Create an account first.');
    }
    return session;
  }

  /** A new email, also given to the Stripe customer so receipts go to the right place. */
  app.post(
    '/api/account/email',
    {
      schema: {
        body: EmailChangeBodySchema,
        response: { 200: UserResponseSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireRegistered(request);
      const changed = await changeEmail(app, { userId: session.userId, ...request.body });
      for (const customerId of app.payments ? changed.stripeCustomerIds : []) {
        await callStripe(() =>
          app.requirePayments().stripe.customers.update(customerId, { email: changed.email }),
        ).catch((error: unknown) =>
          // Our record is right; Stripe's copy catches up the next time the email changes.
          request.log.warn({ err: error }, 'could not update the email of the Stripe customer'),
        );
      }
      return {
        user: toUser(session.userId, await findSessionUser(app, session.userId)),
      };
    },
  );

  /**
   * Deletes the account: every live Cohort subscription is cancelled at Stripe first (if that
   * fails, nothing is deleted), then the user and everything of theirs goes, their id stays marked
   * deleted so no late payment brings them back, and the browser starts afresh.
   */
  app.post(
    '/api/account/delete',
    {
      schema: {
        body: AccountDeleteBodySchema,
        response: { 200: UserResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireRegistered(request);
      await requirePassword(app, session.userId, request.body.password);
      for (const subscriptionId of await liveSubscriptionIds(app, session.userId)) {
        await cancelSubscription(app.requirePayments(), subscriptionId);
      }
      await deleteUserAndLedger(app, session.userId);
      const userId = await app.sessions.startAnonymous(request, reply);
      return { user: toUser(userId, null) };
    },
  );
};

export default accountRoutes;

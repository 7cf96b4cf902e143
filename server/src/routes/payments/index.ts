import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppConfig } from '../../config.js';
import { withTransaction } from '../../db/transaction.js';
import {
  ClientSecretResponseSchema,
  ErrorResponseSchema,
  PaymentIntentBodySchema,
  UrlResponseSchema,
  UserResponseSchema,
} from '../../../../contract/api.js';
import { HttpError } from '../../http/errors.js';
import { applyPaymentFacts } from '../../memberships/ledger.js';
import {
  billingCustomerOf,
  hasOpenSubscription,
  isMembershipActive,
  isSameUser,
} from '../../memberships/memberships.js';
import { retrieveOrNull } from '../../stripe/call-stripe.js';
import {
  createEarlyAccessPayment,
  createMembershipCheckout,
  createPortalUrl,
  type SubscriptionPlan,
} from '../../stripe/membership-checkout.js';
import { CheckoutBodySchema } from '../../../../contract/plans-api.js';
import { planUnavailable } from '../../memberships/plans.js';
import { settleLedgerChange } from '../../stripe/handle-stripe-event.js';
import { EARLY_ACCESS_OFFER } from '../../../../contract/constants.js';
import { readCheckoutFacts } from '../../stripe/read-payment-facts.js';
import { findSessionUser, toUser } from '../../users/users.js';

const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
  502: ErrorResponseSchema,
  503: ErrorResponseSchema,
};

/** Checkout Session ids as Stripe makes them. */
const CHECKOUT_SESSION_ID = '^cs_[A-Za-z0-9_]{1,250}$';

const alreadyMember = () =>
  new HttpError(409, 'already_member', 'You are already a member: there is nothing to pay.');

const paymentRoutes: FastifyPluginAsyncTypebox<{ config: AppConfig }> = async (app, options) => {
  const { siteUrl, siteName, membership } = options.config;

  /** The early-access form: a PaymentIntent for the one-year membership, priced here. */
  app.post(
    '/create-payment-intent',
    {
      schema: {
        body: PaymentIntentBodySchema,
        response: { 200: ClientSecretResponseSchema, ...errors },
      },
    },
    async (request) => {
      const payments = app.requirePayments();
      const session = await request.requireSession();
      const unknown = request.body.items.find((item) => item.id !== EARLY_ACCESS_OFFER);
      if (unknown) {
        throw new HttpError(
          400,
          'unknown_item',
          `Unknown item "${unknown.id.slice(0, 100)}": the only item is "${EARLY_ACCESS_OFFER}".`,
        );
      }
      if (request.body.items.length > 1) {
        throw new HttpError(
          400,
          'invalid_items',
          `Only one "${EARLY_ACCESS_OFFER}" membership can be bought at a time.`,
        );
      }
      if (isMembershipActive(session.user?.membership ?? null)) throw alreadyMember();
      const plans = await app.plans.list();
      const plan = plans.find((each) => each.id === EARLY_ACCESS_OFFER && each.enabled);
      if (!plan) throw planUnavailable(EARLY_ACCESS_OFFER, plans);
      // No user row yet: the payment's webhook creates it, so a failed call leaves nothing behind.
      const clientSecret = await createEarlyAccessPayment(payments, {
        userId: session.userId,
        siteName,
        plan,
      });
      return { clientSecret };
    },
  );

  /**
   * Join / Join Now: a Stripe-hosted Checkout for the monthly or yearly subscription (`plan`; the
   * yearly one when none is named, as before plans). One subscription per user: someone who has
   * one (live or still being paid) gets the billing portal instead.
   */
  app.post(
    '/api/checkout',
    { schema: { body: CheckoutBodySchema, response: { 200: UrlResponseSchema, ...errors } } },
    async (request) => {
      const payments = app.requirePayments();
      const session = await request.requireSession();
      const plans = await app.plans.list();
      const wanted = request.body?.plan ?? 'yearly';
      const plan = plans.find(
        (each): each is SubscriptionPlan => each.id === wanted && each.enabled,
      );
      if (!plan) throw planUnavailable(wanted, plans);
      const user = session.user;
      const customerId = user ? await billingCustomerOf(app, session.userId) : null;
      const subscribed = user ? await hasOpenSubscription(app, session.userId) : false;
      if (subscribed || isMembershipActive(user?.membership ?? null)) {
        if (!customerId) throw alreadyMember();
        return { url: await portalUrl(customerId) };
      }
      const url = await createMembershipCheckout(payments, {
        userId: session.userId,
        email: user?.email ?? null,
        customerId,
        siteUrl,
        siteName,
        plan,
      });
      return { url };
    },
  );

  /** The return from Checkout: ask Stripe itself whether this visitor's session was paid. */
  app.get(
    '/api/checkout/:id',
    {
      schema: {
        params: Type.Object({ id: Type.String({ pattern: CHECKOUT_SESSION_ID }) }),
        response: { 200: UserResponseSchema, ...errors },
      },
    },
    async (request) => {
      const payments = app.requirePayments();
      const session = await request.requireSession();
      const checkout = await retrieveOrNull(payments.stripe, 'read a Checkout Session', (stripe) =>
        stripe.checkout.sessions.retrieve(request.params.id),
      );
      const payer = checkout?.client_reference_id ?? checkout?.metadata?.userId ?? null;
      if (!checkout || !payer || !(await isSameUser(app, payer, session.userId))) {
        throw new HttpError(404, 'not_found', 'No such checkout for this visitor.');
      }
      const facts = await readCheckoutFacts(payments, checkout);
      if (facts.length > 0) {
        const change = await withTransaction(app.db.pool, (tx) =>
          applyPaymentFacts(tx, facts, { graceDays: membership.graceDays }),
        );
        await settleLedgerChange({ ...payments, db: app.db, log: request.log }, change);
      }
      return {
        user: toUser(session.userId, await findSessionUser(app, session.userId)),
      };
    },
  );

  app.post(
    '/api/billing-portal',
    { schema: { response: { 200: UrlResponseSchema, ...errors, 403: ErrorResponseSchema } } },
    async (request) => {
      app.requirePayments();
      const session = await request.requireSession();
      if (!session.user?.email) {
        throw new HttpError(403, 'registration_required', 'Create an account to manage billing.');
      }
      const customerId = await billingCustomerOf(app, session.userId);
      if (!customerId) {
        throw new HttpError(409, 'no_billing_account', 'There is no subscription to manage yet.');
      }
      return { url: await portalUrl(customerId) };
    },
  );

  const portalUrl = (customerId: string) =>
    createPortalUrl(app.requirePayments(), { customerId, returnUrl: `${siteUrl}/account` });
};

export default paymentRoutes;

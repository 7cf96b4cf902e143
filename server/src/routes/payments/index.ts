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
import { applyPaymentFacts } from '../../stripe/apply-payment-facts.js';
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
  switchSubscriptionPlan,
  type SubscriptionPlan,
} from '../../stripe/membership-checkout.js';
import { CheckoutBodySchema, SwitchPlanBodySchema } from '../../../../contract/plans-api.js';
import { PLAN_SHAPES } from '../../../../contract/plan-rules.js';
import { idOf } from '../../stripe/call-stripe.js';
import { isCohortPrice } from '../../stripe/cohort-sales.js';
import { mayStartTrial, planUnavailable } from '../../memberships/plan-catalog.js';
import { discountedCents, findOffer } from '../../memberships/offers.js';
import { redeemOffer } from '../../memberships/offer-redemptions.js';
import { stopOfferPayment } from '../../stripe/stop-offer-payment.js';
import { settleLedgerChange } from '../../stripe/handle-stripe-event.js';
import { EARLY_ACCESS_OFFER } from '../../../../contract/constants.js';
import {
  readCheckoutFacts,
  readInvoiceFact,
  readSubscriptionFact,
} from '../../stripe/read-payment-facts.js';
import { accountOf, sessionOf } from '../../plugins/app/route-access.js';
import { findSessionUser, toUser } from '../../users/users.js';

const errors = {
  400: ErrorResponseSchema,
  402: ErrorResponseSchema,
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
  const { siteUrl, membership } = options.config;
  /** The publication's name now, for Stripe's descriptions: the desk may have renamed it. */
  const siteNameNow = () => app.siteContent.current().settings.title;

  /** The early-access form: a PaymentIntent for the one-year membership, priced here. */
  app.post(
    '/create-payment-intent',
    {
      schema: {
        body: PaymentIntentBodySchema,
        response: { 200: ClientSecretResponseSchema, ...errors },
      },
      config: { access: 'session', changesState: true, needsPayments: true },
    },
    async (request) => {
      const payments = app.requirePayments();
      const session = sessionOf(request);
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
      const offer = request.body.offer
        ? await findOffer(app.db.pool, request.body.offer, 'early-access', session.userId)
        : null;
      const amountCents = offer ? discountedCents(offer, plan.amountCents) : plan.amountCents;
      const payment = { userId: session.userId, siteName: siteNameNow(), plan };
      // No user row yet: the payment's webhook creates it, so a failed call leaves nothing behind
      // (an offer's redemption held for it is given up).
      const { clientSecret } = offer
        ? await redeemOffer(
            { pool: app.db.pool, stopPayment: stopOfferPayment(payments.stripe) },
            { offer, userId: session.userId, plan: 'early-access' },
            (hold) =>
              createEarlyAccessPayment(payments, {
                ...payment,
                offer: { id: offer.id, amountCents, hold },
              }),
          )
        : await createEarlyAccessPayment(payments, payment);
      return { clientSecret, amountCents, fullPriceCents: plan.amountCents };
    },
  );

  /**
   * Join / Join Now: a Stripe-hosted Checkout for the monthly or yearly subscription (`plan`; the
   * yearly one when none is named, as before plans). One subscription per user: someone who has
   * one (live or still being paid) gets the billing portal instead.
   */
  app.post(
    '/api/checkout',
    {
      schema: { body: CheckoutBodySchema, response: { 200: UrlResponseSchema, ...errors } },
      config: { access: 'session', changesState: true, needsPayments: true },
    },
    async (request) => {
      const payments = app.requirePayments();
      const session = sessionOf(request);
      const plans = await app.plans.list();
      const wanted = request.body?.plan ?? 'yearly';
      const plan = plans.find(
        (each): each is SubscriptionPlan => each.id === wanted && each.enabled,
      );
      if (!plan) throw planUnavailable(wanted, plans);
      const offer = request.body?.offer
        ? await findOffer(app.db.pool, request.body.offer, plan.id, session.userId)
        : null;
      if (offer && !offer.stripePromotionCodeId) {
        throw new HttpError(
          400,
          'offer_invalid',
          `The offer “${offer.code}” is not for subscriptions.`,
        );
      }
      const user = session.user;
      const customerId = user ? await billingCustomerOf(app, session.userId) : null;
      const subscribed = user ? await hasOpenSubscription(app, session.userId) : false;
      if (subscribed || isMembershipActive(user?.membership ?? null)) {
        if (!customerId) throw alreadyMember();
        return { url: await portalUrl(customerId) };
      }
      const trial =
        plan.trialDays > 0 &&
        user &&
        (await mayStartTrial(app.db.pool, {
          userId: session.userId,
          email: user.email,
          emailVerified: user.emailVerified,
        }))
          ? { days: plan.trialDays, needsCard: plan.trialNeedsCard }
          : undefined;
      const checkout = {
        userId: session.userId,
        email: user?.email ?? null,
        customerId,
        siteUrl,
        siteName: siteNameNow(),
        plan,
        ...(trial && { trial }),
      };
      const promotionCodeId = offer?.stripePromotionCodeId;
      const { url } =
        offer && promotionCodeId
          ? await redeemOffer(
              { pool: app.db.pool, stopPayment: stopOfferPayment(payments.stripe) },
              { offer, userId: session.userId, plan: plan.id },
              (hold) =>
                createMembershipCheckout(payments, {
                  ...checkout,
                  offer: { id: offer.id, promotionCodeId, hold },
                }),
            )
          : await createMembershipCheckout(payments, checkout);
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
      config: { access: 'session', changesState: true, needsPayments: true },
    },
    async (request) => {
      const payments = app.requirePayments();
      const session = sessionOf(request);
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

  /**
   * A member switches their subscription between the monthly and the yearly plan
   * (docs/decisions/0022-plans.md): Stripe starts the new period now, credits the old one's unused
   * time and charges the rest at once; the ledger records the invoice as it does any, so the time
   * covered is the time paid.
   */
  app.post(
    '/api/account/plan',
    {
      schema: {
        body: SwitchPlanBodySchema,
        response: { 200: UserResponseSchema, ...errors, 403: ErrorResponseSchema },
      },
      config: {
        access: 'signed-in',
        changesState: true,
        needsPayments: true,
        refusal: { message: 'Create an account to manage billing.' },
      },
    },
    async (request) => {
      const payments = app.requirePayments();
      const session = accountOf(request);
      const plans = await app.plans.list();
      const plan = plans.find(
        (each): each is SubscriptionPlan => each.id === request.body.plan && each.enabled,
      );
      if (!plan) throw planUnavailable(request.body.plan, plans);
      const { rows } = await app.db.pool.query<{ id: string; status: string }>(
        `SELECT id, status FROM subscriptions WHERE "userId" = $1 AND status IN ('active', 'trialing')
          ORDER BY "stripeCreatedAt" DESC LIMIT 1`,
        [session.userId],
      );
      if (rows[0]?.status === 'trialing') {
        throw new HttpError(
          409,
          'in_trial',
          'Your free trial runs until its end on the plan you chose: switch after it, from this page.',
        );
      }
      const subscriptionId = rows[0]?.id;
      if (!subscriptionId) {
        throw new HttpError(
          409,
          'no_subscription',
          'You have no running subscription to switch: join with the plan you want instead.',
        );
      }
      const current = await retrieveOrNull(payments.stripe, 'read a subscription', (stripe) =>
        stripe.subscriptions.retrieve(subscriptionId),
      );
      const item = current?.items.data.find((each) =>
        isCohortPrice(each.price, payments.membershipPrice),
      );
      if (!current || !item) {
        throw new HttpError(
          409,
          'no_subscription',
          'Your subscription could not be found at Stripe.',
        );
      }
      if (item.price.recurring?.interval === PLAN_SHAPES[plan.id].interval) {
        throw new HttpError(409, 'already_on_plan', `You are on the ${plan.id} plan already.`);
      }
      const switched = await switchSubscriptionPlan(payments, {
        subscriptionId,
        itemId: item.id,
        plan,
        siteName: siteNameNow(),
      });
      if (switched.pending_update) {
        throw new HttpError(
          402,
          'payment_failed',
          'Your card was not charged for the new plan, so nothing changed: update your card in billing and try again.',
        );
      }
      // The new invoice on the ledger now (the webhook brings the same, and changes nothing more).
      const invoiceId = idOf(switched.latest_invoice);
      const facts = [
        await readSubscriptionFact(payments, subscriptionId),
        invoiceId ? await readInvoiceFact(payments, invoiceId) : null,
      ].filter((fact) => fact !== null);
      if (facts.length > 0) {
        const change = await withTransaction(app.db.pool, (tx) =>
          applyPaymentFacts(tx, facts, { graceDays: membership.graceDays }),
        );
        await settleLedgerChange({ ...payments, db: app.db, log: request.log }, change);
      }
      return { user: toUser(session.userId, await findSessionUser(app, session.userId)) };
    },
  );

  app.post(
    '/api/billing-portal',
    {
      schema: { response: { 200: UrlResponseSchema, ...errors, 403: ErrorResponseSchema } },
      config: {
        access: 'signed-in',
        changesState: false,
        needsPayments: true,
        refusal: { message: 'Create an account to manage billing.' },
      },
    },
    async (request) => {
      const session = accountOf(request);
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

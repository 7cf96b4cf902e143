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
  type MembershipState,
} from '../../memberships/memberships.js';
import { retrieveOrNull } from '../../stripe/call-stripe.js';
import {
  createEarlyAccessPayment,
  createMembershipCheckout,
  createPortalUrl,
  type SubscriptionPlan,
} from '../../stripe/membership-checkout.js';
import { CheckoutBodySchema } from '../../../../contract/plans-api.js';
import { chosenTier, type TierCatalog, type TierRow } from '../../memberships/tier-catalog.js';
import { mayStartTrial, planUnavailable } from '../../memberships/plan-catalog.js';
import { discountedCents, findOffer } from '../../memberships/offers.js';
import { redeemOffer } from '../../memberships/offer-redemptions.js';
import { stopOfferPayment } from '../../stripe/stop-offer-payment.js';
import { settleLedgerChange } from '../../stripe/handle-stripe-event.js';
import { EARLY_ACCESS_OFFER } from '../../../../contract/constants.js';
import { readCheckoutFacts } from '../../stripe/read-payment-facts.js';
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

/**
 * A member asks to pay again: nothing to pay for their own tier; for another, a running
 * subscription moves on /account, and a membership paid once is that tier's to its end.
 */
function memberAlready(
  catalog: TierCatalog,
  membership: MembershipState | null,
  wanted: TierRow,
): HttpError {
  const held = catalog.tiers.find((tier) => tier.slug === membership?.tier);
  if (!held || held.id === wanted.id) {
    return new HttpError(
      409,
      'already_member',
      'You are already a member: there is nothing to pay.',
    );
  }
  return new HttpError(
    409,
    'already_member',
    membership?.plan === 'subscription'
      ? `You are a ${held.name} member: move to ${wanted.name} from your account page.`
      : `You are a ${held.name} member until your membership ends: join ${wanted.name} then.`,
  );
}

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
      const catalog = await app.plans.catalog();
      const tier = chosenTier(catalog.tiers, request.body.tier);
      const current = session.user?.membership ?? null;
      if (isMembershipActive(current)) throw memberAlready(catalog, current, tier);
      const plans = catalog.plans.get(tier.id) ?? [];
      const plan = plans.find((each) => each.id === EARLY_ACCESS_OFFER && each.enabled);
      if (!plan) throw planUnavailable(EARLY_ACCESS_OFFER, plans);
      const offer = request.body.offer
        ? await findOffer(app.db.pool, request.body.offer, 'early-access', session.userId, tier.id)
        : null;
      const amountCents = offer ? discountedCents(offer, plan.amountCents) : plan.amountCents;
      const payment = { userId: session.userId, siteName: siteNameNow(), plan, tier };
      // No user row yet: the payment's webhook creates it, so a failed call leaves nothing behind
      // (an offer's redemption held for it is given up).
      const { clientSecret } = offer
        ? await redeemOffer(
            { pool: app.db.pool, stopPayment: stopOfferPayment(payments.stripe) },
            { offer, userId: session.userId, plan: 'early-access', tierId: tier.id },
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
   * yearly one when none is named, as before plans) of a tier (`tier`, by slug; the default tier
   * when none is named). One subscription per user: someone who has one (live or still being paid)
   * gets the billing portal instead, or, asking for another tier, is sent to /account to move.
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
      const catalog = await app.plans.catalog();
      const tier = chosenTier(catalog.tiers, request.body?.tier);
      const plans = catalog.plans.get(tier.id) ?? [];
      const wanted = request.body?.plan ?? 'yearly';
      const plan = plans.find(
        (each): each is SubscriptionPlan => each.id === wanted && each.enabled,
      );
      if (!plan) throw planUnavailable(wanted, plans);
      const offer = request.body?.offer
        ? await findOffer(app.db.pool, request.body.offer, plan.id, session.userId, tier.id)
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
      const current = user?.membership ?? null;
      if (subscribed || isMembershipActive(current)) {
        // Another tier, asked for by name: a move, made from /account (a Join without one is
        // the member's own membership, managed in the billing portal).
        const held = current?.tier;
        const otherTier =
          request.body?.tier !== undefined && held !== undefined && held !== tier.slug;
        if (!customerId || otherTier) throw memberAlready(catalog, current, tier);
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
        tier,
        ...(trial && { trial }),
      };
      const promotionCodeId = offer?.stripePromotionCodeId;
      const { url } =
        offer && promotionCodeId
          ? await redeemOffer(
              { pool: app.db.pool, stopPayment: stopOfferPayment(payments.stripe) },
              { offer, userId: session.userId, plan: plan.id, tierId: tier.id },
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

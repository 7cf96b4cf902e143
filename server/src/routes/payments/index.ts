import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { AppConfig } from '../../config.js';
import { withTransaction } from '../../db/transaction.js';
import { ErrorResponseSchema } from '../../http/error-schema.js';
import { HttpError } from '../../http/errors.js';
import { applySubscriptionState, isMembershipActive } from '../../memberships/memberships.js';
import { callStripe, checkoutSessionState } from '../../memberships/stripe-state.js';
import { EARLY_ACCESS_OFFER } from '../../stripe-events/stripe-event-effects.js';
import { UserResponseSchema } from '../../users/user-schema.js';
import { findSessionUser, toUserView } from '../../users/users.js';

const PaymentIntentBodySchema = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        { id: Type.String({ minLength: 1, maxLength: 100 }) },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 10 },
    ),
  },
  { additionalProperties: false },
);

const UrlResponseSchema = Type.Object({ url: Type.String() });
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

export default async function paymentRoutes(app: FastifyInstance, options: { config: AppConfig }) {
  const { siteUrl, siteName, membership } = options.config;

  /** The early-access form: a PaymentIntent for the one-year membership, priced here. */
  app.post<{ Body: Static<typeof PaymentIntentBodySchema> }>(
    '/create-payment-intent',
    {
      schema: {
        body: PaymentIntentBodySchema,
        response: { 200: Type.Object({ clientSecret: Type.String() }), ...errors },
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

      // No user row yet: the payment's webhook creates it, so a failed call leaves nothing behind.
      // The same visitor asking twice the same day (a double submit, a reload) gets the same
      // PaymentIntent back from Stripe rather than a second one.
      const day = new Date().toISOString().slice(0, 10);
      const intent = await callStripe(() =>
        payments.stripe.paymentIntents.create(
          {
            amount: membership.priceCents,
            currency: membership.currency,
            automatic_payment_methods: { enabled: true },
            description: `${siteName} early access: one year of membership`,
            metadata: { userId: session.userId, offer: EARLY_ACCESS_OFFER },
          },
          {
            idempotencyKey: `${EARLY_ACCESS_OFFER}:${session.userId}:${membership.priceCents}:${day}`,
          },
        ),
      );
      if (!intent.client_secret)
        throw new Error('Stripe returned a PaymentIntent without a client secret');
      return { clientSecret: intent.client_secret };
    },
  );

  /** Join / Join Now: a Stripe-hosted Checkout for the yearly subscription (members: the portal). */
  app.post(
    '/api/checkout',
    { schema: { response: { 200: UrlResponseSchema, ...errors } } },
    async (request) => {
      const payments = app.requirePayments();
      const session = await request.requireSession();
      const user = session.user;
      if (isMembershipActive(user?.membership ?? null)) {
        if (!user?.stripeCustomerId) throw alreadyMember();
        return { url: await createPortalUrl(user.stripeCustomerId) };
      }
      const checkout = await callStripe(() =>
        payments.stripe.checkout.sessions.create({
          mode: 'subscription',
          line_items: [
            payments.priceId
              ? { price: payments.priceId, quantity: 1 }
              : {
                  quantity: 1,
                  price_data: {
                    currency: membership.currency,
                    unit_amount: membership.priceCents,
                    recurring: { interval: 'year' },
                    product_data: { name: `${siteName} membership` },
                  },
                },
          ],
          client_reference_id: session.userId,
          metadata: { userId: session.userId },
          subscription_data: { metadata: { userId: session.userId } },
          ...(user?.stripeCustomerId
            ? { customer: user.stripeCustomerId }
            : user?.email
              ? { customer_email: user.email }
              : {}),
          success_url: `${siteUrl}/?checkout_session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${siteUrl}/`,
        }),
      );
      if (!checkout.url) throw new Error('Stripe returned a Checkout Session without a URL');
      return { url: checkout.url };
    },
  );

  /** The return from Checkout: ask Stripe itself whether this visitor's session was paid. */
  app.get<{ Params: { id: string } }>(
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
      const checkout = await callStripe(() =>
        payments.stripe.checkout.sessions.retrieve(request.params.id),
      ).catch((error: unknown) => {
        if ((error as { statusCode?: number }).statusCode === 404) return null;
        throw error;
      });
      const owner = checkout?.client_reference_id ?? checkout?.metadata?.userId;
      if (!checkout || owner !== session.userId) {
        throw new HttpError(404, 'not_found', 'No such checkout for this visitor.');
      }
      const state = await checkoutSessionState(payments.stripe, checkout);
      if (state) await withTransaction(app.db.pool, (tx) => applySubscriptionState(tx, state));
      return {
        user: toUserView(session.userId, await findSessionUser(app.db, session.userId)),
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
      if (!session.user.stripeCustomerId) {
        throw new HttpError(409, 'no_billing_account', 'There is no subscription to manage yet.');
      }
      return { url: await createPortalUrl(session.user.stripeCustomerId) };
    },
  );

  async function createPortalUrl(customerId: string): Promise<string> {
    const portal = await callStripe(() =>
      app.requirePayments().stripe.billingPortal.sessions.create({
        customer: customerId,
        return_url: `${siteUrl}/account`,
      }),
    );
    return portal.url;
  }
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { isValidEmail, normalizeEmail } from '../../../../contract/account-rules.js';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import {
  MySeatsSchema,
  SeatFundingBodySchema,
  SeatPaymentSchema,
  SeatPoolSchema,
  SeatRequestBodySchema,
  SeatRequestSchema,
} from '../../../../contract/seats.js';
import { givenTier } from '../../gifts/given-tier.js';
import { HttpError } from '../../http/errors.js';
import { accountOf, sessionOf } from '../../plugins/app/route-access.js';
import { readMySeats, readSeatPool, requestSeat, withdrawSeatRequest } from '../../seats/seats.js';
import { createSeatsPayment } from '../../stripe/membership-checkout.js';

const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  409: ErrorResponseSchema,
  502: ErrorResponseSchema,
  503: ErrorResponseSchema,
};

/** The refusal of a seat's request to a reader without an account. */
const SIGN_IN_FIRST = 'Sign in, or create an account, first: a seat is kept on your account.';

/**
 * Solidarity seats (docs/payments.md#solidarity-seats): a supporter pays for years of a tier for
 * readers who cannot pay; a reader asks for one with a note; the site shows how many were given.
 */
const seatRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/seats',
    {
      schema: { body: SeatFundingBodySchema, response: { 200: SeatPaymentSchema, ...errors } },
      config: { access: 'session', changesState: true, needsPayments: true },
    },
    async (request) => {
      const payments = app.requirePayments();
      const session = sessionOf(request);
      let supporterEmail = session.user?.email ?? null;
      if (!supporterEmail && request.body.supporterEmail) {
        supporterEmail = normalizeEmail(request.body.supporterEmail);
        if (!isValidEmail(supporterEmail)) {
          throw new HttpError(400, 'invalid_email', 'Your address is not a valid email address.');
        }
      }
      // Each seat is a year of its tier, at that tier's year paid once now.
      const given = givenTier(await app.plans.catalog(), request.body.tier, 'funded as seats');
      const seats = request.body.seats;
      const price = { priceCents: given.yearCents * seats, currency: given.currency };
      const { clientSecret } = await createSeatsPayment(payments, {
        funding: { supporterUserId: session.userId, supporterEmail, seats, tierId: given.tier.id },
        // The publication's name now: the desk may have renamed it since start-up.
        siteName: app.siteContent.current().settings.title,
        price,
      });
      return {
        clientSecret,
        seats,
        tier: given.tier.slug,
        amountCents: price.priceCents,
        currency: price.currency,
      };
    },
  );

  app.get(
    '/api/seats/pool',
    {
      schema: { response: { 200: SeatPoolSchema, 503: ErrorResponseSchema } },
      config: { access: 'anyone', changesState: false },
    },
    // Three counts on indexed columns: read fresh, so a reader just granted a seat sees it counted.
    async () => readSeatPool(app.db.pool),
  );

  app.get(
    '/api/seats/mine',
    {
      schema: { response: { 200: MySeatsSchema, ...errors } },
      config: { access: 'session', changesState: false },
    },
    async (request) => {
      const session = sessionOf(request);
      if (!session.user) return { requests: [], fundings: [] };
      return readMySeats(app.db.pool, session.userId);
    },
  );

  app.post(
    '/api/seats/requests',
    {
      schema: {
        body: SeatRequestBodySchema,
        response: { 201: Type.Object({ request: SeatRequestSchema }), ...errors },
      },
      config: {
        access: 'signed-in',
        changesState: true,
        refusal: { status: 401, code: 'sign_in_required', message: SIGN_IN_FIRST },
      },
    },
    async (request, reply) => {
      const session = accountOf(request);
      const made = await requestSeat(app.db.pool, {
        userId: session.userId,
        note: request.body.note,
      });
      app.giving.deliverSoon(); // the month's automatic grants may take it at once
      return reply.code(201).send({ request: made });
    },
  );

  app.delete(
    '/api/seats/requests/mine',
    {
      schema: { response: { 200: Type.Object({ withdrawn: Type.Boolean() }), ...errors } },
      config: {
        access: 'signed-in',
        changesState: true,
        refusal: { status: 401, code: 'sign_in_required', message: SIGN_IN_FIRST },
      },
    },
    async (request) => {
      const session = accountOf(request);
      return { withdrawn: await withdrawSeatRequest(app.db.pool, session.userId) };
    },
  );
};

export default seatRoutes;

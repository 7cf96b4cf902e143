import { Type, type Static } from 'typebox';
import { MAX_SEATS_PER_PAYMENT, SEAT_NOTE_MAX } from './seat-rules.js';
import { TierChoiceSchema } from './tiers.js';

// Solidarity seats (docs/decisions/0024): supporters fund years for readers who cannot pay; readers
// ask for one with a short note; owners grant requests in the desk, or a number each month is
// granted on its own, first come first served.

export * from './seat-rules.js';

/**
 * POST /api/seats: the supporter's session pays for `seats` years of `tier` (a visible tier's slug;
 * the default tier when left out).
 */
export const SeatFundingBodySchema = Type.Object(
  {
    seats: Type.Integer({ minimum: 1, maximum: MAX_SEATS_PER_PAYMENT }),
    tier: Type.Optional(TierChoiceSchema),
    supporterEmail: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
  },
  { additionalProperties: false },
);

export const SeatPaymentSchema = Type.Object({
  clientSecret: Type.String(),
  seats: Type.Integer(),
  /** The slug of the tier each seat is a year of. */
  tier: Type.String(),
  amountCents: Type.Integer(),
  currency: Type.String(),
});

/** GET /api/seats/pool: what the site may show ("42 memberships given"). */
export const SeatPoolSchema = Type.Object({
  given: Type.Integer(),
  available: Type.Integer(),
  waiting: Type.Integer(),
});
export type SeatPool = Static<typeof SeatPoolSchema>;

/** POST /api/seats/requests. */
export const SeatRequestBodySchema = Type.Object(
  { note: Type.String({ maxLength: SEAT_NOTE_MAX * 2 }) },
  { additionalProperties: false },
);

export const SeatRequestSchema = Type.Object({
  id: Type.String(),
  note: Type.String(),
  state: Type.Union([
    Type.Literal('open'),
    Type.Literal('granted'),
    Type.Literal('declined'),
    Type.Literal('withdrawn'),
  ]),
  createdAt: Type.String(),
  decidedAt: Type.Union([Type.String(), Type.Null()]),
});
export type SeatRequest = Static<typeof SeatRequestSchema>;

/** GET /api/seats/mine: the reader's requests and the seats they funded, with how many are used. */
export const MySeatsSchema = Type.Object({
  requests: Type.Array(SeatRequestSchema),
  fundings: Type.Array(
    Type.Object({
      id: Type.String(),
      seats: Type.Integer(),
      granted: Type.Integer(),
      amountCents: Type.Integer(),
      currency: Type.String(),
      paidAt: Type.String(),
      /** active, suspended (disputed), refunded or revoked: its seats not yet granted are gone. */
      state: Type.String(),
    }),
  ),
});
export type MySeats = Static<typeof MySeatsSchema>;

/** The desk's view of the pool and the requests. */
export const DeskSeatsSchema = Type.Object({
  pool: SeatPoolSchema,
  autoGrantPerMonth: Type.Integer(),
  grantedThisMonth: Type.Integer(),
  requests: Type.Array(
    Type.Object({
      id: Type.String(),
      userId: Type.String(),
      email: Type.Union([Type.String(), Type.Null()]),
      note: Type.String(),
      state: Type.String(),
      createdAt: Type.String(),
      decidedAt: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  fundings: Type.Array(
    Type.Object({
      id: Type.String(),
      supporterEmail: Type.Union([Type.String(), Type.Null()]),
      seats: Type.Integer(),
      /** The tier each of its seats is a year of: its slug and name. */
      tier: Type.String(),
      tierName: Type.String(),
      granted: Type.Integer(),
      amountCents: Type.Integer(),
      currency: Type.String(),
      paidAt: Type.String(),
      state: Type.String(),
      paymentIntentId: Type.String(),
    }),
  ),
});
export type DeskSeats = Static<typeof DeskSeatsSchema>;

/** PUT /api/desk/seats: the monthly number granted on its own. */
export const SeatSettingsBodySchema = Type.Object(
  { autoGrantPerMonth: Type.Integer({ minimum: 0, maximum: 10_000 }) },
  { additionalProperties: false },
);

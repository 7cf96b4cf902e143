import { Type, type Static } from 'typebox';
import { TierChoiceSchema } from './tiers.js';

// Offers (docs/decisions/0023): a code, and a link (/join?offer=CODE), taking a percent or an
// amount off chosen plans of one tier, once, for some months or for ever, until a date or a number
// of redemptions.

const PlanIdSchema = Type.Union([
  Type.Literal('early-access'),
  Type.Literal('monthly'),
  Type.Literal('yearly'),
]);

/** POST /api/desk/offers. */
export const OfferBodySchema = Type.Object(
  {
    code: Type.String({ pattern: '^[A-Za-z0-9_-]{3,40}$' }),
    percentOff: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    amountOffCents: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    duration: Type.Union([
      Type.Literal('once'),
      Type.Literal('repeating'),
      Type.Literal('forever'),
    ]),
    durationMonths: Type.Optional(Type.Integer({ minimum: 1, maximum: 36 })),
    plans: Type.Array(PlanIdSchema, { minItems: 1, maxItems: 3, uniqueItems: true }),
    /** The tier whose plans it is for (its slug; the default tier when left out). */
    tier: Type.Optional(TierChoiceSchema),
    endsAt: Type.Optional(Type.String({ format: 'date-time' })),
    maxRedemptions: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  },
  { additionalProperties: false },
);
export type OfferBody = Static<typeof OfferBodySchema>;

export const DeskOfferSchema = Type.Object({
  id: Type.String(),
  code: Type.String(),
  percentOff: Type.Union([Type.Integer(), Type.Null()]),
  amountOffCents: Type.Union([Type.Integer(), Type.Null()]),
  currency: Type.String(),
  duration: Type.String(),
  durationMonths: Type.Union([Type.Integer(), Type.Null()]),
  plans: Type.Array(Type.String()),
  /** The tier whose plans it is for: its slug and name. */
  tier: Type.String(),
  tierName: Type.String(),
  endsAt: Type.Union([Type.String(), Type.Null()]),
  maxRedemptions: Type.Union([Type.Integer(), Type.Null()]),
  endedAt: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  /** active, ended (by an owner), expired (its end date passed) or used-up (paid and held). */
  state: Type.String(),
  /** Payments that redeemed it: one-time years, and subscriptions that took it. */
  redemptions: Type.Integer(),
  /** Redemptions held by checkouts still being paid: they count against the limit too. */
  held: Type.Integer(),
  /** What those payments brought, in its currency. */
  revenueCents: Type.Integer(),
  /** The link that opens the site with the code filled in. */
  link: Type.String(),
});
export type DeskOffer = Static<typeof DeskOfferSchema>;

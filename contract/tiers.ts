import { Type, type Static } from 'typebox';
import { lineField, nullable, slugField, textField } from './field-schemas.js';
import { MAX_PLAN_CENTS, MAX_TRIAL_DAYS, MIN_PLAN_CENTS } from './plan-rules.js';
import {
  MAX_TIER_BENEFIT,
  MAX_TIER_BENEFITS,
  MAX_TIER_DESCRIPTION,
  MAX_TIER_NAME,
  MAX_TIER_SLUG,
} from './tier-rules.js';

// The tiers' HTTP schemas (tier-rules.ts has what the browser uses without them).
export * from './tier-rules.js';

/** A tier's price for each plan, in the site's currency's cents; null: that plan is not sold. */
export const TierPricesSchema = Type.Object(
  {
    monthly: nullable(priceField()),
    yearly: nullable(priceField()),
    /** The year paid once (the `early-access` plan). */
    once: nullable(priceField()),
  },
  { additionalProperties: false },
);
export type TierPrices = Static<typeof TierPricesSchema>;

/**
 * The tier a gift, seats, an offer or a comp is for, by slug, in a request's body: the default
 * tier (the first visible) when left out; one there is not is a 400 `unknown_tier`.
 */
export const TierChoiceSchema = Type.String({ minLength: 1, maxLength: MAX_TIER_SLUG });

function priceField() {
  return Type.Integer({
    minimum: MIN_PLAN_CENTS,
    maximum: MAX_PLAN_CENTS,
    errorMessage: `must be a whole number of cents from ${MIN_PLAN_CENTS} to ${MAX_PLAN_CENTS}`,
  });
}

/** A tier as `/api/config` lists it: the visible ones, in their order. */
export const PublicTierSchema = Type.Object({
  slug: Type.String(),
  name: Type.String(),
  description: Type.String(),
  benefits: Type.Array(Type.String()),
  prices: TierPricesSchema,
  currency: Type.String(),
  /** Days of free trial its subscriptions start with (0: none). */
  trialDays: Type.Integer(),
  order: Type.Integer(),
});
export type PublicTier = Static<typeof PublicTierSchema>;

/** A tier as the desk shows it (`GET /api/desk/tiers`). */
export const DeskTierSchema = Type.Intersect([
  PublicTierSchema,
  Type.Object({
    visible: Type.Boolean(),
    /** Members whose access is this tier's now. */
    members: Type.Integer(),
    /** Posts for this tier's members (visibility `tiers` naming it). */
    posts: Type.Integer(),
    updatedAt: Type.String(),
  }),
]);
export type DeskTier = Static<typeof DeskTierSchema>;

const tierFields = {
  name: lineField(MAX_TIER_NAME),
  /** Lower-case words joined by hyphens; made from the name when a new tier leaves it out. */
  slug: slugField(),
  description: Type.Union([Type.Literal(''), textField(MAX_TIER_DESCRIPTION)]),
  benefits: Type.Array(lineField(MAX_TIER_BENEFIT), {
    maxItems: MAX_TIER_BENEFITS,
    errorMessage: { type: 'must be a list', maxItems: `must list at most ${MAX_TIER_BENEFITS}` },
  }),
  prices: TierPricesSchema,
  trialDays: Type.Integer({
    minimum: 0,
    maximum: MAX_TRIAL_DAYS,
    errorMessage: `must be a whole number of days from 0 to ${MAX_TRIAL_DAYS}`,
  }),
  visible: Type.Boolean({ errorMessage: 'must be true or false' }),
  /** Where it stands among the tiers, from 0 (the first). */
  order: Type.Integer({ minimum: 0, errorMessage: 'must be a whole number from 0' }),
};

/** `POST /api/desk/tiers`: a new tier. Its name and prices are needed; the rest has defaults. */
export const NewTierSchema = Type.Object(
  {
    name: tierFields.name,
    slug: Type.Optional(tierFields.slug),
    description: Type.Optional(tierFields.description),
    benefits: Type.Optional(tierFields.benefits),
    prices: tierFields.prices,
    trialDays: Type.Optional(tierFields.trialDays),
    visible: Type.Optional(tierFields.visible),
    order: Type.Optional(tierFields.order),
  },
  { additionalProperties: false },
);
export type NewTier = Static<typeof NewTierSchema>;

/** `PATCH /api/desk/tiers/:slug`: what an owner changes (at least one of them). */
export const TierChangeSchema = Type.Partial(
  Type.Object(tierFields, { additionalProperties: false }),
  {
    additionalProperties: false,
    minProperties: 1,
    errorMessage: {
      minProperties: `must change at least one of ${Object.keys(tierFields).join(', ')}`,
    },
  },
);
export type TierChange = Static<typeof TierChangeSchema>;

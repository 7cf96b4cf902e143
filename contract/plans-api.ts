import { Type, type Static } from 'typebox';
import { MAX_PLAN_CENTS, MAX_TRIAL_DAYS, MIN_PLAN_CENTS } from './plan-rules.js';
import { TierChoiceSchema } from './tiers.js';

// The plans' HTTP schemas (plan-rules.ts has what the browser uses).

/** A plan on sale, as `/api/config` lists it (the contract). */
export const PlanSchema = Type.Object({
  id: Type.Union([Type.Literal('early-access'), Type.Literal('monthly'), Type.Literal('yearly')]),
  kind: Type.Union([Type.Literal('one-time'), Type.Literal('subscription')]),
  interval: Type.Union([Type.Literal('month'), Type.Literal('year'), Type.Null()]),
  amountCents: Type.Integer(),
  currency: Type.String(),
  trialDays: Type.Integer(),
});
export type Plan = Static<typeof PlanSchema>;

/** A plan as the desk shows it: on sale or not, and who last changed it. */
export const DeskPlanSchema = Type.Intersect([
  PlanSchema,
  Type.Object({
    enabled: Type.Boolean(),
    /** Whether a trial asks for a card up front (else it ends unless the member adds one). */
    trialNeedsCard: Type.Boolean(),
    updatedAt: Type.String(),
    /** Members whose live subscription is on this plan (the one-time plan: members by it). */
    members: Type.Integer(),
    /** Of those, the ones who subscribed at another price than the plan's now. */
    membersOnOtherPrices: Type.Integer(),
  }),
]);
export type DeskPlan = Static<typeof DeskPlanSchema>;

/** A tier's plans as the desk's Plans page lists them (a tier's prices change with the tier). */
export const DeskTierPlansSchema = Type.Object({
  slug: Type.String(),
  name: Type.String(),
  visible: Type.Boolean(),
  /** The first tier (the membership sold before tiers): `PUT /api/desk/plans/:id` changes it. */
  first: Type.Boolean(),
  plans: Type.Array(DeskPlanSchema),
});
export type DeskTierPlans = Static<typeof DeskTierPlansSchema>;

/** GET /api/desk/plans. */
export const DeskPlansSchema = Type.Object({
  /** The first tier's plans, which `PUT /api/desk/plans/:id` changes (as before tiers). */
  plans: Type.Array(DeskPlanSchema),
  /** Every tier's, in the tiers' order. */
  tiers: Type.Array(DeskTierPlansSchema),
  /** Null when Stripe's keys are set; else what is off and what to set. */
  paymentsOff: Type.Union([Type.String(), Type.Null()]),
});
export type DeskPlans = Static<typeof DeskPlansSchema>;

/** PUT /api/desk/plans/:id: what an owner changes (at least one of them). */
export const PlanChangeSchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    amountCents: Type.Optional(Type.Integer({ minimum: MIN_PLAN_CENTS, maximum: MAX_PLAN_CENTS })),
    /** Days of free trial for a subscription plan (0: none). */
    trialDays: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TRIAL_DAYS })),
    trialNeedsCard: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type PlanChange = Static<typeof PlanChangeSchema>;

/**
 * POST /api/checkout's body: which subscription (the yearly one when absent, as before), of which
 * tier (by slug; the default tier when absent).
 */
export const CheckoutBodySchema = Type.Union([
  Type.Object(
    {
      plan: Type.Optional(Type.Union([Type.Literal('monthly'), Type.Literal('yearly')])),
      tier: Type.Optional(TierChoiceSchema),
      /** An offer's code (docs/decisions/0023-offers-and-trials.md). */
      offer: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    },
    { additionalProperties: false },
  ),
  Type.Null(),
]);

/** POST /api/account/plan: the subscription plan a member moves to (at their tier). */
export const SwitchPlanBodySchema = Type.Object(
  { plan: Type.Union([Type.Literal('monthly'), Type.Literal('yearly')]) },
  { additionalProperties: false },
);

import { Type, type Static } from 'typebox';
import { UserSchema } from './api.js';
import { nullable } from './field-schemas.js';
import { TierChoiceSchema } from './tiers.js';

// A member's tier on /account, and a move to another (docs/decisions/0031-tier-moves.md): to a
// dearer tier now, its price's difference for the time left charged at once; to a cheaper one
// from the period's end. Only a running subscription moves: a trial, a year paid once or a gift
// keeps its tier to its end.

/** POST /api/account/tier: the tier (by slug) a member moves their subscription to. */
export const TierMoveBodySchema = Type.Object(
  { tier: TierChoiceSchema },
  { additionalProperties: false },
);
export type TierMoveBody = Static<typeof TierMoveBodySchema>;

const TierNameSchema = Type.Object({ slug: Type.String(), name: Type.String() });

/** A tier a member may move to, and when the move takes effect. */
export const TierMoveOptionSchema = Type.Object({
  slug: Type.String(),
  name: Type.String(),
  /**
   * `now`: a dearer tier, charged at once for the time left (the price's difference); `renewal`:
   * a cheaper (or equal) one, from the next renewal, with nothing charged or credited now.
   */
  when: Type.Union([Type.Literal('now'), Type.Literal('renewal')]),
  /** Its price for the member's interval, in the currency's cents. */
  amountCents: Type.Integer(),
  currency: Type.String(),
});
export type TierMoveOption = Static<typeof TierMoveOptionSchema>;

/** GET /api/account/tier: the member's tier now, what it renews as, and the moves open to them. */
export const AccountTierSchema = Type.Object({
  /** The tier the membership gives now; null: no membership. */
  tier: nullable(TierNameSchema),
  /** The tier the subscription renews as, when a move waits for the period's end; else null. */
  renewsAs: nullable(TierNameSchema),
  /** When the period paid for ends (the renewal, or the move's day). */
  periodEnd: nullable(Type.String({ format: 'date-time' })),
  /** The running subscription's interval; null without one. */
  interval: nullable(Type.Union([Type.Literal('month'), Type.Literal('year')])),
  /** The tiers to move to (none while a move cannot be made: see `refusal`). */
  moves: Type.Array(TierMoveOptionSchema),
  /** Why the membership cannot move now (a trial, a year paid once...), in the member's words. */
  refusal: nullable(Type.Object({ code: Type.String(), message: Type.String() })),
});
export type AccountTier = Static<typeof AccountTierSchema>;

/** POST /api/account/tier's answer: the member, and their tier after the move. */
export const TierMoveResponseSchema = Type.Object({
  user: UserSchema,
  tier: AccountTierSchema,
});
export type TierMoveResponse = Static<typeof TierMoveResponseSchema>;

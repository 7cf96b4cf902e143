import { Type, type Static } from 'typebox';

// Gifts (docs/payments.md#gifts): anyone buys a year (paid once) for someone else's address, with a
// message and a send date; the recipient is mailed a claim link at that date; claiming gives their
// account a year of its own, after the time they already hold.

export * from './gift-rules.js';
import { GIFT_MESSAGE_MAX, GIFT_NAME_MAX } from './gift-rules.js';
import { TierChoiceSchema } from './tiers.js';

const Email = Type.String({ minLength: 1, maxLength: 320 });

/**
 * POST /api/gifts: the buyer's session pays; `buyerEmail` is where a visitor's receipt goes; `tier`
 * is the visible tier whose year is given (the default tier when left out).
 */
export const GiftBodySchema = Type.Object(
  {
    recipientEmail: Email,
    tier: Type.Optional(TierChoiceSchema),
    message: Type.Optional(Type.String({ maxLength: GIFT_MESSAGE_MAX })),
    /** When the recipient is mailed (default: as soon as it is paid). */
    sendAt: Type.Optional(Type.String({ format: 'date-time' })),
    /** How the recipient's mail names the giver. */
    fromName: Type.Optional(Type.String({ maxLength: GIFT_NAME_MAX })),
    buyerEmail: Type.Optional(Email),
  },
  { additionalProperties: false },
);
export type GiftBody = Static<typeof GiftBodySchema>;

export const GiftPaymentSchema = Type.Object({
  clientSecret: Type.String(),
  giftId: Type.String(),
  amountCents: Type.Integer(),
  currency: Type.String(),
  /** The slug of the tier whose year it is. */
  tier: Type.String(),
});

/** POST /api/gifts/claim and /api/gifts/preview: the token from the link's fragment. */
export const GiftTokenBodySchema = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

/** What the claim page shows before the button. */
export const GiftPreviewSchema = Type.Object({
  fromName: Type.Union([Type.String(), Type.Null()]),
  message: Type.Union([Type.String(), Type.Null()]),
  /** ready: can be claimed; claimed: already (`claimedByYou` says whether by this account). */
  state: Type.Union([Type.Literal('ready'), Type.Literal('claimed')]),
  claimedByYou: Type.Boolean(),
  days: Type.Integer(),
});
export type GiftPreview = Static<typeof GiftPreviewSchema>;

/** The desk's list of gifts not yet claimed. */
export const DeskGiftSchema = Type.Object({
  id: Type.String(),
  recipientEmail: Type.String(),
  buyerEmail: Type.Union([Type.String(), Type.Null()]),
  fromName: Type.Union([Type.String(), Type.Null()]),
  amountCents: Type.Integer(),
  currency: Type.String(),
  /** The tier whose year it gives: its slug and name. */
  tier: Type.String(),
  tierName: Type.String(),
  paidAt: Type.String(),
  sendAt: Type.String(),
  /** When the claim link was last mailed, and to which address; null: not yet (sendAt ahead). */
  sentAt: Type.Union([Type.String(), Type.Null()]),
  sentTo: Type.Union([Type.String(), Type.Null()]),
  /** active (claimable), suspended (disputed: not until the dispute is won). */
  state: Type.String(),
  paymentIntentId: Type.String(),
});
export type DeskGift = Static<typeof DeskGiftSchema>;

/** POST /api/desk/gifts/:id/address. */
export const GiftAddressBodySchema = Type.Object(
  { recipientEmail: Email },
  { additionalProperties: false },
);

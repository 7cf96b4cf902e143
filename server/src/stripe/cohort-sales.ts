import type Stripe from 'stripe';
import type { AppConfig } from '../config.js';
import { EARLY_ACCESS_OFFER, UUID_PATTERN } from '../../../contract/constants.js';
import { GIFT_OFFER } from '../../../contract/gift-rules.js';
import { MAX_SEATS_PER_PAYMENT, SEATS_OFFER } from '../../../contract/seat-rules.js';
import { FIRST_TIER_ID } from '../memberships/derive-membership.js';

/**
 * What makes a Stripe object one of Cohort's own sales (docs/decisions/0008-membership-ledger.md):
 * the membership's Prices, and the metadata the server puts on each PaymentIntent it makes (a year
 * paid once, a gift, seats), so that a payment for anything else on the same Stripe account never
 * grants a membership. The metadata key `offer` names what a PaymentIntent sells ('early-access',
 * 'gift', 'seats': `EARLY_ACCESS_OFFER`, `GIFT_OFFER`, `SEATS_OFFER`); PaymentIntents already paid
 * carry it, so it keeps that name. Anywhere else an offer is a discount code (memberships/offers.ts).
 */

/**
 * Lookup keys of the Prices Cohort creates: `cohort_membership_<plan>_<cents>_<currency>` for the
 * first tier (as before tiers), `cohort_membership_t<tier id>_<plan>_<cents>_<currency>` for
 * another; one per tier, plan and price (a price changed in the desk makes a new one; members keep
 * the old).
 */
export const MEMBERSHIP_LOOKUP_KEY_PREFIX = 'cohort_membership_';

/**
 * The metadata key naming the tier (by id) on every Price Cohort makes
 * (docs/decisions/0030-tiers-and-readers.md): what the ledger reads an invoice's tier from.
 */
export const PRICE_TIER_KEY = 'cohort_tier_id';

/** The membership's price as the environment sets it (its first start's), and its Stripe Price. */
export interface MembershipPrice {
  priceCents: number;
  currency: string;
  /** `STRIPE_PRICE_ID`, when the operator made the Price. */
  priceId: string | undefined;
}

/** The membership's price from the configuration (MEMBERSHIP_PRICE_CENTS, STRIPE_PRICE_ID...). */
export const membershipPriceOf = (
  config: Pick<AppConfig, 'membership' | 'stripe'>,
): MembershipPrice => ({
  priceCents: config.membership.priceCents,
  currency: config.membership.currency,
  priceId: config.stripe?.priceId,
});

export const planLookupKey = (
  plan: 'monthly' | 'yearly',
  cents: number,
  currency: string,
  tierId = FIRST_TIER_ID,
) =>
  `${MEMBERSHIP_LOOKUP_KEY_PREFIX}${tierId === FIRST_TIER_ID ? '' : `t${tierId}_`}${plan}_${cents}_${currency}`;

/** The yearly Price's lookup key at the environment's price (the first start's). */
export const membershipLookupKey = (price: MembershipPrice) =>
  planLookupKey('yearly', price.priceCents, price.currency);

/** Is this a Price of Cohort's membership (the operator's, or one Cohort created)? */
export function isCohortPrice(price: Stripe.Price, membershipPrice: MembershipPrice): boolean {
  return (
    (membershipPrice.priceId !== undefined && price.id === membershipPrice.priceId) ||
    (price.lookup_key?.startsWith(MEMBERSHIP_LOOKUP_KEY_PREFIX) ?? false)
  );
}

/** A tier id as metadata writes it, if the value is one. */
function tierIdIn(value: string | null | undefined): number | null {
  const tierId = Number(value);
  return value && Number.isInteger(tierId) && tierId > 0 ? tierId : null;
}

/**
 * The tier a PaymentIntent Cohort makes is for (a year paid once, a gift, seats), in its metadata
 * `tierId` (none: the first tier, as for every one paid before tiers).
 */
function tierMetadata(tierId: number | null): Record<string, string> {
  return tierId === null ? {} : { tierId: String(tierId) };
}

const tierIdOf = (metadata: Stripe.Metadata): number | null => tierIdIn(metadata.tierId);

/**
 * The tier a Cohort Price sells (by id): its metadata's `cohort_tier_id`, else the id its lookup
 * key carries, else the first tier (the operator's own Price, and the Prices made before tiers).
 * Null for a Price that is not Cohort's.
 */
export function priceTierId(price: Stripe.Price, membershipPrice: MembershipPrice): number | null {
  if (!isCohortPrice(price, membershipPrice)) return null;
  const inMetadata = tierIdIn(price.metadata?.[PRICE_TIER_KEY]);
  if (inMetadata) return inMetadata;
  const keyed = /^t(\d+)_/.exec(price.lookup_key?.slice(MEMBERSHIP_LOOKUP_KEY_PREFIX.length) ?? '');
  return tierIdIn(keyed?.[1]) ?? FIRST_TIER_ID;
}

/**
 * The metadata the server puts on an early-access PaymentIntent: who pays, and the price and
 * currency it set, so a replay after a database restore can still check what was paid; and the
 * tier whose year it is, for any but the first.
 */
export function earlyAccessMetadata(
  userId: string,
  price: Pick<MembershipPrice, 'priceCents' | 'currency'>,
  tierId: number | null = null,
): Record<string, string> {
  return {
    userId,
    offer: EARLY_ACCESS_OFFER,
    priceCents: String(price.priceCents),
    currency: price.currency,
    ...tierMetadata(tierId === FIRST_TIER_ID ? null : tierId),
  };
}

/** The tier a year paid once is of (its metadata `tierId`); null: the first. */
export const earlyAccessTierId = (intent: Stripe.PaymentIntent) => tierIdOf(intent.metadata ?? {});

/**
 * Is this a paid early-access PaymentIntent at the price the server set? PaymentIntents from
 * before the price was kept in metadata are checked against the configured membership price.
 */
export function isPaidEarlyAccess(
  intent: Stripe.PaymentIntent,
  membershipPrice: MembershipPrice,
): boolean {
  const metadata = intent.metadata ?? {};
  if (metadata.offer !== EARLY_ACCESS_OFFER || intent.status !== 'succeeded') return false;
  const priceCents = Number(metadata.priceCents ?? membershipPrice.priceCents);
  const currency = metadata.currency ?? membershipPrice.currency;
  return (
    Number.isInteger(priceCents) &&
    priceCents > 0 &&
    intent.currency === currency &&
    intent.amount === priceCents &&
    intent.amount_received >= priceCents
  );
}

/** What a gift's PaymentIntent says about the gift: set by the server, read back by the ledger. */
export interface GiftDetails {
  giftId: string;
  buyerUserId: string;
  buyerEmail: string | null;
  fromName: string | null;
  recipientEmail: string;
  message: string | null;
  sendAt: Date | null;
  /** The tier whose year it gives (by id: a tier's slug may change); null: the first. */
  tierId: number | null;
}

/**
 * The metadata of a gift's PaymentIntent: the gift itself (Stripe keeps values up to 500
 * characters, which the body's limits stay within) and the price the server set.
 */
export function giftMetadata(
  gift: GiftDetails,
  price: Pick<MembershipPrice, 'priceCents' | 'currency'>,
): Record<string, string> {
  return {
    ...serverPriceMetadata(GIFT_OFFER, gift.buyerUserId, price),
    giftId: gift.giftId,
    recipientEmail: gift.recipientEmail,
    ...(gift.buyerEmail && { buyerEmail: gift.buyerEmail }),
    ...(gift.fromName && { fromName: gift.fromName }),
    ...(gift.message && { message: gift.message }),
    ...(gift.sendAt && { sendAt: gift.sendAt.toISOString() }),
    ...tierMetadata(gift.tierId),
  };
}

/**
 * What the metadata of every PaymentIntent for `sold` (a gift, seats) at a price the server set
 * begins with: who pays, and the price, which `isPaidAtServerPrice` checks the payment against.
 */
function serverPriceMetadata(
  sold: string,
  userId: string,
  price: Pick<MembershipPrice, 'priceCents' | 'currency'>,
): Record<string, string> {
  return { offer: sold, userId, priceCents: String(price.priceCents), currency: price.currency };
}

/**
 * Is this a PaymentIntent for `sold` (a gift, seats), paid in full at the price the server set in
 * its metadata?
 */
function isPaidAtServerPrice(intent: Stripe.PaymentIntent, sold: string): boolean {
  const metadata = intent.metadata ?? {};
  if (metadata.offer !== sold || intent.status !== 'succeeded') return false;
  const priceCents = Number(metadata.priceCents);
  return (
    Number.isInteger(priceCents) &&
    priceCents > 0 &&
    intent.currency === metadata.currency &&
    intent.amount === priceCents &&
    intent.amount_received >= priceCents
  );
}

/** Is this a gift's PaymentIntent, paid in full at the price the server set? */
export const isPaidGift = (intent: Stripe.PaymentIntent) => isPaidAtServerPrice(intent, GIFT_OFFER);

/** The gift a PaymentIntent's metadata describes; null when it names no valid gift. */
export function giftDetails(intent: Stripe.PaymentIntent): GiftDetails | null {
  const metadata = intent.metadata ?? {};
  const giftId = metadata.giftId ?? '';
  const buyerUserId = metadata.userId ?? '';
  const recipientEmail = metadata.recipientEmail ?? '';
  if (!UUID_PATTERN.test(giftId) || !UUID_PATTERN.test(buyerUserId) || !recipientEmail) {
    return null;
  }
  const sendAt = metadata.sendAt ? new Date(metadata.sendAt) : null;
  return {
    giftId,
    buyerUserId,
    recipientEmail,
    buyerEmail: metadata.buyerEmail || null,
    fromName: metadata.fromName || null,
    message: metadata.message || null,
    sendAt: sendAt && !Number.isNaN(sendAt.getTime()) ? sendAt : null,
    tierId: tierIdOf(metadata),
  };
}

/** What a supporter's PaymentIntent says about the seats it funds. */
export interface SeatFundingDetails {
  fundingId: string;
  supporterUserId: string;
  supporterEmail: string | null;
  seats: number;
  /** The tier each seat is a year of (by id); null: the first. */
  tierId: number | null;
}

/** The metadata of a supporter's PaymentIntent: the seats, and the total the server set. */
export function seatsMetadata(
  funding: SeatFundingDetails,
  price: Pick<MembershipPrice, 'priceCents' | 'currency'>,
): Record<string, string> {
  return {
    ...serverPriceMetadata(SEATS_OFFER, funding.supporterUserId, price),
    fundingId: funding.fundingId,
    seats: String(funding.seats),
    ...(funding.supporterEmail && { supporterEmail: funding.supporterEmail }),
    ...tierMetadata(funding.tierId),
  };
}

/** Is this a supporter's PaymentIntent, paid in full at the total the server set? */
export const isPaidSeats = (intent: Stripe.PaymentIntent) =>
  isPaidAtServerPrice(intent, SEATS_OFFER);

/** The seats a PaymentIntent's metadata funds; null when it names no valid funding. */
export function seatFundingDetails(intent: Stripe.PaymentIntent): SeatFundingDetails | null {
  const metadata = intent.metadata ?? {};
  const seats = Number(metadata.seats);
  const fundingId = metadata.fundingId ?? '';
  const supporterUserId = metadata.userId ?? '';
  if (
    !UUID_PATTERN.test(fundingId) ||
    !UUID_PATTERN.test(supporterUserId) ||
    !Number.isInteger(seats) ||
    seats < 1 ||
    seats > MAX_SEATS_PER_PAYMENT
  ) {
    return null;
  }
  return {
    fundingId,
    supporterUserId,
    seats,
    supporterEmail: metadata.supporterEmail || null,
    tierId: tierIdOf(metadata),
  };
}

import type pg from 'pg';
import type { DeskOffer } from '../../../contract/offers.js';
import type { PlanId } from '../../../contract/plan-rules.js';
import { DomainError } from '../domain-error.js';
import { FIRST_TIER_ID } from './derive-membership.js';

/**
 * Offers (docs/decisions/0023-offers-and-trials.md): a code taking a percent or an amount off
 * chosen plans of one tier (`offerAppliesTo`). A subscription redeems it through a Stripe Coupon
 * and Promotion Code made with the offer (Stripe then takes it off each invoice it covers: once,
 * for some months, or for ever); the year paid once is priced here, the discount recorded in the
 * PaymentIntent's metadata, so the ledger still checks what was paid. An expired, ended, used-up or
 * unknown code is refused with a reason: the full price is never charged instead. Its limit counts
 * the year paid once and subscriptions alike: the redemptions paid, and those that checkouts hold
 * while their readers pay (offer-redemptions.ts). Owners make and end offers from the desk
 * (desk/offer-actions.ts).
 */

export interface OfferRow {
  id: string;
  code: string;
  percentOff: number | null;
  amountOffCents: number | null;
  currency: string;
  duration: 'once' | 'repeating' | 'forever';
  durationMonths: number | null;
  plans: PlanId[];
  /** The tier whose plans it is for: its id, slug and name. */
  tierId: number;
  tierSlug: string;
  tierName: string;
  endsAt: Date | null;
  maxRedemptions: number | null;
  endedAt: Date | null;
  stripeCouponId: string | null;
  stripePromotionCodeId: string | null;
  createdAt: Date;
}

const invalid = (message: string) => new DomainError(400, 'offer_invalid', message);

/** What an offer takes off `cents` (a first payment): never below Stripe's smallest charge. */
export function discountedCents(
  offer: Pick<OfferRow, 'percentOff' | 'amountOffCents'>,
  cents: number,
) {
  const off =
    offer.percentOff !== null
      ? Math.round((cents * offer.percentOff) / 100)
      : Math.min(offer.amountOffCents ?? 0, cents);
  return cents - off;
}

/** How much of an offer is taken: paid redemptions, what they brought, and those held. */
export interface OfferUsage {
  redemptions: number;
  revenue: number;
  held: number;
}

/**
 * Payments that redeemed each offer (a subscription counts once) and what they brought, and the
 * redemptions checkouts hold while their readers pay (offer-redemptions.ts), but for those of
 * `exceptUserId`: both count against the limit.
 */
async function usage(pool: Pick<pg.Pool, 'query'>, ids: string[], exceptUserId: string | null) {
  const { rows } = await pool.query<OfferUsage & { offerId: string }>(
    `SELECT o.id AS "offerId",
            (SELECT count(DISTINCT coalesce(e."subscriptionId", e.id)) FROM entitlements e
              WHERE e."offerId" = o.id AND NOT e.trial)::int AS redemptions,
            (SELECT coalesce(sum(e."amountCents"), 0) FROM entitlements e
              WHERE e."offerId" = o.id AND NOT e.trial AND e.state = 'active')::int AS revenue,
            (SELECT count(*) FROM offer_redemptions r
              WHERE r."offerId" = o.id AND r.state = 'pending'
                AND r."userId" IS DISTINCT FROM $2::uuid)::int AS held
       FROM offers o WHERE o.id = ANY($1::uuid[])`,
    [ids, exceptUserId],
  );
  return new Map(rows.map((row) => [row.offerId, row]));
}

/**
 * How many redemptions of the offer are taken, paid or held (but for the checkouts of
 * `exceptUserId`, who may take theirs up again): what its limit is checked against.
 */
export async function countTaken(
  db: Pick<pg.Pool, 'query'>,
  offerId: string,
  exceptUserId: string | null = null,
): Promise<number> {
  const used = (await usage(db, [offerId], exceptUserId)).get(offerId);
  return (used?.redemptions ?? 0) + (used?.held ?? 0);
}

function stateOf(offer: OfferRow, taken: number, now = new Date()): string {
  if (offer.endedAt) return 'ended';
  if (offer.endsAt && offer.endsAt <= now) return 'expired';
  if (offer.maxRedemptions !== null && taken >= offer.maxRedemptions) return 'used-up';
  return 'active';
}

/**
 * Whether an offer is for a checkout of `plan` of the tier `tierId`: an offer names one tier, and
 * some of its plans. What every checkout asks before it takes an offer (through `findOffer`).
 */
export const offerAppliesTo = (
  offer: Pick<OfferRow, 'tierId' | 'plans'>,
  tierId: number,
  plan: PlanId,
): boolean => offer.tierId === tierId && offer.plans.includes(plan);

/**
 * Refuses, with the reason a reader reads, an offer that cannot be redeemed for `plan` of the tier
 * `tierId` now: ended, expired, used up (`taken`: its paid and held redemptions; null when the
 * checkout holds one already), for another tier or for other plans.
 */
export function assertRedeemable(
  offer: OfferRow,
  taken: number | null,
  plan: PlanId,
  tierId: number,
): void {
  const state = stateOf(offer, taken ?? 0);
  if (state === 'ended' || state === 'expired') {
    throw invalid(`The offer “${offer.code}” has ended.`);
  }
  if (state === 'used-up') throw invalid(`The offer “${offer.code}” has been used up.`);
  if (offerAppliesTo(offer, tierId, plan)) return;
  if (offer.tierId !== tierId) {
    throw invalid(`The offer “${offer.code}” is only for ${offer.tierName} memberships.`);
  }
  throw invalid(
    `The offer “${offer.code}” is not for the ${plan === 'early-access' ? 'year paid once' : `${plan} plan`}.`,
  );
}

/** An offer's columns, its tier's slug and name with them (from a query on `offers` unaliased). */
export const OFFER_COLUMNS = `id, code, "percentOff", "amountOffCents", currency, duration, "durationMonths",
                 plans, "tierId", "endsAt", "maxRedemptions", "endedAt", "stripeCouponId",
                 "stripePromotionCodeId", "createdAt",
                 (SELECT t."slug" FROM "tiers" t WHERE t."id" = offers."tierId") AS "tierSlug",
                 (SELECT t."name" FROM "tiers" t WHERE t."id" = offers."tierId") AS "tierName"`;

/**
 * The offer a reader's code names, for `plan` of the tier `tierId` (the first tier's unless said),
 * if it can be redeemed now; otherwise a 400 `offer_invalid` saying why (unknown, ended, expired,
 * used up, or not for this tier or plan). The first answer, before anything is asked of Stripe:
 * the checkout's reservation checks again under the offer's row lock (offer-redemptions.ts).
 */
export async function findOffer(
  pool: Pick<pg.Pool, 'query'>,
  code: string,
  plan: PlanId,
  userId: string,
  tierId: number = FIRST_TIER_ID,
): Promise<OfferRow> {
  const shown = code.slice(0, 40);
  const { rows } = await pool.query<OfferRow>(
    `SELECT ${OFFER_COLUMNS} FROM offers WHERE code = upper($1)`,
    [code.slice(0, 100)],
  );
  const offer = rows[0];
  if (!offer)
    throw invalid(`No offer has the code “${shown}”: check it, or join at the full price.`);
  assertRedeemable(offer, await countTaken(pool, offer.id, userId), plan, tierId);
  return offer;
}

export function deskOffer(
  offer: OfferRow,
  used: OfferUsage | undefined,
  siteUrl: string,
): DeskOffer {
  const redemptions = used?.redemptions ?? 0;
  const held = used?.held ?? 0;
  return {
    id: offer.id,
    code: offer.code,
    percentOff: offer.percentOff,
    amountOffCents: offer.amountOffCents,
    currency: offer.currency,
    duration: offer.duration,
    durationMonths: offer.durationMonths,
    plans: offer.plans,
    tier: offer.tierSlug,
    tierName: offer.tierName,
    endsAt: offer.endsAt?.toISOString() ?? null,
    maxRedemptions: offer.maxRedemptions,
    endedAt: offer.endedAt?.toISOString() ?? null,
    createdAt: offer.createdAt.toISOString(),
    state: stateOf(offer, redemptions + held),
    redemptions,
    held,
    revenueCents: used?.revenue ?? 0,
    link: `${siteUrl}/join?offer=${encodeURIComponent(offer.code)}`,
  };
}

export async function listOffers(pool: Pick<pg.Pool, 'query'>, siteUrl: string) {
  const { rows } = await pool.query<OfferRow>(
    `SELECT ${OFFER_COLUMNS} FROM offers ORDER BY "createdAt" DESC, code`,
  );
  const used = await usage(
    pool,
    rows.map((row) => row.id),
    null,
  );
  return rows.map((row) => deskOffer(row, used.get(row.id), siteUrl));
}

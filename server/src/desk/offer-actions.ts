import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import type { OfferBody } from '../../../contract/offers.js';
import { MIN_PLAN_CENTS } from '../../../contract/plan-rules.js';
import type { Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { discountedCents, OFFER_COLUMNS, type OfferRow } from '../memberships/offers.js';
import type { PlanRow } from '../memberships/plan-catalog.js';
import type { TierRow } from '../memberships/tier-catalog.js';
import { callStripe } from '../stripe/call-stripe.js';
import { writeAudit } from '../staff/audit.js';
import type { Staff } from '../staff/staff.js';

/**
 * What an owner can do to offers from the desk (docs/decisions/0023-offers-and-trials.md): make
 * one, with its Stripe Coupon and Promotion Code when it is for a subscription, and end one, at
 * Stripe too; each with its audit entry, in the caller's transaction. How a code is redeemed, and
 * when it is refused, stays in memberships/offers.ts.
 */

/**
 * An owner's new offer for plans of `context.tier` (with that tier's `plans`), checked whole (a 400
 * naming what is wrong, nothing made), with its Stripe Coupon and Promotion Code when it is for a
 * subscription plan, and its audit entry.
 */
export async function createOffer(
  tx: Tx,
  actor: Pick<Staff, 'userId' | 'email'>,
  body: OfferBody,
  context: {
    currency: string;
    tier: Pick<TierRow, 'id' | 'slug'>;
    plans: readonly PlanRow[];
    stripe: Stripe | null;
  },
): Promise<OfferRow> {
  const problems: string[] = [];
  if ((body.percentOff === undefined) === (body.amountOffCents === undefined)) {
    problems.push('give either percentOff or amountOffCents');
  }
  if (body.duration === 'repeating' && body.durationMonths === undefined) {
    problems.push('durationMonths: how many months a repeating offer lasts');
  }
  if (body.duration !== 'repeating' && body.durationMonths !== undefined) {
    problems.push('durationMonths is for a repeating offer only');
  }
  const endsAt = body.endsAt ? new Date(body.endsAt) : null;
  if (endsAt && endsAt.getTime() <= Date.now()) problems.push('endsAt: a time still to come');
  const once = context.plans.find((plan) => plan.id === 'early-access');
  if (body.plans.includes('early-access') && once && body.amountOffCents !== undefined) {
    if (
      discountedCents({ percentOff: null, amountOffCents: body.amountOffCents }, once.amountCents) <
      MIN_PLAN_CENTS
    ) {
      problems.push(
        `amountOffCents: the year paid once would cost less than ${MIN_PLAN_CENTS} cents (Stripe’s smallest charge)`,
      );
    }
  }
  if (body.percentOff === 100 && body.plans.includes('early-access')) {
    problems.push('percentOff: 100% off the year paid once is a comp (the desk gives those)');
  }
  const subscriptions = body.plans.some((plan) => plan !== 'early-access');
  if (subscriptions && !context.stripe) {
    problems.push('plans: an offer on a subscription needs payments on (the Stripe keys)');
  }
  if (problems.length > 0)
    throw new DomainError(400, 'invalid_offer', `Not an offer: ${problems.join('; ')}.`);

  const code = body.code.toUpperCase();
  const taken = await tx.query(`SELECT 1 FROM offers WHERE code = $1`, [code]);
  if (taken.rows.length > 0) {
    throw new DomainError(
      409,
      'offer_code_taken',
      `The code “${code}” is another offer’s already.`,
    );
  }
  const id = randomUUID();
  let couponId: string | null = null;
  let promotionCodeId: string | null = null;
  if (subscriptions && context.stripe) {
    const coupon = await callStripe(context.stripe, 'make the offer’s coupon', (stripe) =>
      stripe.coupons.create(
        {
          ...(body.percentOff !== undefined
            ? { percent_off: body.percentOff }
            : { amount_off: body.amountOffCents, currency: context.currency }),
          duration: body.duration,
          ...(body.durationMonths !== undefined && { duration_in_months: body.durationMonths }),
          name: code,
          metadata: { offerId: id },
        },
        { idempotencyKey: `offer-coupon-${id}` },
      ),
    );
    const promotion = await callStripe(
      context.stripe,
      'make the offer’s promotion code',
      (stripe) =>
        stripe.promotionCodes.create(
          {
            promotion: { type: 'coupon', coupon: coupon.id },
            code,
            ...(body.maxRedemptions !== undefined && { max_redemptions: body.maxRedemptions }),
            ...(endsAt && { expires_at: Math.floor(endsAt.getTime() / 1000) }),
            metadata: { offerId: id },
          },
          { idempotencyKey: `offer-promotion-${id}` },
        ),
    );
    couponId = coupon.id;
    promotionCodeId = promotion.id;
  }
  const { rows } = await tx.query<OfferRow>(
    `INSERT INTO offers (id, code, "percentOff", "amountOffCents", currency, duration,
                         "durationMonths", plans, "endsAt", "maxRedemptions", "stripeCouponId",
                         "stripePromotionCodeId", "createdBy", "tierId")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     RETURNING ${OFFER_COLUMNS}`,
    [
      id,
      code,
      body.percentOff ?? null,
      body.amountOffCents ?? null,
      context.currency,
      body.duration,
      body.durationMonths ?? null,
      body.plans,
      endsAt,
      body.maxRedemptions ?? null,
      couponId,
      promotionCodeId,
      actor.userId,
      context.tier.id,
    ],
  );
  const offer = rows[0];
  if (!offer) throw new Error('The offer was not stored');
  await writeAudit(tx, actor, {
    action: 'offer_create',
    targetUserId: null,
    before: null,
    after: { ...body, tier: context.tier.slug },
  });
  return offer;
}

/** Ends an offer now: its code is refused from then on (at Stripe too). */
export async function endOffer(
  tx: Tx,
  actor: Pick<Staff, 'userId' | 'email'>,
  id: string,
  stripe: Stripe | null,
): Promise<OfferRow> {
  const { rows } = await tx.query<OfferRow>(
    `UPDATE offers SET "endedAt" = coalesce("endedAt", now()) WHERE id = $1 RETURNING ${OFFER_COLUMNS}`,
    [id],
  );
  const offer = rows[0];
  if (!offer) throw new DomainError(404, 'not_found', 'No such offer.');
  if (offer.stripePromotionCodeId && stripe) {
    const promotionCodeId = offer.stripePromotionCodeId;
    await callStripe(stripe, 'end the offer’s promotion code', (s) =>
      s.promotionCodes.update(promotionCodeId, { active: false }),
    );
  }
  await writeAudit(tx, actor, {
    action: 'offer_end',
    targetUserId: null,
    before: { code: offer.code },
    after: { code: offer.code, endedAt: offer.endedAt },
  });
  return offer;
}

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newVisitor } from '#test/visitor';
import { withSite, type Site } from '#test/with-site';
import {
  createMembershipCheckout,
  switchSubscriptionPlan,
  type SubscriptionPlan,
} from '../stripe/membership-checkout.js';
import { randomUUID } from 'node:crypto';
import { earlyAccessMetadata, giftMetadata } from '../stripe/cohort-sales.js';
import { withTransaction } from '../db/transaction.js';
import { hashLinkToken } from '../mail/link-tokens.js';
import { deriveMembership, type EntitlementState, type LedgerEntry } from './derive-membership.js';
import { claimGift } from '../gifts/gift-ledger.js';

// Random payment histories for one visitor (one-time years, a monthly or yearly subscription with
// or without a free trial that converts or lapses, renewals, switches between monthly and yearly
// with Stripe's proration, gifts bought for the visitor and claimed before or after their refund
// or dispute is known, full and partial refunds, disputes won, lost or still open), their events delivered
// shuffled, duplicated and late: whatever the order, the membership the app shows must be what the
// payments Stripe holds say was paid and kept. The expectation is computed from the fake
// Stripe's own objects, not from the app's database.

const MEMBERSHIP_PRICE = { priceCents: 1200, currency: 'usd', priceId: undefined };

type Step =
  | { kind: 'pay-once'; discounted: boolean }
  | { kind: 'gift'; claim: boolean }
  | { kind: 'subscribe'; plan: 'monthly' | 'yearly'; trial: 'none' | 'with-card' | 'no-card' }
  | { kind: 'switch' }
  | { kind: 'renew' }
  | { kind: 'refund'; which: number; partial: boolean }
  | { kind: 'dispute'; which: number; outcome: 'open' | 'won' | 'lost' };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('pay-once' as const), discounted: fc.boolean() }),
  fc.record({ kind: fc.constant('gift' as const), claim: fc.boolean() }),
  fc.record({
    kind: fc.constant('subscribe' as const),
    plan: fc.constantFrom('monthly' as const, 'yearly' as const),
    trial: fc.constantFrom('none' as const, 'with-card' as const, 'no-card' as const),
  }),
  fc.constant({ kind: 'switch' as const }),
  fc.constant({ kind: 'renew' as const }),
  fc.record({
    kind: fc.constant('refund' as const),
    which: fc.nat(5),
    partial: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('dispute' as const),
    which: fc.nat(5),
    outcome: fc.constantFrom('open' as const, 'won' as const, 'lost' as const),
  }),
);

/** The events that tell of a refund or a dispute: held back when gifts are claimed first. */
const CHARGE_EVENTS = [
  'charge.refunded',
  'refund.created',
  'charge.dispute.created',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.closed',
  'charge.dispute.funds_reinstated',
];

interface Charge {
  id: string;
  amount: number;
  amount_refunded: number;
  disputed: boolean;
  payment_intent: string;
}

describe('the ledger against shuffled, duplicated and late Stripe events', () => {
  let t: Site;

  beforeAll(async () => {
    t = await withSite({ payments: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  /**
   * The visitor claims a gift, as its link's button does (the ledger's claim, on a token set here
   * in place of the mailed one): answers the claim, or nothing when the gift could not be claimed
   * (not known yet, or its payment already known to be taken back or disputed).
   */
  async function claim(userId: string, paymentIntentId: string) {
    const token = randomUUID();
    await t.database.pool.query(
      `INSERT INTO users (id, "updatedAt") VALUES ($1, now())
                                 ON CONFLICT (id) DO NOTHING`,
      [userId],
    );
    await t.database.pool.query(`UPDATE gifts SET "tokenHash" = $2 WHERE "paymentIntentId" = $1`, [
      paymentIntentId,
      hashLinkToken(token),
    ]);
    const now = new Date();
    const result = await withTransaction(t.database.pool, (tx) =>
      claimGift(tx, { tokenHash: hashLinkToken(token), userId, now }, { graceDays: 7 }),
    );
    return result.claimed ? [{ paymentIntentId, claimedAt: now }] : [];
  }

  /** What the fake Stripe's objects say the visitor paid and kept. */
  function expectedLedger(
    paymentIntentIds: string[],
    invoiceIds: string[],
    claimedGifts: { paymentIntentId: string; claimedAt: Date }[] = [],
  ): LedgerEntry[] {
    const fate = (paymentIntentId: string): EntitlementState => {
      const intent = t.stripe.get(paymentIntentId);
      const charge = t.stripe.get(String(intent.latest_charge)) as unknown as Charge;
      if (charge.amount_refunded >= charge.amount) return 'refunded';
      if (!charge.disputed) return 'active';
      const dispute = [...t.stripe.objects.values()].find(
        (o) => o.object === 'dispute' && o.charge === charge.id,
      );
      if (dispute?.status === 'lost') return 'revoked';
      return dispute?.status === 'won' ? 'active' : 'suspended';
    };
    const oneTime = paymentIntentIds.map((id) => {
      const charge = t.stripe.get(String(t.stripe.get(id).latest_charge));
      return {
        id,
        source: 'one-time' as const,
        subscriptionId: null,
        paidAt: new Date(Number(charge.created) * 1000),
        periodStart: null,
        periodEnd: null,
        days: 365,
        state: fate(id),
      };
    });
    const invoices = invoiceIds.map((id) => {
      const invoice = t.stripe.get(id) as unknown as {
        lines: {
          data: {
            period: { start: number; end: number };
            parent?: { subscription_item_details?: { proration?: boolean } };
          }[];
        };
        parent: { subscription_details: { subscription: string } };
        status_transitions: { paid_at: number };
      };
      const payment = [...t.stripe.objects.values()].find(
        (o) => o.object === 'invoice_payment' && o.invoice === id,
      ) as { payment: { payment_intent: string } } | undefined;
      // The period paid: the charged line, not a switch's credit for the old plan's rest.
      const line =
        invoice.lines.data.find((each) => !each.parent?.subscription_item_details?.proration) ??
        invoice.lines.data[0];
      return {
        id,
        source: 'subscription-invoice' as const,
        subscriptionId: invoice.parent.subscription_details.subscription,
        paidAt: new Date(invoice.status_transitions.paid_at * 1000),
        periodStart: new Date((line?.period.start ?? 0) * 1000),
        periodEnd: new Date((line?.period.end ?? 0) * 1000),
        days: null,
        state: payment ? fate(payment.payment.payment_intent) : ('active' as const),
      };
    });
    // A gift the visitor claimed: a year of its own from the claim, in its payment's state.
    const gifts = claimedGifts.map(({ paymentIntentId, claimedAt }) => ({
      id: paymentIntentId,
      source: 'gift' as const,
      subscriptionId: null,
      paidAt: new Date(
        Number(t.stripe.get(String(t.stripe.get(paymentIntentId).latest_charge)).created) * 1000,
      ),
      periodStart: claimedAt,
      periodEnd: null,
      days: 365,
      state: fate(paymentIntentId),
    }));
    return [...oneTime, ...invoices, ...gifts];
  }

  /** The fate of a gift's payment, as its row must end up. */
  const giftFate = (paymentIntentId: string) =>
    expectedLedger([paymentIntentId], []).map((entry) => entry.state)[0];

  it('shows exactly what was paid and kept, whatever order the events arrive in', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArbitrary, { minLength: 1, maxLength: 6 }),
        fc.integer(),
        fc.boolean(),
        fc.constantFrom('before-refunds' as const, 'after-everything' as const),
        async (steps, seed, duplicate, claimWhen) => {
          /** The charge that paid an invoice, if one did (a trial's or a credit's did not). */
          const paymentOf = (invoiceId: string): string | null => {
            const payment = [...t.stripe.objects.values()].find(
              (o) => o.object === 'invoice_payment' && o.invoice === invoiceId,
            ) as { payment: { payment_intent: string } } | undefined;
            if (!payment) return null;
            return String(t.stripe.get(payment.payment.payment_intent).latest_charge);
          };
          t.stripe.clearPending();
          const visitor = await newVisitor(t.app);
          const paymentIntentIds: string[] = [];
          const invoiceIds: string[] = [];
          const charges: string[] = [];
          const gifts: { paymentIntentId: string; claim: boolean }[] = [];
          let subscriptionId: string | null = null;

          for (const step of steps) {
            if (step.kind === 'pay-once') {
              // At the full price, or at an offer's (priced by the server, recorded in metadata).
              const price = step.discounted
                ? { ...MEMBERSHIP_PRICE, priceCents: 900 }
                : MEMBERSHIP_PRICE;
              const intent = t.stripe.paidPaymentIntent(
                {
                  ...earlyAccessMetadata(visitor.userId, price),
                  ...(step.discounted && { fullPriceCents: '1200' }),
                },
                price.priceCents,
              );
              paymentIntentIds.push(intent.id);
              charges.push(String(intent.latest_charge));
            } else if (step.kind === 'gift') {
              // Someone else buys the visitor a year; its refunds and disputes are the buyer's.
              const intent = t.stripe.paidPaymentIntent(
                giftMetadata(
                  {
                    giftId: randomUUID(),
                    buyerUserId: randomUUID(),
                    buyerEmail: null,
                    fromName: null,
                    recipientEmail: 'property-gift@example.com',
                    message: null,
                    sendAt: null,
                    tierId: null,
                  },
                  MEMBERSHIP_PRICE,
                ),
                MEMBERSHIP_PRICE.priceCents,
              );
              gifts.push({ paymentIntentId: intent.id, claim: step.claim });
              charges.push(String(intent.latest_charge));
            } else if (step.kind === 'subscribe' && !subscriptionId) {
              const plan = (await t.app.plans.list()).find(
                (each): each is SubscriptionPlan => each.id === step.plan,
              );
              if (!plan) throw new Error(`No ${step.plan} plan`);
              const { id: sessionId } = await createMembershipCheckout(t.app.requirePayments(), {
                userId: visitor.userId,
                email: null,
                customerId: null,
                siteUrl: 'http://localhost:3000',
                siteName: 'Cohort',
                plan,
                ...(step.trial !== 'none' && {
                  trial: { days: 14, needsCard: step.trial === 'with-card' },
                }),
              });
              if (step.trial === 'none') {
                const paid = t.stripe.completeCheckout(sessionId);
                subscriptionId = paid.subscription.id;
                invoiceIds.push(paid.invoice.id);
                charges.push(paid.charge.id);
              } else {
                const started = t.stripe.completeTrialCheckout(sessionId);
                subscriptionId = started.subscription.id;
                invoiceIds.push(started.invoice.id);
              }
            } else if (step.kind === 'renew' && subscriptionId) {
              const status = t.stripe.get(subscriptionId).status;
              if (status === 'trialing') {
                // The trial's end: paid with a card, ended without one.
                const ended = t.stripe.endTrial(subscriptionId);
                if (ended.invoice) invoiceIds.push(ended.invoice.id);
                const payment = ended.invoice ? paymentOf(ended.invoice.id) : null;
                if (payment) charges.push(payment);
                continue;
              }
              if (status !== 'active') continue;
              const renewal = t.stripe.renewSubscription(subscriptionId);
              invoiceIds.push(renewal.invoice.id);
              if (renewal.charge) charges.push(renewal.charge.id);
            } else if (step.kind === 'switch' && subscriptionId) {
              // Monthly ↔ yearly, as /account does it: Stripe's proration, invoiced at once.
              const subscription = t.stripe.get(subscriptionId);
              if (subscription.status !== 'active') continue;
              const [item] = (
                subscription.items as {
                  data: { id: string; price: { recurring: { interval: string } } }[];
                }
              ).data;
              if (!item) continue;
              const target = item.price.recurring.interval === 'month' ? 'yearly' : 'monthly';
              const plan = (await t.app.plans.list()).find(
                (each): each is SubscriptionPlan => each.id === target,
              );
              if (!plan) throw new Error(`No ${target} plan`);
              await switchSubscriptionPlan(t.app.requirePayments(), {
                subscriptionId,
                itemId: item.id,
                plan,
                siteName: 'Cohort',
              });
              const invoiceId = String(t.stripe.get(subscriptionId).latest_invoice);
              invoiceIds.push(invoiceId);
              const payment = paymentOf(invoiceId);
              if (payment) charges.push(payment);
            } else if (step.kind === 'refund' && charges.length > 0) {
              const charge = t.stripe.get(
                charges[step.which % charges.length] ?? '',
              ) as unknown as Charge;
              if (charge.amount_refunded > 0 || charge.disputed) continue;
              t.stripe.refund(charge.id, step.partial ? 100 : undefined);
            } else if (step.kind === 'dispute' && charges.length > 0) {
              const charge = t.stripe.get(
                charges[step.which % charges.length] ?? '',
              ) as unknown as Charge;
              if (charge.amount_refunded > 0 || charge.disputed) continue;
              const dispute = t.stripe.openDispute(charge.id);
              if (step.outcome !== 'open') t.stripe.closeDispute(dispute.id, step.outcome);
            }
          }

          // Deliver everything, shuffled; what the app then asks of Stripe (a cancellation, a
          // refund) makes more events: deliver those too, until none are left. The visitor claims
          // their gifts before the refunds' and disputes' events arrive, or after everything.
          const deliverAll = async (except?: string[]) => {
            for (let round = 0; round < 5 && t.stripe.pendingEvents().length > 0; round += 1) {
              const { delivered } = await t.stripe.deliverPending({
                order: 'shuffled',
                seed,
                duplicate,
                ...(except && { except }),
              });
              expect(delivered.filter((d) => d.status !== 200)).toEqual([]);
              if (except) break;
            }
          };
          await deliverAll(claimWhen === 'before-refunds' ? CHARGE_EVENTS : undefined);
          const claimedGifts: { paymentIntentId: string; claimedAt: Date }[] = [];
          for (const gift of gifts.filter((each) => each.claim)) {
            claimedGifts.push(...(await claim(visitor.userId, gift.paymentIntentId)));
          }
          await deliverAll();

          const held = subscriptionId ? t.stripe.get(subscriptionId) : null;
          const subscriptions = held
            ? [
                {
                  id: held.id,
                  status: String(held.status),
                  endedAt: held.ended_at ? new Date(Number(held.ended_at) * 1000) : null,
                },
              ]
            : [];
          const expected = deriveMembership(
            expectedLedger(paymentIntentIds, invoiceIds, claimedGifts),
            subscriptions,
            { graceDays: 7, now: new Date() },
          );
          const user = await visitor.me();
          const stored = await t.database.prisma.entitlement.findMany({
            where: { userId: visitor.userId },
            select: { id: true, state: true },
          });
          // Every paid source once, in the state Stripe's objects give it.
          const expectedStates = Object.fromEntries(
            expectedLedger(paymentIntentIds, invoiceIds, claimedGifts).map((e) => [e.id, e.state]),
          );
          expect(Object.fromEntries(stored.map((e) => [e.id, e.state]))).toEqual(expectedStates);
          // Every gift, claimed or not, in its payment's state.
          for (const gift of gifts) {
            const { rows } = await t.database.pool.query(
              `SELECT state::text FROM gifts WHERE "paymentIntentId" = $1`,
              [gift.paymentIntentId],
            );
            expect(rows[0]?.state).toBe(giftFate(gift.paymentIntentId));
          }

          if (!expected) {
            expect(user.membership).toBeNull();
            return;
          }
          expect(user.isSubscribed).toBe(
            ['active', 'trialing', 'past_due'].includes(expected.status) &&
              expected.expiresAt > new Date(),
          );
          if (user.isSubscribed) {
            expect(
              Math.abs(Date.parse(user.membership?.expiresAt ?? '') - expected.expiresAt.getTime()),
            ).toBeLessThan(5_000);
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});

import type Stripe from 'stripe';
import type pg from 'pg';
import { PLAN_SHAPES, type SubscriptionPlanId } from '../../../contract/plan-rules.js';
import type { AccountTier, TierMoveOption } from '../../../contract/tier-moves.js';
import { withTransaction } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { planUnavailable } from '../memberships/plan-catalog.js';
import { tierBySlug, type TierCatalog, type TierRow } from '../memberships/tier-catalog.js';
import type { Services } from '../services.js';
import { applyPaymentFacts } from './apply-payment-facts.js';
import { idOf, retrieveOrNull } from './call-stripe.js';
import { isCohortPrice } from './cohort-sales.js';
import { settleLedgerChange } from './handle-stripe-event.js';
import {
  moveSubscriptionPrice,
  moveSubscriptionUp,
  restoreSubscriptionPrice,
  switchSubscriptionPlan,
  type SubscriptionPlan,
} from './membership-checkout.js';
import { periodPriceId, readInvoiceFact, readSubscriptionFact } from './read-payment-facts.js';

/**
 * A member's changes to their running subscription from /account
 * (docs/decisions/0031-tier-moves.md): monthly ↔ yearly (decision 22), and a move to another
 * tier: to a dearer one now (Stripe's proration, invoiced and paid at once, so the invoice puts
 * the new tier on the ledger), to a cheaper one from the period's end (the price changes with
 * proration off: the paid period's invoice keeps its tier, the next is the new tier's). Each is
 * Stripe's call first, then what Stripe says now, placed on the ledger as any webhook places it;
 * the webhooks that follow find it there and change nothing more.
 */

export type MoveDeps = Pick<Services, 'db' | 'stripe' | 'membershipPrice' | 'log'>;

/** What a member asks for, with what the site sells and is called now. */
interface MoveRequest {
  userId: string;
  catalog: TierCatalog;
  siteName: string;
}

/** The member's running subscription as the ledger has it, and the period it has paid now. */
interface RunningSubscription {
  id: string;
  status: string;
  interval: 'month' | 'year';
  /** The tier its Price sells now (what it renews as). */
  tierId: number;
  /** What its Price charges (null: a Price without a unit amount). */
  amountCents: number | null;
  /** The tier of the period paid now: other than `tierId` while a move down waits. */
  paidTierId: number | null;
  /** The invoice of that period. */
  paidInvoiceId: string | null;
  periodEnd: Date | null;
  /** When the ledger last read it from Stripe: a change since makes a new request of the same. */
  syncedAt: Date;
}

async function readRunningSubscription(
  pool: Pick<pg.Pool, 'query'>,
  userId: string,
): Promise<RunningSubscription | null> {
  const { rows } = await pool.query<RunningSubscription>(
    `SELECT s.id, s.status, s.interval, s."tierId", s."amountCents",
            paid."tierId" AS "paidTierId", paid.id AS "paidInvoiceId",
            paid."periodEnd", s."syncedAt"
       FROM subscriptions s
       LEFT JOIN LATERAL (
         SELECT e.id, e."tierId", e."periodEnd" FROM entitlements e
          WHERE e."subscriptionId" = s.id AND e.state = 'active'
            AND e."periodStart" <= now() AND e."periodEnd" > now()
          ORDER BY e."paidAt" DESC, e."periodStart" DESC LIMIT 1
       ) paid ON true
      WHERE s."userId" = $1 AND s.status IN ('active', 'trialing')
        AND s.interval IN ('month', 'year')
      ORDER BY s."stripeCreatedAt" DESC LIMIT 1`,
    [userId],
  );
  return rows[0] ?? null;
}

const inTrial = () =>
  new DomainError(
    409,
    'in_trial',
    'Your free trial runs until its end on the plan you chose: change it after the trial, from this page.',
  );

const planOfInterval = (interval: 'month' | 'year'): SubscriptionPlanId =>
  interval === 'month' ? 'monthly' : 'yearly';

/** The subscription's plan of a tier, if the tier sells it now. */
const subscriptionPlan = (
  catalog: TierCatalog,
  tierId: number,
  id: SubscriptionPlanId,
): SubscriptionPlan | undefined =>
  catalog.plans
    .get(tierId)
    ?.find((plan): plan is SubscriptionPlan => plan.id === id && plan.enabled);

const tierById = (catalog: TierCatalog, id: number | null): TierRow | undefined =>
  catalog.tiers.find((tier) => tier.id === id);

/** The subscription at Stripe, and its item that is Cohort's membership. */
async function readMembershipItem(deps: MoveDeps, subscriptionId: string) {
  const subscription = await retrieveOrNull(deps.stripe, 'read a subscription', (stripe) =>
    stripe.subscriptions.retrieve(subscriptionId),
  );
  const item = subscription?.items.data.find((each) =>
    isCohortPrice(each.price, deps.membershipPrice),
  );
  if (!subscription || !item) {
    throw new DomainError(
      409,
      'no_subscription',
      'Your subscription could not be found at Stripe.',
    );
  }
  return item;
}

/**
 * What Stripe says now of the subscription, and of the invoice a change made, placed on the
 * ledger; refuses when the payment that change needed did not go through (nothing changed).
 */
async function recordChange(
  deps: MoveDeps,
  changed: Stripe.Subscription,
  options: { charged: boolean; graceDays: number },
): Promise<void> {
  if (options.charged && changed.pending_update) {
    throw new DomainError(
      402,
      'payment_failed',
      'Your card was not charged, so nothing changed: update your card in billing and try again.',
    );
  }
  const invoiceId = options.charged ? idOf(changed.latest_invoice) : null;
  const facts = [
    await readSubscriptionFact(deps, changed.id),
    invoiceId ? await readInvoiceFact(deps, invoiceId) : null,
  ].filter((fact) => fact !== null);
  if (facts.length === 0) return;
  const change = await withTransaction(deps.db.pool, (tx) =>
    applyPaymentFacts(tx, facts, { graceDays: options.graceDays }),
  );
  await settleLedgerChange(deps, change);
}

/** Refuses a change to a subscription that is not running, is in its trial or has a move waiting. */
async function requireRunning(
  deps: MoveDeps,
  request: MoveRequest,
): Promise<RunningSubscription & { paidTierId: number }> {
  const running = await readRunningSubscription(deps.db.pool, request.userId);
  if (!running) throw await noSubscription(deps, request);
  if (running.status === 'trialing') throw inTrial();
  return { ...running, paidTierId: running.paidTierId ?? running.tierId };
}

/** Why there is nothing to change, in the member's words: no membership, or one paid once. */
async function noSubscription(deps: MoveDeps, request: MoveRequest): Promise<DomainError> {
  const held = await readHeldTier(deps.db.pool, request.userId, request.catalog);
  return new DomainError(409, 'no_subscription', notRunning(held));
}

function notRunning(held: HeldTier | null): string {
  if (held?.plan === 'one-time') {
    return `Your membership was paid once (or given), so it stays ${held.tier.name} until it ends on ${dayOf(held.expiresAt)}: join another tier then.`;
  }
  return 'You have no running subscription to change: join with the plan you want instead.';
}

const dayOf = (date: Date) =>
  date.toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** The tier of the member's membership now (paid once or not), and when that membership ends. */
interface HeldTier {
  tier: TierRow;
  expiresAt: Date;
  plan: string;
}

async function readHeldTier(
  pool: Pick<pg.Pool, 'query'>,
  userId: string,
  catalog: TierCatalog,
): Promise<HeldTier | null> {
  const { rows } = await pool.query<{ tierId: number; expiresAt: Date; plan: string }>(
    `SELECT "tierId", "expiresAt", plan FROM memberships
      WHERE "userId" = $1 AND status IN ('active', 'trialing', 'past_due') AND "expiresAt" > now()`,
    [userId],
  );
  const row = rows[0];
  const tier = tierById(catalog, row?.tierId ?? null);
  return row && tier ? { tier, expiresAt: row.expiresAt, plan: row.plan } : null;
}

/**
 * Monthly ↔ yearly, at the member's tier (docs/decisions/0022-plans.md): Stripe starts the new
 * period now, credits the old one's unused time and charges the rest at once.
 */
export async function switchPlan(
  deps: MoveDeps,
  request: MoveRequest & { plan: SubscriptionPlanId; graceDays: number },
): Promise<void> {
  const running = await requireRunning(deps, request);
  if (running.paidTierId !== running.tierId) throw movePending(request.catalog, running);
  const tier = tierById(request.catalog, running.tierId);
  const plans = request.catalog.plans.get(running.tierId) ?? [];
  const plan = subscriptionPlan(request.catalog, running.tierId, request.plan);
  if (!tier || !plan) throw planUnavailable(request.plan, plans);
  const item = await readMembershipItem(deps, running.id);
  if (item.price.recurring?.interval === PLAN_SHAPES[plan.id].interval) {
    throw new DomainError(409, 'already_on_plan', `You are on the ${plan.id} plan already.`);
  }
  const switched = await switchSubscriptionPlan(deps, {
    subscriptionId: running.id,
    itemId: item.id,
    plan,
    siteName: request.siteName,
    tier,
    version: running.syncedAt.toISOString(),
  });
  await recordChange(deps, switched, { charged: true, graceDays: request.graceDays });
}

function movePending(catalog: TierCatalog, running: RunningSubscription): DomainError {
  const paid = tierById(catalog, running.paidTierId)?.name ?? 'your tier';
  const next = tierById(catalog, running.tierId)?.name ?? 'another tier';
  const on = running.periodEnd ? ` on ${dayOf(running.periodEnd)}` : '';
  return new DomainError(
    409,
    'move_pending',
    `You move to ${next}${on}. To change anything else, first choose to stay on ${paid}.`,
  );
}

/**
 * Moves the member's subscription to the tier `slug` names: a dearer price for their interval now
 * (charged the difference for the time left), a cheaper or equal one from the period's end; back
 * to the tier paid now, a move waiting for the period's end is undone (the paid Price again,
 * nothing charged).
 */
export async function moveTier(
  deps: MoveDeps,
  request: MoveRequest & { slug: string; graceDays: number },
): Promise<void> {
  const { catalog } = request;
  const running = await requireRunning(deps, request);
  const target = tierBySlug(
    catalog.tiers.filter((tier) => tier.visible || tier.id === running.paidTierId),
    request.slug,
  );
  const pending = running.paidTierId !== running.tierId;
  if (target.id === running.tierId) {
    if (pending) throw movePending(catalog, running);
    throw new DomainError(409, 'already_on_tier', `You are on ${target.name} already.`);
  }
  const item = await readMembershipItem(deps, running.id);
  const move = {
    subscriptionId: running.id,
    itemId: item.id,
    siteName: request.siteName,
    version: running.syncedAt.toISOString(),
  };
  if (pending) {
    if (target.id !== running.paidTierId) throw movePending(catalog, running);
    // Back to the Price the period was paid at: the member keeps the price they paid.
    const paidPrice = await readPaidPrice(deps, running.paidInvoiceId);
    const undone = await restoreSubscriptionPrice(deps, { ...move, price: paidPrice });
    await recordChange(deps, undone, { charged: false, graceDays: request.graceDays });
    return;
  }
  const planId = planOfInterval(running.interval);
  const plan = subscriptionPlan(catalog, target.id, planId);
  if (!plan) {
    throw new DomainError(
      400,
      'plan_unavailable',
      `${target.name} is not sold ${planId}: switch your plan first, or choose another tier.`,
    );
  }
  const up = plan.amountCents > (running.amountCents ?? 0);
  const moved = up
    ? await moveSubscriptionUp(deps, { ...move, plan, tier: target })
    : await moveSubscriptionPrice(deps, { ...move, plan, tier: target });
  await recordChange(deps, moved, { charged: up, graceDays: request.graceDays });
}

/** The Price the period paid now was charged at: its invoice's line for that period. */
async function readPaidPrice(deps: MoveDeps, invoiceId: string | null): Promise<string> {
  const invoice = invoiceId
    ? await retrieveOrNull(deps.stripe, 'read an invoice', (stripe) =>
        stripe.invoices.retrieve(invoiceId),
      )
    : null;
  const price = invoice ? periodPriceId(invoice) : null;
  if (!price) {
    throw new DomainError(409, 'no_subscription', 'Your paid period could not be read at Stripe.');
  }
  return price;
}

/**
 * The member's tier for /account: the tier now, what the subscription renews as, and the tiers
 * they may move to (with when), or why they may not.
 */
export async function readAccountTier(
  pool: Pick<pg.Pool, 'query'>,
  userId: string,
  catalog: TierCatalog,
): Promise<AccountTier> {
  const [held, running] = await Promise.all([
    readHeldTier(pool, userId, catalog),
    readRunningSubscription(pool, userId),
  ]);
  const name = (tier: TierRow | undefined) => (tier ? { slug: tier.slug, name: tier.name } : null);
  const paidTierId = running?.paidTierId ?? running?.tierId ?? null;
  const renewsAs =
    running && running.tierId !== paidTierId ? name(tierById(catalog, running.tierId)) : null;
  const answer: AccountTier = {
    tier: name(held?.tier),
    renewsAs,
    periodEnd: (running?.periodEnd ?? held?.expiresAt ?? null)?.toISOString() ?? null,
    interval: running?.interval ?? null,
    moves: [],
    refusal: null,
  };
  if (!held) return answer;
  if (!running) {
    return { ...answer, refusal: { code: 'no_subscription', message: notRunning(held) } };
  }
  if (running.status === 'trialing') {
    return { ...answer, refusal: { code: 'in_trial', message: inTrial().message } };
  }
  if (renewsAs) return answer;
  const planId = planOfInterval(running.interval);
  const moves = catalog.tiers.flatMap((tier): TierMoveOption[] => {
    const plan =
      tier.visible && tier.id !== running.tierId && subscriptionPlan(catalog, tier.id, planId);
    if (!plan) return [];
    return [
      {
        slug: tier.slug,
        name: tier.name,
        when: plan.amountCents > (running.amountCents ?? 0) ? 'now' : 'renewal',
        amountCents: plan.amountCents,
        currency: plan.currency,
      },
    ];
  });
  return { ...answer, moves };
}

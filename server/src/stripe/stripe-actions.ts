import type { Services } from '../services.js';
import {
  callStripe,
  hasStripeCode,
  PaymentsUnavailableError,
  retrieveOrNull,
} from './call-stripe.js';

/**
 * What the ledger owes Stripe: cancel a subscription whose paid period was taken back or that
 * duplicates another, refund a duplicate's payment. Queued in `stripe_actions` in the same
 * transaction as the ledger change that calls for it, run after the commit, and retried (every
 * minute, see plugins/app/payments.ts) until Stripe has done it. Each call carries an idempotency
 * key of its own, so a retry never cancels or refunds twice.
 */

interface ActionRow {
  id: string;
  kind: 'cancel_subscription' | 'refund_payment';
  target: string;
}

const FINISHED_SUBSCRIPTION = new Set(['canceled', 'incomplete_expired']);

/** Cancels a subscription now, unless Stripe has it finished already. */
export async function cancelSubscription(
  { stripe }: Pick<Services, 'stripe'>,
  subscriptionId: string,
): Promise<void> {
  const subscription = await retrieveOrNull(stripe, 'read a subscription', (s) =>
    s.subscriptions.retrieve(subscriptionId),
  );
  if (!subscription || FINISHED_SUBSCRIPTION.has(subscription.status)) return;
  await callStripe(stripe, 'cancel a subscription', (s) =>
    s.subscriptions.cancel(subscriptionId, undefined, {
      idempotencyKey: `cohort-cancel-${subscriptionId}`,
    }),
  );
}

async function refundPayment(
  { stripe }: Pick<Services, 'stripe'>,
  paymentIntentId: string,
): Promise<void> {
  try {
    await callStripe(stripe, 'refund a duplicate payment', (s) =>
      s.refunds.create(
        { payment_intent: paymentIntentId, reason: 'duplicate' },
        { idempotencyKey: `cohort-refund-${paymentIntentId}` },
      ),
    );
  } catch (error) {
    if (!hasStripeCode(error, 'charge_already_refunded')) throw error;
  }
}

/** Runs queued actions (these ids, or every one not done yet); failures stay queued. */
export async function runStripeActions(
  deps: Pick<Services, 'db' | 'stripe' | 'log'>,
  ids?: readonly string[],
): Promise<void> {
  const { rows } = await deps.db.pool.query<ActionRow>(
    `SELECT id, kind, target FROM stripe_actions
     WHERE "doneAt" IS NULL AND ($1::uuid[] IS NULL OR id = ANY($1::uuid[]))
     ORDER BY "createdAt" LIMIT 100`,
    [ids ?? null],
  );
  for (const action of rows) {
    try {
      if (action.kind === 'cancel_subscription') {
        await cancelSubscription(deps, action.target);
      } else {
        await refundPayment(deps, action.target);
      }
      await deps.db.pool.query(
        `UPDATE stripe_actions SET "doneAt" = now(), attempts = attempts + 1, "lastError" = NULL
         WHERE id = $1`,
        [action.id],
      );
      deps.log.warn({ action }, `stripe action done: ${action.kind} ${action.target}`);
    } catch (error) {
      const stripe = error instanceof PaymentsUnavailableError ? error.stripe : undefined;
      const message = stripe
        ? `${stripe.type} ${stripe.statusCode ?? ''} ${stripe.code ?? ''}: ${stripe.message}`
        : error instanceof Error
          ? error.message
          : String(error);
      await deps.db.pool
        .query(
          `UPDATE stripe_actions SET attempts = attempts + 1, "lastError" = $2 WHERE id = $1`,
          [action.id, message.slice(0, 1000)],
        )
        .catch(() => {});
      deps.log.error(
        { err: error, stripe, action },
        `stripe action failed, will retry: ${action.kind}`,
      );
    }
  }
}

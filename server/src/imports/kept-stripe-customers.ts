import type pg from 'pg';
import type Stripe from 'stripe';
import { withTransaction, type Tx } from '../db/transaction.js';
import type { MembershipPrice } from '../stripe/cohort-sales.js';
import type { SubscriptionReader } from '../stripe/read-payment-facts.js';
import type { AccountRow } from './member-accounts.js';
import { describeStripeFailure, readCustomerPayments, writePayments } from './member-stripe.js';
import type { Skipped } from './source.js';

// A member's Stripe customer named by an import while the site's payments are off is not lost:
// it is kept beside the account (`kept_stripe_customers`) and linked, with what it pays for, once
// the keys are set: by the next import, or by `npm run stripe:reconcile`. Until then the report
// says it is kept, not that it failed.

/** The report's words for a customer kept while payments are off. */
export const KEPT_WORDS = 'kept, to link when payments are on';

/** What the report's notes say of the members whose customers were kept. */
export function keptNote(members: number): string {
  const whose = members === 1 ? '1 member' : `${members} members`;
  return `Stripe customers of ${whose}: ${KEPT_WORDS} (set the Stripe keys, then run npm run stripe:reconcile or this import again)`;
}

/** Keeps the customer beside the account; answers whether it was not kept already. */
export async function keepStripeCustomer(
  tx: Tx,
  userId: string,
  customerId: string,
  source: string,
): Promise<boolean> {
  const { rowCount } = await tx.query(
    `INSERT INTO kept_stripe_customers ("userId", "customerId", source) VALUES ($1, $2, $3)
     ON CONFLICT ("userId", "customerId") DO NOTHING`,
    [userId, customerId, source],
  );
  return rowCount === 1;
}

/** Forgets a kept customer: it is linked now, or Stripe has none such. */
export async function forgetKeptStripeCustomer(
  tx: Tx,
  userId: string,
  customerId: string,
): Promise<void> {
  await tx.query('DELETE FROM kept_stripe_customers WHERE "userId" = $1 AND "customerId" = $2', [
    userId,
    customerId,
  ]);
}

export interface KeptLinkDeps {
  pool: pg.Pool;
  stripe: Stripe;
  membershipPrice: MembershipPrice;
  graceDays: number;
}

export interface KeptLinkResult {
  /** Customers now linked to their accounts, with what they pay for placed. */
  linked: number;
  /**
   * Each one not linked, with why (kept for next time unless Stripe has none such), and what the
   * ledger noticed placing the others' payments.
   */
  notes: Skipped[];
  /** Prices they pay that are neither the site's plans nor mapped: they grant nothing. */
  unmappedPrices: string[];
}

type KeptRow = AccountRow & { email: string; customerId: string };

/**
 * Links every kept customer: Stripe read (only read), then, in the member's own transaction, the
 * customer linked and its payments placed by the ledger's code (member-stripe.ts), as an import
 * with payments on does. An account that signs in with a password nobody proved gets none, as in
 * an import: the customer stays kept until its owner signs in with a mailed link.
 */
export async function linkKeptStripeCustomers(deps: KeptLinkDeps): Promise<KeptLinkResult> {
  const { rows } = await deps.pool.query<KeptRow>(
    `SELECT u.id, u.email, u.name, u.note, u.labels, u."emailVerifiedAt" IS NOT NULL AS proven,
            u."passwordHash" IS NOT NULL AS "hasPassword", k."customerId"
     FROM kept_stripe_customers k JOIN users u ON u.id = k."userId"
     ORDER BY k."createdAt", u.email`,
  );
  const reader: SubscriptionReader = {
    stripe: deps.stripe,
    membershipPrice: deps.membershipPrice,
    db: deps,
  };
  const result: KeptLinkResult = { linked: 0, notes: [], unmappedPrices: [] };
  const unmapped = new Set<string>();
  for (const row of rows) {
    const { customerId } = row;
    const item = row.email;
    let payments;
    try {
      payments = await readCustomerPayments(reader, customerId);
    } catch (error) {
      result.notes.push({
        item,
        reason: `Stripe could not be read for customer ${customerId} (${describeStripeFailure(error)}): still kept, to link next time`,
      });
      continue;
    }
    if (!payments.found) {
      await withTransaction(deps.pool, (tx) => forgetKeptStripeCustomer(tx, row.id, customerId));
      result.notes.push({ item, reason: payments.reason });
      continue;
    }
    if (row.hasPassword && !row.proven) {
      result.notes.push({
        item,
        reason: `Stripe customer ${customerId} still kept: the account here signs in with a password but never proved this address; it is linked once its owner has signed in with a mailed link`,
      });
      continue;
    }
    for (const price of payments.unmappedPrices) unmapped.add(price);
    const placed = await withTransaction(deps.pool, async (tx) => {
      const { rows: holders } = await tx.query<{ userId: string }>(
        'SELECT "userId" FROM stripe_customers WHERE id = $1',
        [customerId],
      );
      const elsewhere = holders.some((holder) => holder.userId !== row.id);
      const { notes } = await writePayments(tx, row, customerId, payments.facts, deps.graceDays);
      await forgetKeptStripeCustomer(tx, row.id, customerId);
      return { elsewhere, notes };
    });
    if (!placed.elsewhere) result.linked += 1;
    for (const reason of placed.notes) result.notes.push({ item, reason });
  }
  result.unmappedPrices = [...unmapped];
  return result;
}

/** The lines `npm run stripe:reconcile` and an import print of it. */
export function keptLinkLines(result: KeptLinkResult): string[] {
  if (result.linked === 0 && result.notes.length === 0) return [];
  const lines = [
    `Stripe customers kept from imports while payments were off: ${result.linked} linked`,
  ];
  for (const { item, reason } of result.notes) lines.push(`  ${item}: ${reason}`);
  return lines;
}

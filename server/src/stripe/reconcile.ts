import type Stripe from 'stripe';
import { EARLY_ACCESS_OFFER } from '../../../contract/constants.js';
import { GIFT_OFFER } from '../../../contract/gift-rules.js';
import { SEATS_OFFER } from '../../../contract/seat-rules.js';
import { withTransaction } from '../db/transaction.js';
import type { PaymentFact } from '../memberships/payment-facts.js';
import { applyPaymentFacts } from './apply-payment-facts.js';
import { callStripe, PaymentsUnavailableError } from './call-stripe.js';
import {
  handleStripeEvent,
  settleLedgerChange,
  type EventOutcome,
  type StripeEventDeps,
} from './handle-stripe-event.js';
import {
  readInvoiceFact,
  readPaymentIntentFact,
  readSubscriptionFact,
  type SubscriptionReader,
} from './read-payment-facts.js';

/**
 * `npm run stripe:reconcile -- --since <date>`: brings the ledger back in line with Stripe after a
 * database restore or a webhook outage longer than Stripe's retries.
 *
 * 1. Every event Stripe lists since then (the Events API keeps 30 days) that Cohort has not
 *    recorded goes through the webhook's own handler.
 * 2. Every Cohort subscription live at Stripe or in the ledger, or made since then, is read again
 *    with its paid invoices, and every early-access PaymentIntent made since then with its
 *    refunds and disputes: this reaches past the 30 days and catches what no event says any more.
 *
 * Everything is read from Stripe now and placed by the same ledger code as a webhook, so running
 * it twice changes nothing the second time.
 */

export interface ReconcileOptions {
  since: Date;
  /** Progress lines, for the command's output. */
  progress?: (line: string) => void;
}

export interface MembershipRow {
  plan: string;
  status: string;
  expiresAt: string;
}

export interface MembershipChange {
  userId: string;
  before: MembershipRow | null;
  after: MembershipRow | null;
}

export interface ReconcileReport {
  since: Date;
  /** Events Stripe listed since `since`. */
  eventsListed: number;
  /** Events Cohort had not recorded, and what the handler did with each. */
  eventsReplayed: { id: string; type: string; outcome: EventOutcome }[];
  subscriptionsRead: number;
  paymentsRead: number;
  changes: MembershipChange[];
  /** What could not be done (Stripe failed for one object): run again later. */
  failures: string[];
  /** How far back the Events API reached, when `since` is older than it keeps events. */
  eventsFrom: Date;
}

/** Stripe's Events API lists the last 30 days. */
const EVENT_RETENTION_MS = 30 * 24 * 3600 * 1000;
const LIVE_STATUSES = ['active', 'trialing', 'past_due', 'unpaid', 'incomplete', 'paused'];

/**
 * Every item of a paged Stripe answer, one page per call (each call bounded by STRIPE_TIMEOUT_MS):
 * `cursorAfter` says where the page after one starts.
 */
async function readAllPages<T, Page extends { data: T[]; has_more: boolean }>(
  stripe: Stripe,
  operation: string,
  fetchPage: (stripe: Stripe, cursor: string | undefined) => Promise<Page>,
  cursorAfter: (page: Page) => string | null | undefined,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await callStripe(stripe, operation, (s) => fetchPage(s, cursor));
    items.push(...page.data);
    cursor = (page.has_more && cursorAfter(page)) || undefined;
    if (!cursor) return items;
  }
}

/** Every item of a Stripe list: the next page starts after the last item of this one. */
export function listAll<T extends { id: string }>(
  stripe: Stripe,
  operation: string,
  fetchPage: (stripe: Stripe, startingAfter: string | undefined) => Promise<Stripe.ApiList<T>>,
): Promise<T[]> {
  return readAllPages(stripe, operation, fetchPage, (page) => page.data.at(-1)?.id);
}

/** Every membership row (or one user's), as text that compares exactly. */
async function memberships(
  deps: StripeEventDeps,
  userId: string | null = null,
): Promise<Map<string, MembershipRow>> {
  const { rows } = await deps.db.pool.query<MembershipRow & { userId: string }>(
    `SELECT "userId", plan::text AS plan, status,
            to_char("expiresAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "expiresAt"
     FROM memberships WHERE $1::uuid IS NULL OR "userId" = $1::uuid`,
    [userId],
  );
  return new Map(rows.map(({ userId, ...row }) => [userId, row]));
}

const sameRow = (a: MembershipRow | null, b: MembershipRow | null) =>
  a?.plan === b?.plan && a?.status === b?.status && a?.expiresAt === b?.expiresAt;

export async function reconcileStripe(
  deps: StripeEventDeps,
  options: ReconcileOptions,
): Promise<ReconcileReport> {
  const progress = options.progress ?? (() => {});
  const sinceSeconds = Math.floor(options.since.getTime() / 1000);
  const failures: string[] = [];
  const before = await memberships(deps);

  // 1. Events Cohort never recorded, oldest first, through the webhook's handler.
  const events = await listAll(deps.stripe, 'list events', (stripe, startingAfter) =>
    stripe.events.list({
      created: { gte: sinceSeconds },
      limit: 100,
      ...(startingAfter && { starting_after: startingAfter }),
    }),
  );
  events.reverse();
  const { rows: known } = await deps.db.pool.query<{ id: string }>(
    'SELECT id FROM stripe_events WHERE id = ANY($1::text[])',
    [events.map((event) => event.id)],
  );
  const recorded = new Set(known.map((row) => row.id));
  const missing = events.filter((event) => !recorded.has(event.id));
  progress(`${events.length} events since ${options.since.toISOString()}, ${missing.length} new`);
  const eventsReplayed: ReconcileReport['eventsReplayed'] = [];
  for (const event of missing) {
    try {
      const outcome = await handleStripeEvent(deps, event);
      eventsReplayed.push({ id: event.id, type: event.type, outcome });
    } catch (error) {
      failures.push(`event ${event.id} (${event.type}): ${describe(error)}`);
    }
  }

  // 2. Subscriptions live at Stripe (whatever their age) or made since then (ended ones too),
  // and the ledger's live ones, each with its paid invoices.
  const stripeSubscriptions = [
    ...(await listAll(deps.stripe, 'list subscriptions', (stripe, startingAfter) =>
      stripe.subscriptions.list({
        limit: 100,
        ...(startingAfter && { starting_after: startingAfter }),
      }),
    )),
    ...(await listAll(deps.stripe, 'list subscriptions', (stripe, startingAfter) =>
      stripe.subscriptions.list({
        status: 'all',
        created: { gte: sinceSeconds },
        limit: 100,
        ...(startingAfter && { starting_after: startingAfter }),
      }),
    )),
  ];
  const { rows: ledgerSubscriptions } = await deps.db.pool.query<{ id: string }>(
    'SELECT id FROM subscriptions WHERE status = ANY($1::text[])',
    [LIVE_STATUSES],
  );
  const subscriptionIds = new Set([
    ...stripeSubscriptions.map((subscription) => subscription.id),
    ...ledgerSubscriptions.map((row) => row.id),
  ]);
  let subscriptionsRead = 0;
  for (const subscriptionId of subscriptionIds) {
    try {
      const facts = await readSubscriptionWithInvoices(deps, subscriptionId);
      if (!facts) continue; // another product's
      subscriptionsRead += 1;
      await apply(deps, facts);
    } catch (error) {
      failures.push(`subscription ${subscriptionId}: ${describe(error)}`);
    }
  }

  // 3. Early-access, gift and seats payments made since then, with what became of them.
  const intents = await listAll(deps.stripe, 'list PaymentIntents', (stripe, startingAfter) =>
    stripe.paymentIntents.list({
      created: { gte: sinceSeconds },
      limit: 100,
      ...(startingAfter && { starting_after: startingAfter }),
    }),
  );
  let paymentsRead = 0;
  for (const intent of intents) {
    if (!isCohortPayment(intent)) continue;
    try {
      const fact = await readPaymentIntentFact(deps, intent.id);
      if (!fact) continue;
      paymentsRead += 1;
      await apply(deps, [fact]);
    } catch (error) {
      failures.push(`payment ${intent.id}: ${describe(error)}`);
    }
  }

  const after = await memberships(deps);
  const changes: MembershipChange[] = [];
  for (const userId of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(userId) ?? null;
    const now = after.get(userId) ?? null;
    if (!sameRow(was, now)) changes.push({ userId, before: was, after: now });
  }
  return {
    since: options.since,
    eventsListed: events.length,
    eventsReplayed,
    subscriptionsRead,
    paymentsRead,
    changes,
    failures,
    eventsFrom: new Date(Math.max(options.since.getTime(), Date.now() - EVENT_RETENTION_MS)),
  };
}

/**
 * A Cohort subscription (or one at a Price an import mapped) as Stripe has it now, with every paid
 * invoice; null for another product's. Also how an import reads its paying members.
 */
export async function readSubscriptionWithInvoices(
  deps: SubscriptionReader,
  subscriptionId: string,
): Promise<PaymentFact[] | null> {
  const subscription = await readSubscriptionFact(deps, subscriptionId);
  if (!subscription) return null;
  const invoices = await listAll(deps.stripe, 'list invoices', (stripe, startingAfter) =>
    stripe.invoices.list({
      subscription: subscriptionId,
      status: 'paid',
      limit: 100,
      ...(startingAfter && { starting_after: startingAfter }),
    }),
  );
  const facts: PaymentFact[] = [subscription];
  for (const invoice of invoices) {
    const fact = invoice.id ? await readInvoiceFact(deps, invoice.id) : null;
    if (fact) facts.push(fact);
  }
  return facts;
}

/** Every result of a Stripe search (Search API: results may lag a new object by about a minute). */
function searchAll<T extends { id: string }>(
  stripe: Stripe,
  operation: string,
  fetchPage: (stripe: Stripe, page: string | undefined) => Promise<Stripe.ApiSearchResult<T>>,
): Promise<T[]> {
  return readAllPages(stripe, operation, fetchPage, (result) => result.next_page);
}

export interface UserReconcileReport {
  userId: string;
  subscriptionsRead: number;
  paymentsRead: number;
  before: MembershipRow | null;
  after: MembershipRow | null;
  /** What could not be read (Stripe failed for one object): run again later. */
  failures: string[];
}

/**
 * Reads again from Stripe everything one user paid, as `stripe:reconcile` does for everyone: the
 * desk's "re-read from Stripe now", for a member whose webhook never arrived. It finds, for the user
 * and every anonymous id merged into them, the subscriptions of their Stripe customers and the
 * subscriptions and early-access payments whose metadata names them (Stripe's Search API: a payment
 * made within the last minute may not be searchable yet), plus everything the ledger already holds
 * for them, and places each through the webhook's own ledger code. Running it twice changes nothing.
 */
export async function reconcileUser(
  deps: StripeEventDeps,
  userId: string,
): Promise<UserReconcileReport> {
  const failures: string[] = [];
  const membershipOf = async () => (await memberships(deps, userId)).get(userId) ?? null;
  const before = await membershipOf();
  const { rows } = await deps.db.pool.query<{
    kind: 'id' | 'customer' | 'subscription' | 'payment';
    id: string;
  }>(
    `SELECT 'id' AS kind, "fromUserId"::text AS id FROM user_merges WHERE "toUserId" = $1
     UNION ALL SELECT 'customer', id FROM stripe_customers WHERE "userId" = $1
     UNION ALL SELECT 'subscription', id FROM subscriptions WHERE "userId" = $1
     UNION ALL SELECT 'payment', "paymentIntentId" FROM entitlements
               WHERE "userId" = $1 AND source IN ('one-time', 'gift')
                 AND "paymentIntentId" IS NOT NULL`,
    [userId],
  );
  const of = (kind: string) => rows.filter((row) => row.kind === kind).map((row) => row.id);
  // Ids Cohort wrote into metadata are UUIDs: nothing in them can break out of the query's quotes.
  const query = [userId, ...of('id')].map((id) => `metadata['userId']:'${id}'`).join(' OR ');

  const subscriptionIds = new Set(of('subscription'));
  const paymentIds = new Set(of('payment'));
  try {
    for (const customer of of('customer')) {
      const listed = await listAll(deps.stripe, 'list subscriptions', (stripe, startingAfter) =>
        stripe.subscriptions.list({
          customer,
          status: 'all',
          limit: 100,
          ...(startingAfter && { starting_after: startingAfter }),
        }),
      );
      for (const subscription of listed) subscriptionIds.add(subscription.id);
    }
    const searched = await searchAll(deps.stripe, 'search subscriptions', (stripe, page) =>
      stripe.subscriptions.search({ query, limit: 100, ...(page && { page }) }),
    );
    for (const subscription of searched) subscriptionIds.add(subscription.id);
    const intents = await searchAll(deps.stripe, 'search PaymentIntents', (stripe, page) =>
      stripe.paymentIntents.search({ query, limit: 100, ...(page && { page }) }),
    );
    for (const intent of intents) {
      if (isCohortPayment(intent)) paymentIds.add(intent.id);
    }
  } catch (error) {
    failures.push(`finding the user's payments: ${describe(error)}`);
  }

  let subscriptionsRead = 0;
  for (const subscriptionId of subscriptionIds) {
    try {
      const facts = await readSubscriptionWithInvoices(deps, subscriptionId);
      if (!facts) continue;
      subscriptionsRead += 1;
      await apply(deps, facts);
    } catch (error) {
      failures.push(`subscription ${subscriptionId}: ${describe(error)}`);
    }
  }
  let paymentsRead = 0;
  for (const paymentIntentId of paymentIds) {
    try {
      const fact = await readPaymentIntentFact(deps, paymentIntentId);
      if (!fact) continue;
      paymentsRead += 1;
      await apply(deps, [fact]);
    } catch (error) {
      failures.push(`payment ${paymentIntentId}: ${describe(error)}`);
    }
  }
  return { userId, subscriptionsRead, paymentsRead, before, after: await membershipOf(), failures };
}

const PAID_ONCE_OFFERS = new Set([EARLY_ACCESS_OFFER, GIFT_OFFER, SEATS_OFFER]);

/** A paid early-access, gift or seats PaymentIntent: the payments the ledger reads. */
const isCohortPayment = (intent: Stripe.PaymentIntent) =>
  PAID_ONCE_OFFERS.has(intent.metadata?.offer ?? '') && intent.status === 'succeeded';

async function apply(deps: StripeEventDeps, facts: PaymentFact[]): Promise<void> {
  const change = await withTransaction(deps.db.pool, (tx) =>
    applyPaymentFacts(tx, facts, { graceDays: deps.graceDays }),
  );
  await settleLedgerChange(deps, change);
}

function describe(error: unknown): string {
  if (error instanceof PaymentsUnavailableError) {
    const { type, statusCode, code, message } = error.stripe;
    return `Stripe ${type}${statusCode ? ` ${statusCode}` : ''}${code ? ` ${code}` : ''}: ${message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

const describeRow = (row: MembershipRow | null) =>
  row ? `${row.plan} ${row.status} until ${row.expiresAt.slice(0, 10)}` : 'no membership';

/** The report as the command prints it. */
export function formatReconcileReport(report: ReconcileReport): string {
  const lines = [
    `Events since ${report.since.toISOString()}: ${report.eventsListed} listed, ${report.eventsReplayed.length} not recorded before and now handled.`,
    ...report.eventsReplayed.map((event) => `  ${event.id} ${event.type}: ${event.outcome}`),
    `Subscriptions read again: ${report.subscriptionsRead}. Early-access payments read again: ${report.paymentsRead}.`,
  ];
  if (report.eventsFrom.getTime() > report.since.getTime()) {
    lines.push(
      `Note: Stripe lists events of the last 30 days only (from ${report.eventsFrom.toISOString()}); older payments were covered by reading the subscriptions and payments themselves.`,
    );
  }
  lines.push(
    report.changes.length === 0
      ? 'Memberships changed: none.'
      : `Memberships changed: ${report.changes.length}.`,
    ...report.changes.map(
      (change) =>
        `  user ${change.userId}: ${describeRow(change.before)} → ${describeRow(change.after)}`,
    ),
  );
  if (report.failures.length > 0) {
    lines.push(
      `Could not finish ${report.failures.length} item(s); run again once Stripe answers:`,
      ...report.failures.map((failure) => `  ${failure}`),
    );
  }
  return lines.join('\n');
}

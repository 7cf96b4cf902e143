import { randomUUID } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import type Stripe from 'stripe';
import {
  hasControlCharacters,
  isValidEmail,
  normalizeEmail,
} from '../../../contract/account-rules.js';
import { requestEmailSignIn, SIGN_IN_LINK_TTL_MS } from '../accounts/email-sign-in.js';
import type { AppConfig } from '../config.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { PrismaClient } from '../generated/prisma/client.js';
import type { Mail } from '../mail/mailer.js';
import { grantComp, MAX_COMP_DAYS } from '../memberships/comps.js';
import type { PaymentFact } from '../memberships/payment-facts.js';
import { applyPaymentFacts } from '../stripe/apply-payment-facts.js';
import { PaymentsUnavailableError, retrieveOrNull } from '../stripe/call-stripe.js';
import type { Offer } from '../stripe/offer.js';
import {
  INTERVAL_OF_PLAN,
  IMPORTED_PRICE_PLANS,
  isImportedPricePlan,
  type ImportedPricePlan,
  type SubscriptionReader,
} from '../stripe/read-payment-facts.js';
import { listAll, readSubscriptionWithInvoices } from '../stripe/reconcile.js';
import type { ImportCounts, ImportSource, Skipped, SourceMember } from './source.js';

/**
 * The members writer: another platform's members become accounts here, with their newsletter
 * consent, their comps and the memberships their Stripe customers pay for, and nothing is charged
 * or created at Stripe (it is only read). Each member is written in one transaction of their own
 * (account, consent, comp and payments together), so a member is imported whole or not at all, and
 * a dry run is the same work rolled back. Running it again changes nothing, except what was paid
 * at Stripe in between: every member's customer is read again each run, and the ledger is keyed by
 * Stripe's invoice ids, so nothing is granted twice.
 */

/** The part of run-import.ts's ImportDeps the members need. */
export interface MemberImportDeps {
  pool: pg.Pool;
  config: Pick<AppConfig, 'siteUrl' | 'siteName' | 'membership' | 'stripe'>;
  /** Null when payments are off: members with Stripe customers are imported without memberships. */
  stripe: Stripe | null;
  /** Only for the welcome mail, which is sent only when asked for. */
  mail: { send(mail: Mail): Promise<void> };
}

export interface MemberImportOptions {
  dryRun: boolean;
  /** `--price <Stripe price id>=<plan>`: another platform's Prices that count as a plan here. */
  prices: Record<string, string>;
  /** Mail each newly created member a welcome with a sign-in link. */
  welcome: boolean;
  source: ImportSource;
}

export interface MemberImportProgress {
  phase: string;
  done: number;
  total: number;
  message?: string;
}

export interface MemberImportResult {
  /**
   * Accounts created, updated (a field filled, consent given, a comp or a payment placed) and
   * unchanged. `skipped` names each address not imported, and each part of a member not taken
   * (an expired comp, a customer Stripe does not know): such a member is counted as well.
   */
  members: ImportCounts;
  /** Prices members pay at Stripe that are neither the site's plans nor mapped: they grant nothing. */
  unmappedPrices: string[];
}

/** Progress is reported after every this many members. */
const PROGRESS_EVERY = 50;
const DAY_MS = 24 * 60 * 60 * 1000;

const offerOf = (config: MemberImportDeps['config']): Offer => ({
  priceCents: config.membership.priceCents,
  currency: config.membership.currency,
  priceId: config.stripe?.priceId,
});

const invalidPriceMap = (message: string) => new DomainError(400, 'invalid_price_map', message);

/**
 * Checks `--price <price id>=<plan>` before anything is written: each plan one of the site's
 * subscription plans, each Price one Stripe has in this account, billed at that plan's interval.
 * Answers the mapping; throws a DomainError saying which one is wrong. Reads Stripe, never writes.
 */
export async function checkPriceMap(
  deps: Pick<MemberImportDeps, 'stripe'>,
  prices: Record<string, string>,
): Promise<Map<string, ImportedPricePlan>> {
  const mapping = new Map<string, ImportedPricePlan>();
  for (const [priceId, plan] of Object.entries(prices)) {
    if (!isImportedPricePlan(plan)) {
      throw invalidPriceMap(
        `--price ${priceId}=${plan}: the plan must be one of ${IMPORTED_PRICE_PLANS.join(', ')}.`,
      );
    }
    if (!/^[\w.-]{1,255}$/.test(priceId)) {
      throw invalidPriceMap(`--price ${priceId}=${plan}: that is not a Stripe price id.`);
    }
    mapping.set(priceId, plan);
  }
  if (mapping.size === 0) return mapping;
  const { stripe } = deps;
  if (!stripe) {
    throw invalidPriceMap(
      '--price maps Stripe prices, but payments are off on this site: set its Stripe keys first (docs/payments.md).',
    );
  }
  for (const [priceId, plan] of mapping) {
    const price = await retrieveOrNull(stripe, 'read a price', (s) => s.prices.retrieve(priceId));
    if (!price) {
      throw invalidPriceMap(
        `--price ${priceId}=${plan}: Stripe has no such price in this account.`,
      );
    }
    const interval = price.recurring?.interval;
    if (interval !== INTERVAL_OF_PLAN[plan]) {
      throw invalidPriceMap(
        `--price ${priceId}=${plan}: that price is ${interval ? `billed every ${interval}` : 'not a subscription'}, and the ${plan} plan is billed every ${INTERVAL_OF_PLAN[plan]}.`,
      );
    }
  }
  return mapping;
}

/** What Stripe says a member's customer pays for, read before the member's transaction. */
type CustomerPayments =
  | { found: true; facts: PaymentFact[]; unmappedPrices: string[] }
  | { found: false; reason: string };

async function readCustomerPayments(
  reader: SubscriptionReader,
  customerId: string,
): Promise<CustomerPayments> {
  const customer = await retrieveOrNull(reader.stripe, 'read a customer', (s) =>
    s.customers.retrieve(customerId),
  );
  if (!customer) {
    return {
      found: false,
      reason: `Stripe has no customer ${customerId} in this account: no paid membership`,
    };
  }
  if (customer.deleted) {
    return {
      found: false,
      reason: `Stripe customer ${customerId} was deleted: no paid membership`,
    };
  }
  const subscriptions = await listAll(reader.stripe, 'list subscriptions', (s, startingAfter) =>
    s.subscriptions.list({
      customer: customerId,
      status: 'all',
      limit: 100,
      ...(startingAfter && { starting_after: startingAfter }),
    }),
  );
  const facts: PaymentFact[] = [];
  const unmappedPrices: string[] = [];
  for (const subscription of subscriptions) {
    const read = await readSubscriptionWithInvoices(reader, subscription.id);
    if (read) facts.push(...read);
    else unmappedPrices.push(...subscription.items.data.map((item) => item.price.id));
  }
  return { found: true, facts, unmappedPrices };
}

function describeStripeFailure(error: unknown): string {
  if (!(error instanceof PaymentsUnavailableError)) throw error;
  const { type, statusCode, message } = error.stripe;
  return `${type}${statusCode ? ` ${statusCode}` : ''}: ${message}`;
}

/** Control characters (NUL and the like), which no name or label holds. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
/** The same, but a note keeps its line breaks and tabs. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** A name, note or label as the file has it, without control characters; null when empty. */
function cleanText(value: string | undefined, keepLines: boolean): string | null {
  const cleaned = (value ?? '').replace(keepLines ? CONTROL_BUT_LINES : CONTROL, ' ').trim();
  return cleaned === '' ? null : cleaned;
}

interface PreparedMember {
  email: string;
  name: string | null;
  note: string | null;
  labels: string[];
  subscribed: boolean;
  comp: SourceMember['comp'];
  createdAt: Date | null;
  stripeCustomerId: string | null;
}

function prepareMember(member: SourceMember, now: Date): PreparedMember | string {
  // Around the address, a line's end or a tab is the file's layout, not part of it.
  const email = normalizeEmail(member.email);
  if (hasControlCharacters(email)) return 'the address holds control characters';
  if (!isValidEmail(email)) return 'not a valid email address';
  const createdAt =
    member.createdAt && !Number.isNaN(member.createdAt.getTime()) && member.createdAt <= now
      ? member.createdAt
      : null;
  const labels = [
    ...new Set(member.labels.map((label) => cleanText(label, false)).filter((l) => l !== null)),
  ];
  return {
    email,
    name: cleanText(member.name, false),
    note: cleanText(member.note, true),
    labels,
    subscribed: member.subscribed,
    comp: member.comp,
    createdAt,
    stripeCustomerId: member.stripeCustomerId?.trim() || null,
  };
}

type Outcome = 'created' | 'updated' | 'unchanged';

interface MemberWritten {
  outcome: Outcome;
  /** What was not taken for this member, with why. */
  notes: string[];
}

/** Thrown inside a dry run's transaction to roll back what it wrote, carrying what it did. */
class DryRun extends Error {
  constructor(readonly written: MemberWritten) {
    super('dry run');
  }
}

interface MemberContext {
  graceDays: number;
  currency: string;
  source: ImportSource;
  now: Date;
}

interface AccountRow {
  id: string;
  name: string | null;
  note: string | null;
  labels: string[];
  proven: boolean;
  hasPassword: boolean;
}

/** What is here, unless it is empty: then the file's. */
const fillEmpty = (here: string | null, file: string | null) =>
  here !== null && here.trim() !== '' ? here : (file ?? here);

/**
 * The member's account: made (no password, the address not proven: its owner proves it by the
 * first sign-in with a mailed link or code, the only way an account without a password signs in),
 * or the one the address has, with its name and note filled only where empty and the file's labels
 * added. Answers the account and whether this made or changed it.
 */
async function writeAccount(
  tx: Tx,
  member: PreparedMember,
): Promise<{ account: AccountRow; outcome: Outcome }> {
  const select = `SELECT id, name, note, labels, "emailVerifiedAt" IS NOT NULL AS proven,
                         "passwordHash" IS NOT NULL AS "hasPassword"
                  FROM users WHERE email = $1`;
  const found = await tx.query<AccountRow>(`${select} FOR UPDATE`, [member.email]);
  const existing = found.rows[0];
  if (!existing) {
    const id = randomUUID();
    // Session version 1, as a registration makes: 0 is an anonymous visitor's.
    const inserted = await tx.query(
      `INSERT INTO users (id, email, name, note, labels, "sessionVersion", "createdAt", "updatedAt")
       VALUES ($1, $2, $3, $4, $5, 1, COALESCE($6, now()), now())
       ON CONFLICT (email) DO NOTHING`,
      [id, member.email, member.name, member.note, member.labels, member.createdAt],
    );
    if (inserted.rowCount === 1) {
      return {
        account: {
          id,
          name: member.name,
          note: member.note,
          labels: member.labels,
          proven: false,
          hasPassword: false,
        },
        outcome: 'created',
      };
    }
    // Made by a sign-up at this very moment: that account is the member's.
    return writeAccount(tx, member);
  }
  const name = fillEmpty(existing.name, member.name);
  const note = fillEmpty(existing.note, member.note);
  const labels = [...new Set([...existing.labels, ...member.labels])];
  if (
    name === existing.name &&
    note === existing.note &&
    labels.length === existing.labels.length
  ) {
    return { account: existing, outcome: 'unchanged' };
  }
  await tx.query(
    'UPDATE users SET name = $2, note = $3, labels = $4, "updatedAt" = now() WHERE id = $1',
    [existing.id, name, note, labels],
  );
  return { account: { ...existing, name, note, labels }, outcome: 'updated' };
}

/**
 * Consent given on the old platform: the address is on the newsletter, confirmed. An address
 * already here keeps its state (unsubscribed stays unsubscribed; an import never unsubscribes
 * anyone), except a sign-up still waiting for its confirmation, which the file confirms. The row
 * is the account's only when the account proved its address (docs/decisions/0014); otherwise the
 * first sign-in by link claims it (accounts/proven-address.ts). Answers whether anything changed.
 */
async function writeConsent(tx: Tx, account: AccountRow, email: string): Promise<boolean> {
  const { rows } = await tx.query<{ id: string; state: string }>(
    'SELECT id, state FROM newsletter_subscribers WHERE email = $1 FOR UPDATE',
    [email],
  );
  const existing = rows[0];
  if (existing) {
    if (existing.state !== 'pending') return false;
    await tx.query(
      `UPDATE newsletter_subscribers
       SET state = 'confirmed', "confirmedAt" = now(), "unsubscribedAt" = NULL,
           "confirmTokenHash" = NULL, "confirmExpiresAt" = NULL, "updatedAt" = now()
       WHERE id = $1`,
      [existing.id],
    );
    return true;
  }
  await tx.query(
    `INSERT INTO newsletter_subscribers (id, email, "userId", state, "confirmedAt", "updatedAt")
     VALUES ($1, $2,
             CASE WHEN $4::boolean AND NOT EXISTS (
                    SELECT 1 FROM newsletter_subscribers WHERE "userId" = $3::uuid)
                  THEN $3::uuid END,
             'confirmed', now(), now())`,
    [randomUUID(), email, account.id, account.proven],
  );
  return true;
}

const compReasonOf = (source: ImportSource) => `Imported from ${source}`;
const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The file's comp, through the ledger's comp path, until its end (one without an end: as long as
 * a comp may run). A comp that has ended gives nothing; a comp this import already placed (a
 * second run) is not placed again. Answers what was not taken, or null.
 */
async function writeComp(
  tx: Tx,
  account: AccountRow,
  comp: NonNullable<SourceMember['comp']>,
  context: MemberContext,
): Promise<{ granted: boolean; note: string | null }> {
  const reason = compReasonOf(context.source);
  const already = await tx.query(
    `SELECT 1 FROM entitlements WHERE "userId" = $1 AND source = 'comp' AND "compReason" = $2`,
    [account.id, reason],
  );
  if (already.rowCount) return { granted: false, note: null };
  const longest = new Date(context.now.getTime() + (MAX_COMP_DAYS - 1) * DAY_MS);
  const until = comp.until && comp.until < longest ? comp.until : longest;
  if (until <= context.now) {
    return { granted: false, note: `comp ended on ${day(until)}: no comp` };
  }
  await grantComp(
    tx,
    { userId: account.id, until, reason, grantedBy: null, currency: context.currency },
    { graceDays: context.graceDays, now: context.now },
  );
  return { granted: true, note: null };
}

/**
 * The customer's payments, placed by the webhook's own ledger code once the customer is the
 * account's. A customer already linked to another account here stays that account's. What the
 * ledger noticed (a duplicate subscription it revoked) is reported with the member; a cancellation
 * or refund it queues for Stripe is not run by the import, which only reads Stripe: the running
 * site's retry (plugins/app/payments.ts) runs it, as for any queued action.
 */
async function writePayments(
  tx: Tx,
  account: AccountRow,
  customerId: string,
  facts: PaymentFact[],
  graceDays: number,
): Promise<{ linked: boolean; notes: string[] }> {
  // Linked here unless it already is (to this account, or another: a payment made here before).
  const linked = await tx.query(
    `INSERT INTO stripe_customers (id, "userId") VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`,
    [customerId, account.id],
  );
  const { rows } = await tx.query<{ userId: string; email: string | null }>(
    `SELECT c."userId", u.email FROM stripe_customers c LEFT JOIN users u ON u.id = c."userId"
     WHERE c.id = $1`,
    [customerId],
  );
  const holder = rows[0];
  if (holder?.userId !== account.id) {
    return {
      linked: false,
      notes: [
        `Stripe customer ${customerId} belongs to another account here (${holder?.email ?? 'an anonymous one'}): its payments stay there`,
      ],
    };
  }
  const change = facts.length > 0 ? await applyPaymentFacts(tx, facts, { graceDays }) : null;
  return { linked: linked.rowCount === 1, notes: change?.notices ?? [] };
}

type MembershipRow = { plan: string; status: string; expiresAt: Date } | undefined;

async function membershipOf(tx: Tx, userId: string): Promise<MembershipRow> {
  const { rows } = await tx.query<NonNullable<MembershipRow>>(
    'SELECT plan::text, status, "expiresAt" FROM memberships WHERE "userId" = $1',
    [userId],
  );
  return rows[0];
}

const sameMembership = (a: MembershipRow, b: MembershipRow) =>
  a?.plan === b?.plan &&
  a?.status === b?.status &&
  a?.expiresAt.getTime() === b?.expiresAt.getTime();

/** One member, whole, inside their transaction. */
async function writeMember(
  tx: Tx,
  member: PreparedMember,
  payments: CustomerPayments | null,
  context: MemberContext,
): Promise<MemberWritten> {
  const notes: string[] = [];
  const { account, outcome } = await writeAccount(tx, member);
  let changed = outcome !== 'unchanged';
  if (member.subscribed && (await writeConsent(tx, account, member.email))) changed = true;

  const before = await membershipOf(tx, account.id);
  // Money here goes to whoever can prove the address. An account that signs in with a password
  // nobody proved may be someone else's registration of it: it gets no comp and no payments until
  // its owner signs in with a mailed link and the import runs again.
  const unproven = account.hasPassword && !account.proven;
  const unprovenNote = (what: string) =>
    `${what} not placed: the account here signs in with a password but never proved this address; run the import again once its owner has signed in with a mailed link`;
  if (member.comp) {
    if (unproven) notes.push(unprovenNote('comp'));
    else {
      const comp = await writeComp(tx, account, member.comp, context);
      if (comp.note) notes.push(comp.note);
    }
  }
  if (member.stripeCustomerId && payments?.found) {
    if (unproven) notes.push(unprovenNote('paid membership'));
    else {
      const placed = await writePayments(
        tx,
        account,
        member.stripeCustomerId,
        payments.facts,
        context.graceDays,
      );
      if (placed.linked) changed = true;
      notes.push(...placed.notes);
    }
  }
  if (!sameMembership(before, await membershipOf(tx, account.id))) changed = true;
  return {
    outcome: outcome === 'created' ? 'created' : changed ? 'updated' : 'unchanged',
    notes,
  };
}

/** The welcome: where the member's account now is, and a link that signs them in. */
export function welcomeMail(
  signIn: { email: string; token: string },
  site: { siteUrl: string; siteName: string },
): { to: string; subject: string; text: string } {
  const minutes = SIGN_IN_LINK_TTL_MS / 60_000;
  return {
    to: signIn.email,
    subject: `Welcome to ${site.siteName}’s new home`,
    text:
      `${site.siteName} has moved to ${site.siteUrl}, and your account came along with this ` +
      `address: your newsletter, and your membership if you have one, are as they were.\n\n` +
      `Open this link and press the button to sign in (it works once, for the next ${minutes} minutes):\n\n` +
      `${site.siteUrl}/sign-in/link#token=${signIn.token}\n\n` +
      `After that, sign in at ${site.siteUrl}/login with "Email me a sign-in link": no password needed.\n`,
  };
}

/**
 * Mails welcomes, each with a sign-in link made as "Email me a sign-in link" makes one
 * (accounts/email-sign-in.ts, through Prisma over the import's pool). Answers what failed, or null.
 */
function welcomeSender(deps: MemberImportDeps) {
  let prisma: PrismaClient | null = null;
  return {
    async send(email: string): Promise<string | null> {
      prisma ??= new PrismaClient({ adapter: new PrismaPg(deps.pool) });
      try {
        const signIn = await requestEmailSignIn(
          { db: { prisma } },
          { email, askedBy: null, withCode: false },
        );
        await deps.mail.send(welcomeMail(signIn, deps.config));
        return null;
      } catch (error) {
        return `welcome mail not sent: ${error instanceof Error ? error.message : String(error)}`;
      }
    },
    /** Lets the client go; the pool is the caller's and stays open. */
    async close() {
      await prisma?.$disconnect();
    },
  };
}

/**
 * Writes the members (or, with `dryRun`, counts what writing them would do, reading Stripe but
 * writing nothing). Throws a DomainError before writing anything when `prices` is wrong.
 */
export async function writeMembers(
  deps: MemberImportDeps,
  members: SourceMember[],
  options: MemberImportOptions,
  onProgress?: (progress: MemberImportProgress) => void,
): Promise<MemberImportResult> {
  const importedPrices = await checkPriceMap(deps, options.prices);
  if (!options.dryRun && importedPrices.size > 0) {
    await withTransaction(deps.pool, async (tx) => {
      for (const [priceId, plan] of importedPrices) {
        await tx.query(
          `INSERT INTO imported_prices ("priceId", plan) VALUES ($1, $2)
           ON CONFLICT ("priceId") DO UPDATE SET plan = EXCLUDED.plan`,
          [priceId, plan],
        );
      }
    });
  }
  const reader: SubscriptionReader | null = deps.stripe && {
    stripe: deps.stripe,
    offer: offerOf(deps.config),
    db: deps,
    importedPrices,
  };
  const now = new Date();
  const context: MemberContext = {
    graceDays: deps.config.membership.graceDays,
    currency: deps.config.membership.currency,
    source: options.source,
    now,
  };
  const counts: ImportCounts = { created: 0, updated: 0, unchanged: 0, skipped: [] };
  const unmappedPrices = new Set<string>();
  const seen = new Set<string>();
  const skip = (item: string, reason: string) => counts.skipped.push({ item, reason });
  const total = members.length;
  const progress = (done: number) => onProgress?.({ phase: 'members', done, total });
  const welcomes = options.welcome && !options.dryRun ? welcomeSender(deps) : null;

  for (const [index, member] of members.entries()) {
    if (index > 0 && index % PROGRESS_EVERY === 0) progress(index);
    const prepared = prepareMember(member, now);
    if (typeof prepared === 'string') {
      skip(member.email.trim() || '(no address)', prepared);
      continue;
    }
    if (seen.has(prepared.email)) {
      skip(prepared.email, 'the file lists this address more than once: the first is imported');
      continue;
    }
    seen.add(prepared.email);

    const notes: Skipped[] = [];
    let payments: CustomerPayments | null = null;
    if (prepared.stripeCustomerId) {
      if (!reader) {
        notes.push({
          item: prepared.email,
          reason: `Stripe customer ${prepared.stripeCustomerId}: payments are off on this site, so no paid membership`,
        });
      } else {
        try {
          payments = await readCustomerPayments(reader, prepared.stripeCustomerId);
        } catch (error) {
          notes.push({
            item: prepared.email,
            reason: `Stripe could not be read for customer ${prepared.stripeCustomerId} (${describeStripeFailure(error)}): no paid membership this time, run the import again`,
          });
        }
        if (payments && !payments.found)
          notes.push({ item: prepared.email, reason: payments.reason });
        if (payments?.found) for (const price of payments.unmappedPrices) unmappedPrices.add(price);
      }
    }

    const written = await withTransaction(deps.pool, async (tx) => {
      const result = await writeMember(tx, prepared, payments, context);
      if (options.dryRun) throw new DryRun(result);
      return result;
    }).catch((error: unknown) => {
      if (error instanceof DryRun) return error.written;
      throw error;
    });
    counts[written.outcome] += 1;
    for (const note of written.notes) notes.push({ item: prepared.email, reason: note });
    if (welcomes && !options.dryRun && written.outcome === 'created') {
      const failed = await welcomes.send(prepared.email);
      if (failed) notes.push({ item: prepared.email, reason: failed });
    }
    counts.skipped.push(...notes);
  }
  await welcomes?.close();
  progress(total);
  return { members: counts, unmappedPrices: [...unmappedPrices] };
}

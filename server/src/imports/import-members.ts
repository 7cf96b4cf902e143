import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import type Stripe from 'stripe';
import { requestEmailSignIn, SIGN_IN_LINK_TTL_MS } from '../accounts/email-sign-in.js';
import type { AppConfig } from '../config.js';
import { readSiteSettings } from '../content/site-settings.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { PrismaClient } from '../generated/prisma/client.js';
import type { Mail } from '../mail/mailer.js';
import { membershipPriceOf } from '../stripe/cohort-sales.js';
import { readTiers } from '../memberships/tier-catalog.js';
import type { ImportedPrice, SubscriptionReader } from '../stripe/read-payment-facts.js';
import type { ImportCounts, ImportSource, Skipped, SourceMember } from './source.js';
import {
  prepareMember,
  writeAccount,
  writeConsent,
  type Outcome,
  type PreparedMember,
} from './member-accounts.js';
import { writeComp, type MemberContext } from './member-comps.js';
import { forgetKeptStripeCustomer, keepStripeCustomer } from './kept-stripe-customers.js';
import {
  checkPriceMap,
  describeStripeFailure,
  priceTiersOf,
  readCustomerPayments,
  writePayments,
  type CustomerPayments,
} from './member-stripe.js';

/**
 * The members writer: another platform's members become accounts here, with their newsletter
 * consent, their comps and the memberships their Stripe customers pay for, and nothing is charged
 * or created at Stripe (it is only read). Each member is written in one transaction of their own
 * (account, consent, comp and payments together), so a member is imported whole or not at all, and
 * a dry run is the same work rolled back. Running it again changes nothing, except what was paid
 * at Stripe in between: every member's customer is read again each run, and the ledger is keyed by
 * Stripe's invoice ids, so nothing is granted twice. Accounts and consent are member-accounts.ts's,
 * comps member-comps.ts's, Stripe member-stripe.ts's.
 */

/** The part of run-import.ts's ImportDeps the members need. */
export interface MemberImportDeps {
  pool: pg.Pool;
  config: Pick<AppConfig, 'siteUrl' | 'siteName' | 'membership' | 'stripe'>;
  /**
   * Null when payments are off: members with Stripe customers are imported without memberships,
   * their customers kept to link once payments are on (kept-stripe-customers.ts).
   */
  stripe: Stripe | null;
  /** Only for the welcome mail, which is sent only when asked for. */
  mail: { send(mail: Mail): Promise<void> };
}

export interface MemberImportOptions {
  dryRun: boolean;
  /**
   * `--price <Stripe price id>=[<tier>/]<plan>`: another platform's Prices that count as a plan
   * here, of a tier (the first when it names none).
   */
  prices: Record<string, string>;
  /**
   * The tiers' slugs the same import makes from its export before its members (run-import.ts):
   * a dry run, which made none, takes them as the site's.
   */
  comingTiers?: string[];
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
  /** Members whose Stripe customers were kept, payments being off, to link once they are on. */
  keptCustomers: number;
}

/** Progress is reported after every this many members. */
const PROGRESS_EVERY = 50;

interface MemberWritten {
  outcome: Outcome;
  /** What was not taken for this member, with why. */
  notes: string[];
  /** Its Stripe customer was kept to link later (payments are off). */
  kept: boolean;
}

/** Thrown inside a dry run's transaction to roll back what it wrote, carrying what it did. */
class DryRun extends Error {
  constructor(readonly written: MemberWritten) {
    super('dry run');
  }
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

/**
 * One member, whole, inside their transaction. Without `payments` (payments are off) the member's
 * Stripe customer is kept beside the account, to link once they are on (kept-stripe-customers.ts).
 */
async function writeMember(
  tx: Tx,
  member: PreparedMember,
  payments: CustomerPayments | null,
  context: MemberContext,
  paymentsOn: boolean,
): Promise<MemberWritten> {
  const notes: string[] = [];
  const { account, outcome } = await writeAccount(tx, member);
  let changed = outcome !== 'unchanged';
  if (member.subscribed && (await writeConsent(tx, account, member.email))) changed = true;
  const keptCustomer = paymentsOn ? null : member.stripeCustomerId;
  if (keptCustomer && (await keepStripeCustomer(tx, account.id, keptCustomer, context.source)))
    changed = true;

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
      await forgetKeptStripeCustomer(tx, account.id, member.stripeCustomerId);
    }
  }
  if (!sameMembership(before, await membershipOf(tx, account.id))) changed = true;
  return {
    outcome: outcome === 'created' ? 'created' : changed ? 'updated' : 'unchanged',
    notes,
    kept: keptCustomer !== null,
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
  let siteName: string | null = null;
  return {
    async send(email: string): Promise<string | null> {
      prisma ??= new PrismaClient({ adapter: new PrismaPg(deps.pool) });
      try {
        const signIn = await requestEmailSignIn(
          { db: { prisma } },
          { email, askedBy: null, withCode: false },
        );
        // The publication's name as its settings say (the desk may have renamed it), once a run.
        siteName ??= (await readSiteSettings(deps.pool, { title: deps.config.siteName })).title;
        await deps.mail.send(welcomeMail(signIn, { siteUrl: deps.config.siteUrl, siteName }));
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
  const mapping = await checkPriceMap(deps, options.prices);
  const importedPrices =
    mapping.size === 0
      ? new Map<string, ImportedPrice>()
      : priceTiersOf(mapping, await readTiers(deps.pool), options.comingTiers);
  if (!options.dryRun && importedPrices.size > 0) {
    await withTransaction(deps.pool, async (tx) => {
      for (const [priceId, { plan, tierId }] of importedPrices) {
        await tx.query(
          `INSERT INTO imported_prices ("priceId", plan, "tierId") VALUES ($1, $2, $3)
           ON CONFLICT ("priceId") DO UPDATE SET plan = EXCLUDED.plan, "tierId" = EXCLUDED."tierId"`,
          [priceId, plan, tierId],
        );
      }
    });
  }
  const reader: SubscriptionReader | null = deps.stripe && {
    stripe: deps.stripe,
    membershipPrice: membershipPriceOf(deps.config),
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
  let keptCustomers = 0;
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
    if (prepared.stripeCustomerId && reader) {
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

    const written = await withTransaction(deps.pool, async (tx) => {
      const result = await writeMember(tx, prepared, payments, context, reader !== null);
      if (options.dryRun) throw new DryRun(result);
      return result;
    }).catch((error: unknown) => {
      if (error instanceof DryRun) return error.written;
      throw error;
    });
    counts[written.outcome] += 1;
    if (written.kept) keptCustomers += 1;
    for (const note of written.notes) notes.push({ item: prepared.email, reason: note });
    if (welcomes && !options.dryRun && written.outcome === 'created') {
      const failed = await welcomes.send(prepared.email);
      if (failed) notes.push({ item: prepared.email, reason: failed });
    }
    counts.skipped.push(...notes);
  }
  await welcomes?.close();
  progress(total);
  return { members: counts, unmappedPrices: [...unmappedPrices], keptCustomers };
}

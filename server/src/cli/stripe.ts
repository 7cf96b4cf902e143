import { parseArgs } from 'node:util';
import {
  commandLog,
  commandWithSubcommands,
  fail,
  messageOf,
  printerOf,
  readConfigOrFail,
  type CommandIo,
} from './command-line.js';
import type { AppConfig, StripeConfig } from '../config.js';
import { keysOf } from '../stripe/key-check.js';
import { openDatabase, reachableDatabaseUrl } from './open-database.js';
import { createDatabase } from '../db/database.js';
import { readPlans, type PlanRow } from '../memberships/plan-catalog.js';
import { membershipPriceOf } from '../stripe/cohort-sales.js';
import { formatReconcileReport, reconcileStripe } from '../stripe/reconcile.js';
import { keptLinkLines, linkKeptStripeCustomers } from '../imports/kept-stripe-customers.js';
import { checkStripeSetup, formatFindings } from '../stripe/stripe-check.js';
import { createStripeClient } from '../stripe/stripe-client.js';

/**
 * The operator's Stripe commands, with the site's own configuration (the same environment as the
 * server):
 *   npm run stripe:check                       is Stripe set up the way Cohort needs it?
 *   npm run stripe:reconcile -- --since DATE   replay what the database missed since DATE, and
 *                                              link the Stripe customers imports kept while
 *                                              payments were off
 * Exit status 0 when all is well, 1 when something needs the operator, 2 for a wrong command.
 */

const USAGE = `usage:
  stripe check
  stripe reconcile --since <date>   (an ISO date such as 2026-11-01, or a number of days: 7d)`;

function readConfig(env: NodeJS.ProcessEnv): AppConfig & { stripe: StripeConfig } {
  const config = readConfigOrFail(env);
  if (!config.stripe) {
    fail(
      'Payments are off: set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET (see docs/payments.md).',
    );
  }
  return { ...config, stripe: config.stripe };
}

/** `2026-11-01`, `2026-11-01T12:00:00Z` or `7d` (days back from now). */
function parseSince(value: string | undefined, now = new Date()): Date | null {
  if (!value) return null;
  const days = /^(\d{1,4})d$/.exec(value);
  if (days) return new Date(now.getTime() - Number(days[1]) * 24 * 3600 * 1000);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) || date > now ? null : date;
}

/**
 * The desk's plans, read from the site's database when it can be reached without opening it
 * (a check changes nothing: it neither starts the embedded database nor migrates one); null, and
 * said, otherwise.
 */
async function readPlansOrSay(config: AppConfig, io: CommandIo): Promise<PlanRow[] | null> {
  const reachable = reachableDatabaseUrl(config);
  if (!reachable) {
    printerOf(io).out(
      '(plans not checked: the embedded database is read only while the site runs; start it, or set DATABASE_URL)',
    );
    return null;
  }
  const database = createDatabase(reachable.url, {
    maxConnections: 1,
    embedded: reachable.embedded,
  });
  try {
    return await readPlans(database.pool);
  } catch (error) {
    printerOf(io).out(`(plans not checked: ${messageOf(error)})`);
    return null;
  } finally {
    await database.close();
  }
}

async function check(env: NodeJS.ProcessEnv, io: CommandIo): Promise<number> {
  const config = readConfig(env);
  const stripe = createStripeClient(config.stripe);
  const plans = await readPlansOrSay(config, io);
  const findings = await checkStripeSetup({
    stripe,
    membershipPrice: membershipPriceOf(config),
    ...(plans && { plans }),
    keys: keysOf(config.stripe),
    siteUrl: config.siteUrl,
    production: config.env === 'production',
  });
  printerOf(io).out(formatFindings(findings));
  return findings.some((finding) => finding.level === 'error') ? 1 : 0;
}

async function reconcile(args: string[], env: NodeJS.ProcessEnv, io: CommandIo): Promise<number> {
  const { values } = parseArgs({ args, options: { since: { type: 'string' } }, strict: true });
  const since = parseSince(values.since);
  if (!since) fail(`--since needs a past date (2026-11-01) or a number of days (7d)\n${USAGE}`, 2);
  const config = readConfig(env);
  const log = commandLog(config, io);
  const { out } = printerOf(io);
  const { database, embedded } = await openDatabase(config, log);
  try {
    const stripe = createStripeClient(config.stripe);
    const membershipPrice = membershipPriceOf(config);
    const { graceDays } = config.membership;
    // The customers imports kept while payments were off first: then what they pay is the
    // ledger's when Stripe's events and subscriptions are gone through.
    const kept = await linkKeptStripeCustomers({
      pool: database.pool,
      stripe,
      membershipPrice,
      graceDays,
    });
    for (const line of keptLinkLines(kept)) out(line);
    const report = await reconcileStripe(
      { db: database, stripe, membershipPrice, log, graceDays },
      { since, progress: out },
    );
    out(formatReconcileReport(report));
    return report.failures.length > 0 ? 1 : 0;
  } finally {
    await database.close();
    await embedded?.stop();
  }
}

export const main = commandWithSubcommands('stripe', USAGE, {
  check: (_args, env, io) => check(env, io),
  reconcile,
});

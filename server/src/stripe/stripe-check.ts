import Stripe from 'stripe';
import {
  callStripe,
  isMisconfiguration,
  isStripeNotFound,
  PaymentsUnavailableError,
} from './call-stripe.js';
import { MEMBERSHIP_EVENT_TYPES } from './event-facts.js';
import { modeOfKey, stripeKeyProblems, type StripeKeys, type StripeMode } from './key-check.js';
import type { PlanRow } from '../memberships/plan-catalog.js';
import { membershipLookupKey, planLookupKey, type MembershipPrice } from './cohort-sales.js';

/**
 * `npm run stripe:check` (and the same check, logged, at every start): asks Stripe whether the
 * account is set up the way Cohort needs it, and says what to change where it is not. It only
 * reads; nothing at Stripe changes.
 */

export interface CheckFinding {
  level: 'ok' | 'warning' | 'error';
  /** What was checked: `keys`, `account`, `price`, `billing portal`, `webhook endpoint`. */
  subject: string;
  message: string;
  /** What to do about it (warnings and errors). */
  fix?: string;
}

export interface StripeCheckInput {
  stripe: Stripe;
  membershipPrice: MembershipPrice;
  /** The plans as the desk keeps them, when the database could be read. */
  plans?: readonly PlanRow[];
  keys: StripeKeys;
  siteUrl: string;
  production: boolean;
}

export const WEBHOOK_PATH = '/webhooks/stripe';

const money = (cents: number | null | undefined, currency: string) =>
  `${((cents ?? 0) / 100).toFixed(2)} ${currency.toUpperCase()}`;

const dashboard = (mode: StripeMode, path: string) =>
  `https://dashboard.stripe.com/${mode === 'test' ? 'test/' : ''}${path}`;

/** Runs every check in order; stops after the account check when Stripe refuses the key. */
export async function checkStripeSetup(input: StripeCheckInput): Promise<CheckFinding[]> {
  const findings: CheckFinding[] = [];
  const mode = modeOfKey(input.keys.STRIPE_SECRET_KEY) ?? 'test';

  const keyProblems = stripeKeyProblems(input.keys);
  for (const problem of keyProblems) {
    const [variable = 'keys', ...rest] = problem.split(': ');
    findings.push({ level: 'error', subject: variable, message: rest.join(': ') });
  }
  if (keyProblems.length === 0) {
    findings.push({
      level: input.production && mode === 'test' ? 'warning' : 'ok',
      subject: 'keys',
      message: `secret, publishable and webhook keys are well-formed, in ${mode} mode`,
      ...(input.production &&
        mode === 'test' && {
          fix: 'This is production with test keys: no real payment can be taken. Use the live keys when the site opens.',
        }),
    });
  }

  const account = await step(
    findings,
    'account',
    (stripe) => stripe.accounts.retrieve(null),
    input,
  );
  if (!account) return findings;
  if (mode === 'live' && !account.charges_enabled) {
    findings.push({
      level: 'error',
      subject: 'account',
      message: `${account.id} cannot take live payments yet`,
      fix: `Finish activating the account at ${dashboard(mode, 'account/onboarding')}.`,
    });
  } else {
    findings.push({
      level: 'ok',
      subject: 'account',
      message: `${account.id}${account.country ? ` (${account.country})` : ''} accepts the key`,
    });
  }

  await checkPrice(findings, input);
  await checkPlans(findings, input);
  await checkPortal(findings, input, mode);
  await checkWebhookEndpoint(findings, input, mode);
  return findings;
}

/** One call to Stripe; a failure becomes an error finding, and null. */
async function step<T>(
  findings: CheckFinding[],
  subject: string,
  call: (stripe: Stripe) => Promise<T>,
  input: StripeCheckInput,
): Promise<T | null> {
  try {
    return await callStripe(input.stripe, `check the ${subject}`, call);
  } catch (error) {
    findings.push(failureFinding(subject, error));
    return null;
  }
}

/** Stripe refused the key, or did not answer: what the operator can do about it. */
function failureFinding(subject: string, error: unknown): CheckFinding {
  if (!(error instanceof PaymentsUnavailableError)) throw error;
  const failure = error.stripe;
  return isMisconfiguration(failure)
    ? {
        level: 'error',
        subject: 'STRIPE_SECRET_KEY',
        message: `Stripe refused the key (${failure.statusCode ?? failure.type}): ${failure.message}`,
        fix: 'Paste the current secret key from Dashboard → Developers → API keys (a rolled key stops working), then restart.',
      }
    : {
        level: 'error',
        subject,
        message: `Stripe did not answer the check: ${failure.type}${failure.statusCode ? ` ${failure.statusCode}` : ''}: ${failure.message}`,
        fix: 'Check this machine’s connection to api.stripe.com and try again.',
      };
}

async function checkPrice(findings: CheckFinding[], input: StripeCheckInput): Promise<void> {
  const { membershipPrice } = input;
  const configured = `MEMBERSHIP_PRICE_CENTS and MEMBERSHIP_CURRENCY say ${money(membershipPrice.priceCents, membershipPrice.currency)} a year`;
  if (!membershipPrice.priceId) {
    const key = membershipLookupKey(membershipPrice);
    const found = await step(
      findings,
      'price',
      (stripe) => stripe.prices.list({ lookup_keys: [key], active: true, limit: 1 }),
      input,
    );
    if (!found) return;
    const price = found.data[0];
    findings.push({
      level: 'warning',
      subject: 'STRIPE_PRICE_ID',
      message: price
        ? `not set: Checkout uses the Price Cohort made, ${price.id} (lookup key ${key}, ${money(price.unit_amount, price.currency)} a year)`
        : `not set: Cohort makes its yearly Price (lookup key ${key}) at the first Join`,
      fix: 'Recommended: make a yearly Price in the Dashboard (Product catalogue) at the membership price and set STRIPE_PRICE_ID to its id, so the product is named and managed there.',
    });
    return;
  }

  let price: Stripe.Price;
  try {
    price = await callStripe(input.stripe, 'check the price', (stripe) =>
      stripe.prices.retrieve(membershipPrice.priceId ?? ''),
    );
  } catch (error) {
    findings.push(
      isStripeNotFound(error)
        ? {
            level: 'error',
            subject: 'STRIPE_PRICE_ID',
            message: `${membershipPrice.priceId} does not exist in this mode`,
            fix: 'Price ids differ between test and live mode: copy the id of the Price made in the same mode as the keys.',
          }
        : failureFinding('price', error),
    );
    return;
  }
  const wrong: string[] = [];
  if (!price.active) wrong.push('it is archived');
  if (price.recurring?.interval !== 'year' || price.recurring.interval_count !== 1) {
    wrong.push(
      price.recurring
        ? `it renews every ${price.recurring.interval_count} ${price.recurring.interval}(s), not every year`
        : 'it is a one-time price, not a yearly subscription',
    );
  }
  if (
    price.unit_amount !== membershipPrice.priceCents ||
    price.currency !== membershipPrice.currency
  ) {
    wrong.push(
      `it charges ${money(price.unit_amount, price.currency)} but ${configured}: the early-access page and Checkout would charge different amounts`,
    );
  }
  findings.push(
    wrong.length > 0
      ? {
          level: 'error',
          subject: 'STRIPE_PRICE_ID',
          message: `${price.id}: ${wrong.join('; ')}`,
          fix: 'Point STRIPE_PRICE_ID at an active yearly Price of the membership amount, or change MEMBERSHIP_PRICE_CENTS and MEMBERSHIP_CURRENCY to match it.',
        }
      : {
          level: 'ok',
          subject: 'STRIPE_PRICE_ID',
          message: `${price.id} charges ${money(price.unit_amount, price.currency)} a year, as configured`,
        },
  );
}

/**
 * The subscription plans the desk sells beside the environment's yearly price: the Price each
 * Checkout uses (made by Cohort at the first Join, found by its lookup key after), and the
 * operator's STRIPE_PRICE_ID left behind once an owner changed the yearly price.
 */
async function checkPlans(findings: CheckFinding[], input: StripeCheckInput): Promise<void> {
  for (const plan of input.plans ?? []) {
    if (plan.id === 'early-access') continue;
    const subject = `${plan.id} plan`;
    const each = plan.id === 'monthly' ? 'a month' : 'a year';
    if (!plan.enabled) {
      findings.push({ level: 'ok', subject, message: 'not on sale (the desk’s Plans page)' });
      continue;
    }
    if (plan.stripePriceId) continue; // STRIPE_PRICE_ID, checked above
    if (plan.id === 'yearly' && input.membershipPrice.priceId) {
      findings.push({
        level: 'warning',
        subject: 'STRIPE_PRICE_ID',
        message: `no longer used: an owner set the yearly price to ${money(plan.amountCents, plan.currency)} in the desk, and new members get Cohort’s Price at that amount`,
        fix: 'Nothing to do unless you want your own Price back: set the yearly plan to its amount in the desk, or remove STRIPE_PRICE_ID.',
      });
    }
    const key = planLookupKey(plan.id, plan.amountCents, plan.currency);
    const found = await step(
      findings,
      subject,
      (stripe) => stripe.prices.list({ lookup_keys: [key], active: true, limit: 1 }),
      input,
    );
    if (!found) continue;
    const price = found.data[0];
    findings.push({
      level: 'ok',
      subject,
      message: price
        ? `${money(plan.amountCents, plan.currency)} ${each}: Checkout uses ${price.id} (lookup key ${key})`
        : `${money(plan.amountCents, plan.currency)} ${each}: Cohort makes its Price (lookup key ${key}) at the first Join`,
    });
  }
}

async function checkPortal(
  findings: CheckFinding[],
  input: StripeCheckInput,
  mode: StripeMode,
): Promise<void> {
  const saved = await step(
    findings,
    'billing portal',
    (stripe) => stripe.billingPortal.configurations.list({ is_default: true, active: true }),
    input,
  );
  if (!saved) return;
  const switching = saved.data[0]?.features.subscription_update;
  const bothSold =
    (input.plans ?? []).filter((plan) => plan.id !== 'early-access' && plan.enabled).length === 2;
  if (saved.data.length > 0 && bothSold && !switching?.enabled) {
    findings.push({
      level: 'warning',
      subject: 'billing portal',
      message:
        'members cannot switch between monthly and yearly in the portal (they still can on /account)',
      fix: `To offer it there too: ${dashboard(mode, 'settings/billing/portal')} → Subscriptions → “Customers can switch plans”, with the membership’s monthly and yearly Prices.`,
    });
  }
  findings.push(
    saved.data.length > 0
      ? { level: 'ok', subject: 'billing portal', message: 'its settings are saved' }
      : {
          level: 'error',
          subject: 'billing portal',
          message: `its settings were never saved in ${mode} mode: "Manage billing" fails for every member`,
          fix: `Open ${dashboard(mode, 'settings/billing/portal')} and save (once in test mode and once in live mode).`,
        },
  );
}

async function checkWebhookEndpoint(
  findings: CheckFinding[],
  input: StripeCheckInput,
  mode: StripeMode,
): Promise<void> {
  const url = `${input.siteUrl}${WEBHOOK_PATH}`;
  const endpoints = await step(
    findings,
    'webhook endpoint',
    (stripe) => stripe.webhookEndpoints.list({ limit: 100 }).autoPagingToArray({ limit: 1000 }),
    input,
  );
  if (!endpoints) return;
  const ours = endpoints.filter((endpoint) => endpoint.url === url);
  const needed = `the events ${MEMBERSHIP_EVENT_TYPES.join(', ')}, API version ${Stripe.API_VERSION}`;
  const local = /^https?:\/\/(localhost|127\.|\[::1\])/.test(input.siteUrl);
  if (ours.length === 0) {
    findings.push({
      level: local ? 'warning' : 'error',
      subject: 'webhook endpoint',
      message: `none points at ${url}: no payment will ever make a member`,
      fix: local
        ? `Stripe cannot reach ${input.siteUrl}: forward events with the Stripe CLI (stripe listen --forward-to ${url}) and set STRIPE_WEBHOOK_SECRET to the secret it prints.`
        : `Add an endpoint at ${dashboard(mode, 'webhooks')} for ${url} with ${needed}; then set STRIPE_WEBHOOK_SECRET to its signing secret.`,
    });
    return;
  }
  for (const endpoint of ours) {
    const enabled = new Set(endpoint.enabled_events);
    const missing = enabled.has('*')
      ? []
      : MEMBERSHIP_EVENT_TYPES.filter((type) => !enabled.has(type));
    const problems: string[] = [];
    if (endpoint.status !== 'enabled') problems.push('it is disabled');
    if (missing.length > 0) problems.push(`it does not send ${missing.join(', ')}`);
    // Every problem of the endpoint, not only the first: one that is disabled, lacks an event and
    // speaks an old API version is reported with all three.
    if (problems.length > 0) {
      findings.push({
        level: 'error',
        subject: 'webhook endpoint',
        message: `${endpoint.id} (${url}): ${problems.join('; ')}`,
        fix: `Edit the endpoint at ${dashboard(mode, `webhooks/${endpoint.id}`)}: enable it and select ${MEMBERSHIP_EVENT_TYPES.join(', ')}.`,
      });
    }
    if (endpoint.api_version !== Stripe.API_VERSION) {
      findings.push({
        level: 'warning',
        subject: 'webhook endpoint',
        message: `${endpoint.id} sends events in API version ${endpoint.api_version ?? 'of the account’s default'}, not ${Stripe.API_VERSION} (the version Cohort’s Stripe library speaks)`,
        fix: `Cohort re-reads every object in its own version, so payments still work; to match, make a new endpoint with API version ${Stripe.API_VERSION}, switch STRIPE_WEBHOOK_SECRET to its secret, then delete the old one.`,
      });
    }
    if (problems.length === 0 && endpoint.api_version === Stripe.API_VERSION) {
      findings.push({
        level: 'ok',
        subject: 'webhook endpoint',
        message: `${endpoint.id} sends every event Cohort needs to ${url}, in API version ${Stripe.API_VERSION}`,
      });
    }
  }
  if (ours.length > 1) {
    findings.push({
      level: 'warning',
      subject: 'webhook endpoint',
      message: `${ours.length} endpoints point at ${url}: every event arrives ${ours.length} times`,
      fix: 'Cohort records each event once, so nothing is granted twice; delete the extra endpoints to keep one signing secret.',
    });
  }
}

/** The findings as the command prints them: one line each, the fix indented below. */
export function formatFindings(findings: CheckFinding[]): string {
  const mark = { ok: '✓', warning: '!', error: '✗' } as const;
  const lines = findings.flatMap((finding) => [
    `${mark[finding.level]} ${finding.subject}: ${finding.message}`,
    ...(finding.fix ? [`    → ${finding.fix}`] : []),
  ]);
  const errors = findings.filter((finding) => finding.level === 'error').length;
  const warnings = findings.filter((finding) => finding.level === 'warning').length;
  lines.push(
    errors > 0
      ? `\n${errors} problem${errors === 1 ? '' : 's'} to fix before payments work${warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}.`
      : `\nStripe is set up for Cohort${warnings ? ` (${warnings} warning${warnings === 1 ? '' : 's'})` : ''}.`,
  );
  return lines.join('\n');
}

import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_STRIPE_KEYS, startFakeStripe, type FakeStripe } from '#test/fake-stripe';
import { runCommand } from '#test/run-command';
import { main } from '../cli/stripe.js';
import { createStripeClient } from './stripe-client.js';
import { MEMBERSHIP_EVENT_TYPES } from './event-facts.js';
import { checkStripeSetup, formatFindings, type CheckFinding } from './stripe-check.js';
import type { PlanRow } from '../memberships/plan-catalog.js';

// `npm run stripe:check` against a Stripe account as operators leave it: the price, the portal,
// the webhook endpoint and the key each right or wrong.

const SITE_URL = 'https://members.example.org';
const ENDPOINT = `${SITE_URL}/webhooks/stripe`;

describe('stripe:check', () => {
  let stripe: FakeStripe;
  let priceId: string;

  beforeAll(async () => {
    stripe = await startFakeStripe();
  });
  afterAll(() => stripe?.stop());
  beforeEach(async () => {
    stripe.webhookEndpoints.length = 0;
    stripe.revokedKeys.clear();
    stripe.addWebhookEndpoint({
      url: ENDPOINT,
      enabled_events: [...MEMBERSHIP_EVENT_TYPES],
      api_version: Stripe.API_VERSION,
    });
    priceId = (
      await sdk().prices.create({
        unit_amount: 1200,
        currency: 'usd',
        recurring: { interval: 'year' },
        product_data: { name: 'Membership' },
      })
    ).id;
  });

  const sdk = () =>
    createStripeClient({
      secretKey: FAKE_STRIPE_KEYS.STRIPE_SECRET_KEY,
      publishableKey: FAKE_STRIPE_KEYS.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: FAKE_STRIPE_KEYS.STRIPE_WEBHOOK_SECRET,
      priceId: undefined,
      apiUrl: stripe.url,
      timeoutMs: 2_000,
    });

  const check = (price: { priceCents?: number; currency?: string; priceId?: string } = {}) =>
    checkStripeSetup({
      stripe: sdk(),
      membershipPrice: { priceCents: 1200, currency: 'usd', priceId, ...price },
      keys: { ...FAKE_STRIPE_KEYS, STRIPE_PRICE_ID: price.priceId ?? priceId },
      siteUrl: SITE_URL,
      production: false,
    });
  const errors = (findings: CheckFinding[]) => findings.filter((f) => f.level === 'error');

  it('finds nothing wrong with an account set up as docs/payments.md says', async () => {
    const findings = await check();
    expect(errors(findings)).toEqual([]);
    expect(findings.filter((f) => f.level === 'warning')).toEqual([]);
    expect(findings.map((f) => f.subject)).toEqual([
      'keys',
      'account',
      'STRIPE_PRICE_ID',
      'billing portal',
      'webhook endpoint',
    ]);
    expect(formatFindings(findings)).toMatch(/Stripe is set up for Cohort\.$/);
  });

  it('names the Price each plan on sale uses, the STRIPE_PRICE_ID a desk price left behind, and a portal that cannot switch plans', async () => {
    const plan = (
      id: PlanRow['id'],
      amountCents: number,
      fields: Partial<PlanRow> = {},
    ): PlanRow => ({
      id,
      enabled: true,
      amountCents,
      currency: 'usd',
      stripePriceId: null,
      trialDays: 0,
      trialNeedsCard: true,
      updatedAt: new Date(),
      ...fields,
    });
    const withPlans = (plans: PlanRow[]) =>
      checkStripeSetup({
        stripe: sdk(),
        membershipPrice: { priceCents: 1200, currency: 'usd', priceId },
        plans,
        keys: { ...FAKE_STRIPE_KEYS, STRIPE_PRICE_ID: priceId },
        siteUrl: SITE_URL,
        production: false,
      });
    const before = await withPlans([
      plan('early-access', 1200),
      plan('monthly', 100),
      plan('yearly', 1200, { stripePriceId: priceId }),
    ]);
    expect(errors(before)).toEqual([]);
    expect(before.find((f) => f.subject === 'monthly plan')?.message).toBe(
      '1.00 USD a month: Cohort makes its Price (lookup key cohort_membership_monthly_100_usd) at the first Join',
    );
    // The fixture's portal does not let customers switch plans.
    expect(
      before.find((f) => f.subject === 'billing portal' && f.level === 'warning')?.fix,
    ).toMatch(/Customers can switch plans/);

    // Once Cohort made the monthly Price, and after an owner changed the yearly price.
    const made = await sdk().prices.create({
      unit_amount: 100,
      currency: 'usd',
      recurring: { interval: 'month' },
      lookup_key: 'cohort_membership_monthly_100_usd',
      product_data: { name: 'Membership (monthly)' },
    });
    const after = await withPlans([
      plan('early-access', 1200),
      plan('monthly', 100),
      plan('yearly', 1500),
    ]);
    expect(after.find((f) => f.subject === 'monthly plan')?.message).toBe(
      `1.00 USD a month: Checkout uses ${made.id} (lookup key cohort_membership_monthly_100_usd)`,
    );
    expect(
      after.find((f) => f.subject === 'STRIPE_PRICE_ID' && f.level === 'warning')?.message,
    ).toMatch(/^no longer used: an owner set the yearly price to 15\.00 USD in the desk/);
    expect(after.find((f) => f.subject === 'yearly plan')?.message).toMatch(
      /^15\.00 USD a year: Cohort makes its Price \(lookup key cohort_membership_yearly_1500_usd\)/,
    );
    const off = await withPlans([plan('monthly', 100, { enabled: false })]);
    expect(off.find((f) => f.subject === 'monthly plan')?.message).toMatch(/^not on sale/);
    expect(off.some((f) => f.subject === 'billing portal' && f.level === 'warning')).toBe(false);
  });

  it('reports an endpoint that does not send the dispute events, and how to fix it', async () => {
    stripe.webhookEndpoints.length = 0;
    stripe.addWebhookEndpoint({
      url: ENDPOINT,
      enabled_events: MEMBERSHIP_EVENT_TYPES.filter((type) => !type.startsWith('charge.dispute')),
      api_version: Stripe.API_VERSION,
    });
    const [problem] = errors(await check());
    expect(problem).toMatchObject({
      subject: 'webhook endpoint',
      message: expect.stringContaining(
        'it does not send charge.dispute.created, charge.dispute.updated, charge.dispute.closed',
      ),
    });
    expect(problem?.fix).toContain('dashboard.stripe.com/test/webhooks/');
  });

  it('reports every problem of an endpoint: a missing event and an old API version together', async () => {
    stripe.webhookEndpoints.length = 0;
    stripe.addWebhookEndpoint({
      url: ENDPOINT,
      enabled_events: MEMBERSHIP_EVENT_TYPES.filter((type) => type !== 'charge.refunded'),
      api_version: '2024-06-20',
    });
    const about = (await check()).filter((finding) => finding.subject === 'webhook endpoint');
    expect(about.map(({ level }) => level)).toEqual(['error', 'warning']);
    expect(about[0]?.message).toContain('it does not send charge.refunded');
    expect(about[1]?.message).toContain('sends events in API version 2024-06-20');
  });

  it('reports a Price that charges another amount than MEMBERSHIP_PRICE_CENTS/MEMBERSHIP_CURRENCY', async () => {
    const [problem] = errors(await check({ priceCents: 2500, currency: 'eur' }));
    expect(problem).toMatchObject({
      subject: 'STRIPE_PRICE_ID',
      message: expect.stringContaining(
        'it charges 12.00 USD but MEMBERSHIP_PRICE_CENTS and MEMBERSHIP_CURRENCY say 25.00 EUR a year',
      ),
    });
  });

  it('reports a Price id of the other mode, a monthly Price and an endpoint API version apart', async () => {
    expect(errors(await check({ priceId: 'price_missing' }))[0]?.message).toBe(
      'price_missing does not exist in this mode',
    );
    const monthly = await sdk().prices.create({
      unit_amount: 1200,
      currency: 'usd',
      recurring: { interval: 'month' },
      product_data: { name: 'Monthly' },
    });
    expect(errors(await check({ priceId: monthly.id }))[0]?.message).toContain(
      'renews every 1 month(s), not every year',
    );
    stripe.webhookEndpoints.length = 0;
    stripe.addWebhookEndpoint({ url: ENDPOINT, enabled_events: ['*'], api_version: '2024-06-20' });
    const findings = await check();
    expect(errors(findings)).toEqual([]);
    expect(findings.find((f) => f.level === 'warning')?.message).toContain(
      'sends events in API version 2024-06-20',
    );
  });

  it('reports a billing portal never saved and a site no endpoint points at', async () => {
    const saved = stripe.portalConfigurations.splice(0);
    stripe.webhookEndpoints.length = 0;
    stripe.addWebhookEndpoint({
      url: 'https://old.example.org/webhooks/stripe',
      enabled_events: ['*'],
    });
    try {
      const subjects = errors(await check()).map((f) => `${f.subject}: ${f.message}`);
      expect(subjects).toEqual([
        'billing portal: its settings were never saved in test mode: "Manage billing" fails for every member',
        `webhook endpoint: none points at ${ENDPOINT}: no payment will ever make a member`,
      ]);
    } finally {
      stripe.portalConfigurations.push(...saved);
    }
  });

  it('stops at the key when Stripe refuses it', async () => {
    stripe.revokedKeys.add(FAKE_STRIPE_KEYS.STRIPE_SECRET_KEY);
    const findings = await check();
    expect(errors(findings)).toEqual([
      expect.objectContaining({
        subject: 'STRIPE_SECRET_KEY',
        message: expect.stringContaining('Stripe refused the key (401)'),
      }),
    ]);
    expect(findings.map((f) => f.subject)).toEqual(['keys', 'STRIPE_SECRET_KEY']);
  });

  it('runs as `npm run stripe:check`: prints the findings, exit status 1 when something is wrong', async () => {
    const run = (env: Record<string, string>) =>
      runCommand(main, ['check'], {
        ...stripe.env(),
        SITE_URL,
        STRIPE_PRICE_ID: priceId,
        ...env,
      });
    const good = await run({});
    expect(good.stdout, good.stderr).toContain('✓ webhook endpoint:');
    expect(good.code).toBe(0);
    const bad = await run({ MEMBERSHIP_PRICE_CENTS: '2500', MEMBERSHIP_CURRENCY: 'eur' });
    expect(bad.stdout).toContain('✗ STRIPE_PRICE_ID:');
    expect(bad.stdout).toContain('1 problem to fix before payments work.');
    expect(bad.code).toBe(1);
  });
});

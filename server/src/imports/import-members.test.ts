import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTempFolder } from '#test/temp-folder';
import type { StripeObject } from '#test/fake-stripe';
import { buildMember } from '#test/factories';
import { withSite, type Site } from '#test/with-site';
import { planLookupKey } from '../stripe/cohort-sales.js';
import { writeMembers, type MemberImportDeps, type MemberImportOptions } from './import-members.js';
import { folderStore } from '../uploads/image-store.js';
import { runImport } from './run-import.js';
import type { SourceMember } from './source.js';

// A publisher moves from Ghost with its members list (the CSV the readers parse) and the Stripe
// account its paying members already pay through. The import must make their accounts, keep their
// newsletter consent and comps, find what each customer pays for in that Stripe account through
// the ledger, charge and create nothing there, mail nobody unless asked, and change nothing when
// it runs again, except to pick up what was paid in between.

const DAY_MS = 24 * 3600 * 1000;

describe('importing members', () => {
  let site: Site;
  /** The Ghost membership's monthly Price, in the site's Stripe account: mapped to `monthly`. */
  let ghostMonthly: StripeObject;
  /** Another product sold from the same account: never mapped. */
  let otherProduct: StripeObject;
  const customers: Record<string, string> = {};
  const subscriptions: Record<string, StripeObject> = {};
  const compUntil = new Date(Date.now() + 60 * DAY_MS);
  let members: SourceMember[];

  const member = (email: string, fields: Partial<SourceMember> = {}): SourceMember => ({
    email,
    subscribed: false,
    labels: [],
    ...fields,
  });

  beforeAll(async () => {
    site = await withSite({ payments: true, mail: true });
    const stripe = site.stripe;
    ghostMonthly = stripe.createPrice({
      unit_amount: 500,
      interval: 'month',
      productName: 'Ghost membership',
    });
    otherProduct = stripe.createPrice({
      unit_amount: 900,
      interval: 'month',
      productName: 'Workshop tickets',
    });
    // The site's own yearly plan, made in the Dashboard with its lookup key: no mapping needed.
    const sitePlan = stripe.createPrice({
      unit_amount: 1200,
      interval: 'year',
      lookup_key: planLookupKey('yearly', 1200, 'usd'),
    });
    for (const name of ['paid', 'leaving', 'other', 'later', 'sitePlan', 'shared', 'deleted']) {
      customers[name] = stripe.createCustomer(`${name}@example.com`).id;
    }
    subscriptions.sitePlan = stripe.subscribeCustomer(
      customers.sitePlan ?? '',
      sitePlan.id,
    ).subscription;
    stripe.deleteCustomer(customers.deleted ?? '');
    subscriptions.paid = stripe.subscribeCustomer(
      customers.paid ?? '',
      ghostMonthly.id,
    ).subscription;
    subscriptions.leaving = stripe.subscribeCustomer(
      customers.leaving ?? '',
      ghostMonthly.id,
    ).subscription;
    stripe.cancelAtPeriodEnd(subscriptions.leaving.id);
    subscriptions.other = stripe.subscribeCustomer(
      customers.other ?? '',
      otherProduct.id,
    ).subscription;
    // What happened at Stripe before the switch-over is read by the import, not delivered.
    stripe.clearPending();

    // Already here before the import: an account with a name, an address that unsubscribed, and
    // an account someone registered with a password but never proved.
    const here = await buildMember(site, { email: 'here@example.com' });
    await site.database.pool.query('UPDATE users SET name = $2 WHERE id = $1', [
      here.userId,
      'Kept Name',
    ]);
    await site.database.pool.query(
      `INSERT INTO newsletter_subscribers (id, email, state, "unsubscribedAt", "updatedAt")
       VALUES (gen_random_uuid(), 'gone@example.com', 'unsubscribed', now(), now())`,
    );
    // A sign-up here still waiting for its confirmation: the file's consent confirms it.
    await site.database.pool.query(
      `INSERT INTO newsletter_subscribers (id, email, state, "confirmTokenHash", "confirmExpiresAt",
                                           "updatedAt")
       VALUES (gen_random_uuid(), 'free@example.com', 'pending', 'a-token-hash',
               now() + interval '1 day', now())`,
    );
    await site.database.pool.query(
      `INSERT INTO users (id, email, "passwordHash", "sessionVersion", "updatedAt")
       VALUES (gen_random_uuid(), 'claimed@example.com', 'scrypt$not-a-real-hash', 1, now())`,
    );
    // A member here who paid with a card whose Stripe customer the file names for someone else.
    const cardHolder = await buildMember(site, { email: 'card-holder@example.com' });
    await site.database.pool.query('INSERT INTO stripe_customers (id, "userId") VALUES ($1, $2)', [
      customers.shared,
      cardHolder.userId,
    ]);

    members = [
      member(' Free@Example.com ', {
        name: 'Free Reader',
        note: 'Met at the fair\nlikes essays',
        subscribed: true,
        labels: ['vip', 'fair'],
        createdAt: new Date('2021-03-04T05:06:07Z'),
      }),
      member('quiet@example.com\r', { name: 'Quiet Reader' }),
      member('comped@example.com', { subscribed: true, comp: { until: compUntil } }),
      member('expired@example.com', { comp: { until: new Date('2020-01-01T00:00:00Z') } }),
      member('paid@example.com', { subscribed: true, stripeCustomerId: customers.paid }),
      member('leaving@example.com', { stripeCustomerId: customers.leaving }),
      member('other@example.com', { stripeCustomerId: customers.other }),
      member('later@example.com', { stripeCustomerId: customers.later }),
      member('unknown@example.com', { stripeCustomerId: 'cus_NotInThisAccount' }),
      member('deleted@example.com', { stripeCustomerId: customers.deleted }),
      member('site-plan@example.com', { stripeCustomerId: customers.sitePlan }),
      member('spouse@example.com', { stripeCustomerId: customers.shared }),
      member('here@example.com', { name: 'Other Name', note: 'From the file', labels: ['old'] }),
      member('gone@example.com', { subscribed: true }),
      member('claimed@example.com', { comp: { until: compUntil } }),
      member('not-an-email'),
      member('FREE@example.com', { name: 'A second row' }),
    ];
  });
  afterAll(async () => {
    await site?.close();
  });

  const deps = (overrides: Partial<MemberImportDeps> = {}): MemberImportDeps => ({
    pool: site.database.pool,
    config: site.config,
    stripe: site.app.requirePayments().stripe,
    mail: site.app.mailer,
    ...overrides,
  });
  const options = (overrides: Partial<MemberImportOptions> = {}): MemberImportOptions => ({
    dryRun: false,
    prices: { [ghostMonthly.id]: 'monthly' },
    welcome: false,
    source: 'members',
    ...overrides,
  });

  /** Everything an import may write, as the database holds it (timestamps of writes left out). */
  async function snapshot() {
    const rows = async (sql: string) => (await site.database.pool.query(sql)).rows;
    return {
      users: await rows(
        `SELECT email, name, note, labels, "createdAt", "emailVerifiedAt", "passwordHash"
         FROM users WHERE email IS NOT NULL ORDER BY email`,
      ),
      subscribers: await rows(
        `SELECT email, state, "userId", "confirmedAt" FROM newsletter_subscribers ORDER BY email`,
      ),
      memberships: await rows(
        `SELECT u.email, m.plan, m.status, m."expiresAt"
         FROM memberships m JOIN users u ON u.id = m."userId" ORDER BY u.email`,
      ),
      entitlements: await rows(
        `SELECT e.id, u.email, e.source, e.state, e."periodStart", e."periodEnd", e."compReason"
         FROM entitlements e JOIN users u ON u.id = e."userId" ORDER BY e.id`,
      ),
      customers: await rows(
        `SELECT c.id, u.email FROM stripe_customers c JOIN users u ON u.id = c."userId" ORDER BY c.id`,
      ),
      prices: await rows(`SELECT "priceId", plan FROM imported_prices ORDER BY "priceId"`),
    };
  }

  /** What reached the fake Stripe while `work` ran, other than reads. */
  async function writesToStripeDuring<T>(work: () => Promise<T>) {
    const from = site.stripe.requests.length;
    const result = await work();
    const writes = site.stripe.requests.slice(from).filter((request) => request.method !== 'GET');
    return { result, writes: writes.map((request) => `${request.method} ${request.path}`) };
  }

  const membershipOf = async (email: string) =>
    (
      await site.database.pool.query<{ plan: string; status: string; expiresAt: Date }>(
        `SELECT m.plan::text, m.status, m."expiresAt" FROM memberships m
         JOIN users u ON u.id = m."userId" WHERE u.email = $1`,
        [email],
      )
    ).rows[0] ?? null;

  /** When the subscription's current period ends, as Stripe has it now. */
  const periodEndOf = (subscriptionId: string) => {
    const items = site.stripe.get(subscriptionId).items as {
      data: { current_period_end: number }[];
    };
    return new Date((items.data[0]?.current_period_end ?? 0) * 1000);
  };

  it('reads Stripe but writes nothing on a dry run, and counts what the import would do', async () => {
    const before = await snapshot();
    const { result, writes } = await writesToStripeDuring(() =>
      writeMembers(deps(), members, options({ dryRun: true })),
    );
    expect(writes).toEqual([]);
    expect(await snapshot()).toEqual(before);
    expect(result.members).toMatchObject({ created: 13, updated: 1, unchanged: 1 });
    expect(result.unmappedPrices).toEqual([otherProduct.id]);
    expect(site.mailbox.mails).toEqual([]);
  });

  it('makes an account per address, with its name, note, labels and start, unproven and without a password', async () => {
    const { result, writes } = await writesToStripeDuring(() =>
      writeMembers(deps(), members, options()),
    );
    expect(writes).toEqual([]);
    // here@ gets its empty note filled and a label; claimed@ (unproven, see below) stays as it is.
    expect(result.members).toMatchObject({ created: 13, updated: 1, unchanged: 1 });
    const { rows } = await site.database.pool.query(
      `SELECT email, name, note, labels, "createdAt", "emailVerifiedAt", "passwordHash"
       FROM users WHERE email = 'free@example.com'`,
    );
    expect(rows).toEqual([
      {
        email: 'free@example.com',
        name: 'Free Reader',
        note: 'Met at the fair\nlikes essays',
        labels: ['vip', 'fair'],
        createdAt: new Date('2021-03-04T05:06:07Z'),
        emailVerifiedAt: null,
        passwordHash: null,
      },
    ]);
    const here = await site.database.pool.query(
      `SELECT name, note, labels FROM users WHERE email = 'here@example.com'`,
    );
    expect(here.rows).toEqual([{ name: 'Kept Name', note: 'From the file', labels: ['old'] }]);
    expect(result.members.skipped).toEqual(
      expect.arrayContaining([
        { item: 'not-an-email', reason: 'not a valid email address' },
        {
          item: 'free@example.com',
          reason: 'the file lists this address more than once: the first is imported',
        },
      ]),
    );
  });

  it('puts on the newsletter, confirmed, exactly those who consented, and unsubscribes nobody', async () => {
    const pending = await site.database.pool.query(
      `SELECT 1 FROM newsletter_subscribers WHERE "confirmTokenHash" IS NOT NULL`,
    );
    expect(pending.rows).toEqual([]);
    const { rows } = await site.database.pool.query(
      `SELECT email, state, "userId" FROM newsletter_subscribers ORDER BY email`,
    );
    expect(rows).toEqual([
      { email: 'comped@example.com', state: 'confirmed', userId: null },
      { email: 'free@example.com', state: 'confirmed', userId: null },
      { email: 'gone@example.com', state: 'unsubscribed', userId: null },
      { email: 'paid@example.com', state: 'confirmed', userId: null },
    ]);
  });

  it('turns a running comp into a comp until its end, and reports one that has ended', async () => {
    expect(await membershipOf('comped@example.com')).toEqual({
      plan: 'one-time',
      status: 'active',
      expiresAt: compUntil,
    });
    const comps = await site.database.pool.query(
      `SELECT e."compReason", e."grantedBy", e."periodEnd" FROM entitlements e
       JOIN users u ON u.id = e."userId" WHERE e.source = 'comp' ORDER BY u.email`,
    );
    expect(comps.rows).toEqual([
      { compReason: 'Imported from members', grantedBy: null, periodEnd: compUntil },
    ]);
    expect(await membershipOf('expired@example.com')).toBeNull();
    const { rows } = await site.database.pool.query(
      `SELECT 1 FROM users WHERE email = 'expired@example.com'`,
    );
    expect(rows).toHaveLength(1);
  });

  it('gives a paid membership to each customer whose subscription is at a site plan or a mapped price, until its period ends', async () => {
    expect(await membershipOf('paid@example.com')).toEqual({
      plan: 'subscription',
      status: 'active',
      expiresAt: periodEndOf(subscriptions.paid?.id ?? ''),
    });
    // Cancelled at Stripe, but paid until its period ends: a member until then.
    expect(site.stripe.get(subscriptions.leaving?.id ?? '').cancel_at_period_end).toBe(true);
    expect(await membershipOf('leaving@example.com')).toEqual({
      plan: 'subscription',
      status: 'active',
      expiresAt: periodEndOf(subscriptions.leaving?.id ?? ''),
    });
    // A subscription at the site's own plan counts without any mapping.
    expect(await membershipOf('site-plan@example.com')).toEqual({
      plan: 'subscription',
      status: 'active',
      expiresAt: periodEndOf(subscriptions.sitePlan?.id ?? ''),
    });
    const snap = await snapshot();
    expect(snap.prices).toEqual([{ priceId: ghostMonthly.id, plan: 'monthly' }]);
    expect(snap.customers).toEqual(
      expect.arrayContaining([
        { id: customers.sitePlan, email: 'site-plan@example.com' },
        { id: customers.shared, email: 'card-holder@example.com' },
        { id: customers.paid, email: 'paid@example.com' },
        { id: customers.leaving, email: 'leaving@example.com' },
        { id: customers.other, email: 'other@example.com' },
        { id: customers.later, email: 'later@example.com' },
      ]),
    );
    expect(snap.customers).toHaveLength(6);
  });

  it('grants nothing for an unmapped price, an unknown or deleted customer, another account’s customer or an unproven account, and reports each', async () => {
    const result = await writeMembers(deps(), members, options());
    expect(result.unmappedPrices).toEqual([otherProduct.id]);
    expect(await membershipOf('other@example.com')).toBeNull();
    expect(await membershipOf('unknown@example.com')).toBeNull();
    expect(await membershipOf('claimed@example.com')).toBeNull();
    expect(await membershipOf('deleted@example.com')).toBeNull();
    expect(await membershipOf('spouse@example.com')).toBeNull();
    const reasons = Object.fromEntries(
      result.members.skipped.map((skipped) => [skipped.item, skipped.reason]),
    );
    expect(reasons['unknown@example.com']).toBe(
      'Stripe has no customer cus_NotInThisAccount in this account: no paid membership',
    );
    expect(reasons['deleted@example.com']).toBe(
      `Stripe customer ${customers.deleted} was deleted: no paid membership`,
    );
    expect(reasons['spouse@example.com']).toBe(
      `Stripe customer ${customers.shared} belongs to another account here (card-holder@example.com): its payments stay there`,
    );
    expect(reasons['expired@example.com']).toBe('comp ended on 2020-01-01: no comp');
    expect(reasons['claimed@example.com']).toMatch(/^comp not placed: the account here signs in/);
  });

  it('changes nothing when run again, and charges, creates and mails nothing', async () => {
    const before = await snapshot();
    const { result, writes } = await writesToStripeDuring(() =>
      writeMembers(deps(), members, options()),
    );
    expect(writes).toEqual([]);
    expect(result.members).toMatchObject({ created: 0, updated: 0, unchanged: 15 });
    expect(await snapshot()).toEqual(before);
    expect(site.mailbox.mails).toEqual([]);
    expect(site.stripe.requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });

  it('picks up, on a run after the switch-over, what members paid in between', async () => {
    const stripe = site.stripe;
    const renewal = stripe.renewSubscription(subscriptions.paid?.id ?? '');
    const joined = stripe.subscribeCustomer(customers.later ?? '', ghostMonthly.id).subscription;
    stripe.clearPending();

    const { result, writes } = await writesToStripeDuring(() =>
      writeMembers(deps(), members, options()),
    );
    expect(writes).toEqual([]);
    expect(result.members).toMatchObject({ created: 0, updated: 2, unchanged: 13 });
    expect(await membershipOf('paid@example.com')).toMatchObject({
      status: 'active',
      expiresAt: new Date(renewal.period.end * 1000),
    });
    expect(await membershipOf('later@example.com')).toMatchObject({
      status: 'active',
      expiresAt: periodEndOf(joined.id),
    });
    const paid = await site.database.pool.query(
      `SELECT count(*)::int AS n FROM entitlements e JOIN users u ON u.id = e."userId"
       WHERE u.email = 'paid@example.com'`,
    );
    expect(paid.rows).toEqual([{ n: 2 }]);
    const again = await writeMembers(deps(), members, options());
    expect(again.members).toMatchObject({ created: 0, updated: 0, unchanged: 15 });
  });

  it('mails a welcome with a working sign-in link to each new member, only when asked', async () => {
    const { result, writes } = await writesToStripeDuring(() =>
      writeMembers(
        deps(),
        [member('welcome@example.com', { subscribed: true }), member('free@example.com')],
        options({ welcome: true }),
      ),
    );
    expect(writes).toEqual([]);
    expect(result.members).toMatchObject({ created: 1, unchanged: 1, skipped: [] });
    expect(site.mailbox.mails.map((mail) => mail.to)).toEqual(['welcome@example.com']);
    const token = /#token=([\w-]+)/.exec(site.mailbox.mails[0]?.text ?? '')?.[1];
    expect(token).toBeDefined();

    const signedIn = await site.call(null, 'POST', '/api/auth/email-link/confirm', { token });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    // The link proved the address: the newsletter row the import made is now the account's.
    const { rows } = await site.database.pool.query(
      `SELECT u."emailVerifiedAt" IS NOT NULL AS proven, s."userId" = u.id AS "ownsSignUp"
       FROM users u JOIN newsletter_subscribers s ON s.email = u.email
       WHERE u.email = 'welcome@example.com'`,
    );
    expect(rows).toEqual([{ proven: true, ownsSignUp: true }]);
  });

  it('imports members with customers but no memberships when payments are off, keeping the customers to link later', async () => {
    await expect(
      writeMembers(deps({ stripe: null }), [member('offline@example.com')], options()),
    ).rejects.toMatchObject({ code: 'invalid_price_map' });
    const result = await writeMembers(
      deps({ stripe: null }),
      [member('offline@example.com', { stripeCustomerId: customers.paid })],
      options({ prices: {} }),
    );
    // Kept, not a failure (kept-stripe-customers.test.ts links them once payments are on).
    expect(result.members).toMatchObject({ created: 1, skipped: [] });
    expect(result.keptCustomers).toBe(1);
    const { rows } = await site.database.pool.query(
      `SELECT k."customerId" FROM kept_stripe_customers k JOIN users u ON u.id = k."userId"
       WHERE u.email = 'offline@example.com'`,
    );
    expect(rows).toEqual([{ customerId: customers.paid }]);
    expect(await membershipOf('offline@example.com')).toBeNull();
  });

  it('imports a member whose customer Stripe cannot answer for now without a membership, and says to run again', async () => {
    site.stripe.failNext(50, 500);
    const result = await writeMembers(
      deps(),
      [member('outage@example.com', { stripeCustomerId: customers.paid })],
      options({ prices: {} }),
    ).finally(() => site.stripe.failNext(0));
    expect(result.members).toMatchObject({ created: 1 });
    expect(result.members.skipped).toEqual([
      {
        item: 'outage@example.com',
        reason: expect.stringMatching(
          new RegExp(
            `^Stripe could not be read for customer ${customers.paid} \\(.*500.*\\): no paid membership this time, run the import again$`,
          ),
        ),
      },
    ]);
    expect(await membershipOf('outage@example.com')).toBeNull();
  });

  it('tells its progress every 50 members', async () => {
    const many = Array.from({ length: 120 }, (_, n) => member(`reader-${n}@example.com`));
    const seen: number[] = [];
    const result = await writeMembers(deps(), many, options({ dryRun: true }), (progress) => {
      expect(progress).toMatchObject({ phase: 'members', total: 120 });
      seen.push(progress.done);
    });
    expect(seen).toEqual([50, 100, 120]);
    expect(result.members.created).toBe(120);
  });

  it('refuses a wrong --price before writing anything', async () => {
    const before = await snapshot();
    const attempt = (prices: Record<string, string>) =>
      writeMembers(deps(), [member('refused@example.com')], options({ prices }));
    await expect(attempt({ [ghostMonthly.id]: 'weekly' })).rejects.toThrow(
      /the plan must be one of monthly, yearly/,
    );
    await expect(attempt({ price_NoSuchPrice: 'monthly' })).rejects.toThrow(
      /Stripe has no such price in this account/,
    );
    await expect(attempt({ [ghostMonthly.id]: 'yearly' })).rejects.toThrow(
      /billed every month, and the yearly plan is billed every year/,
    );
    expect(await snapshot()).toEqual(before);
  });

  describe('after the import, the webhook', () => {
    it('extends a membership when a mapped price’s renewal is paid, and ignores an unmapped price’s', async () => {
      const stripe = site.stripe;
      stripe.clearPending();
      const renewal = stripe.renewSubscription(subscriptions.paid?.id ?? '');
      stripe.renewSubscription(subscriptions.other?.id ?? '');
      const { delivered } = await stripe.deliverPending();
      expect(delivered.filter((d) => d.type === 'invoice.paid').map((d) => d.status)).toEqual([
        200, 200,
      ]);
      expect(await membershipOf('paid@example.com')).toMatchObject({
        status: 'active',
        expiresAt: new Date(renewal.period.end * 1000),
      });
      expect(await membershipOf('other@example.com')).toBeNull();
      const other = await site.database.pool.query(
        `SELECT count(*)::int AS n FROM entitlements e JOIN users u ON u.id = e."userId"
         WHERE u.email = 'other@example.com'`,
      );
      expect(other.rows).toEqual([{ n: 0 }]);
    });
  });
  describe('from a members CSV file, the whole way', () => {
    const folder = useTempFolder('cohort-members-csv-');

    it('reads Ghost’s CSV and gives its paying member the membership Stripe says, charging nothing', async () => {
      const customer = site.stripe.createCustomer('csv-payer@example.com').id;
      const { subscription } = site.stripe.subscribeCustomer(customer, ghostMonthly.id);
      site.stripe.clearPending();
      const file = join(folder.path, 'members.csv');
      await writeFile(
        file,
        [
          'email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels',
          `csv-payer@example.com,Pat Payer,,true,false,${customer},2022-01-02T03:04:05.000Z,,"vip,early"`,
          'csv-comp@example.com,Cam Comp,,false,true,,2022-01-02T03:04:05.000Z,,',
        ].join('\n'),
      );
      const { result: report, writes } = await writesToStripeDuring(() =>
        runImport(
          { source: 'members', path: file, prices: { [ghostMonthly.id]: 'monthly' } },
          {
            ...deps(),
            config: site.config,
            mail: site.app.mailer,
            imageStore: folderStore(site.config.uploads.dir),
          },
        ),
      );
      expect(writes).toEqual([]);
      expect(report.members).toMatchObject({ created: 2, updated: 0 });
      expect(await membershipOf('csv-payer@example.com')).toMatchObject({
        plan: 'subscription',
        status: 'active',
        expiresAt: periodEndOf(subscription.id),
      });
      const rows = await site.database.pool.query<{ email: string; labels: string[] }>(
        `SELECT email, labels FROM users WHERE email LIKE 'csv-%' ORDER BY email`,
      );
      expect(rows.rows).toEqual([
        { email: 'csv-comp@example.com', labels: [] },
        { email: 'csv-payer@example.com', labels: ['vip', 'early'] },
      ]);
      expect(await membershipOf('csv-comp@example.com')).toMatchObject({ status: 'active' });
    });
  });
});

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StripeObject } from '#test/fake-stripe';
import { useTempFolder } from '#test/temp-folder';
import { withSite, type Site } from '#test/with-site';
import { folderStore } from '../uploads/image-store.js';
import { writeMembers, type MemberImportDeps, type MemberImportOptions } from './import-members.js';
import { runImport } from './run-import.js';

// A publisher's paying members come with the tier they paid for: `--price <price>=<tier>/<plan>`
// maps the Stripe Price their subscription bills to a tier and plan here, and the ledger's rows for
// that subscription (its periods, and the renewals the webhook reads later) are that tier's. A
// mapping that names no tier keeps what it always gave: the first tier.

describe('importing members with the tiers their prices pay for', () => {
  let site: Site;
  /** The old platform's founders' yearly Price and supporters' monthly one, in the site's account. */
  let founderYearly: StripeObject;
  let supporterMonthly: StripeObject;
  let founderSubscription: StripeObject;
  const customers: Record<string, string> = {};
  let founderTierId: number;

  beforeAll(async () => {
    site = await withSite({ payments: true });
    const stripe = site.stripe;
    founderYearly = stripe.createPrice({
      unit_amount: 15000,
      interval: 'year',
      productName: 'Founders (Ghost)',
    });
    supporterMonthly = stripe.createPrice({
      unit_amount: 500,
      interval: 'month',
      productName: 'Supporters (Ghost)',
    });
    for (const name of ['founder', 'supporter']) {
      customers[name] = stripe.createCustomer(`${name}@example.com`).id;
    }
    founderSubscription = stripe.subscribeCustomer(
      customers.founder ?? '',
      founderYearly.id,
    ).subscription;
    stripe.subscribeCustomer(customers.supporter ?? '', supporterMonthly.id);
    stripe.clearPending();
    const { rows } = await site.database.pool.query<{ id: number }>(
      `INSERT INTO "tiers" ("slug", "name", "position", "updatedAt")
       VALUES ('founder', 'Founder', 1, now()) RETURNING "id"`,
    );
    founderTierId = rows[0]?.id ?? 0;
  });
  afterAll(async () => {
    await site?.close();
  });

  const deps = (): MemberImportDeps => ({
    pool: site.database.pool,
    config: site.config,
    stripe: site.app.requirePayments().stripe,
    mail: site.app.mailer,
  });
  const options = (prices: Record<string, string>): MemberImportOptions => ({
    dryRun: false,
    prices,
    welcome: false,
    source: 'members',
  });
  const members = () => [
    {
      email: 'founder@example.com',
      subscribed: false,
      labels: [],
      stripeCustomerId: customers.founder,
    },
    {
      email: 'supporter@example.com',
      subscribed: false,
      labels: [],
      stripeCustomerId: customers.supporter,
    },
  ];

  /** Each member's membership, subscription and periods, with the slug of the tier of each. */
  async function ledgerOf(email: string) {
    const query = async (sql: string) =>
      (await site.database.pool.query<{ tier: string }>(sql, [email])).rows.map((row) => row.tier);
    return {
      membership: await query(
        `SELECT t.slug AS tier FROM memberships m JOIN users u ON u.id = m."userId"
           JOIN tiers t ON t.id = m."tierId" WHERE u.email = $1 AND m.status = 'active'`,
      ),
      subscriptions: await query(
        `SELECT t.slug AS tier FROM subscriptions s JOIN users u ON u.id = s."userId"
           JOIN tiers t ON t.id = s."tierId" WHERE u.email = $1`,
      ),
      periods: await query(
        `SELECT t.slug AS tier FROM entitlements e JOIN users u ON u.id = e."userId"
           JOIN tiers t ON t.id = e."tierId" WHERE u.email = $1 ORDER BY e."periodEnd"`,
      ),
    };
  }

  it('refuses a mapping to a tier the site does not have, naming its tiers, before anything is written', async () => {
    await expect(
      writeMembers(deps(), members(), options({ [founderYearly.id]: 'patron/yearly' })),
    ).rejects.toThrow(
      `--price ${founderYearly.id}=patron/yearly: there is no "patron" tier here (the tiers are supporter, founder).`,
    );
    await expect(
      writeMembers(deps(), members(), options({ [founderYearly.id]: 'Founder/yearly' })),
    ).rejects.toThrow(/"Founder" is not a tier's slug/);
    const { rows } = await site.database.pool.query(
      `SELECT count(*)::int AS n FROM users WHERE email LIKE '%@example.com'`,
    );
    expect(rows).toEqual([{ n: 0 }]);
  });

  it('gives a member paying a price mapped to founder/yearly a founder membership, and one mapped to a plan alone the first tier', async () => {
    const result = await writeMembers(
      deps(),
      members(),
      options({ [founderYearly.id]: 'founder/yearly', [supporterMonthly.id]: 'monthly' }),
    );
    expect(result.members).toMatchObject({ created: 2, skipped: [] });
    expect(result.unmappedPrices).toEqual([]);
    expect(await ledgerOf('founder@example.com')).toEqual({
      membership: ['founder'],
      subscriptions: ['founder'],
      periods: ['founder'],
    });
    expect(await ledgerOf('supporter@example.com')).toEqual({
      membership: ['supporter'],
      subscriptions: ['supporter'],
      periods: ['supporter'],
    });
    const { rows } = await site.database.pool.query(
      `SELECT "priceId", plan, "tierId" FROM imported_prices ORDER BY plan`,
    );
    expect(rows).toEqual([
      { priceId: supporterMonthly.id, plan: 'monthly', tierId: 1 },
      { priceId: founderYearly.id, plan: 'yearly', tierId: founderTierId },
    ]);
  });

  it("keeps a founder's renewal, read by the webhook, for the founder tier", async () => {
    site.stripe.clearPending();
    site.stripe.renewSubscription(founderSubscription.id);
    const { delivered } = await site.stripe.deliverPending();
    expect(delivered.filter((d) => d.type === 'invoice.paid').map((d) => d.status)).toEqual([200]);
    expect(await ledgerOf('founder@example.com')).toEqual({
      membership: ['founder'],
      subscriptions: ['founder'],
      periods: ['founder', 'founder'],
    });
  });
  describe('from a Ghost export that brings its tiers and members', () => {
    const folder = useTempFolder('cohort-member-tiers-');

    it('makes the tier first, so that its members’ mapped price gives it; a dry run makes and writes nothing', async () => {
      const goldMonthly = site.stripe.createPrice({
        unit_amount: 900,
        interval: 'month',
        productName: 'Gold (Ghost)',
      });
      const customer = site.stripe.createCustomer('gold@example.com').id;
      site.stripe.subscribeCustomer(customer, goldMonthly.id);
      site.stripe.clearPending();
      const file = join(folder.path, 'ghost.json');
      await writeFile(
        file,
        JSON.stringify({
          db: [
            {
              meta: { version: '5.80.0' },
              data: {
                posts: [],
                products: [
                  {
                    id: 'g1',
                    name: 'Gold',
                    slug: 'gold',
                    type: 'paid',
                    active: true,
                    visibility: 'public',
                    currency: 'usd',
                    monthly_price: 900,
                    yearly_price: 9000,
                  },
                ],
                members: [{ id: 'm1', email: 'gold@example.com', status: 'paid' }],
                members_stripe_customers: [{ member_id: 'm1', customer_id: customer }],
              },
            },
          ],
        }),
      );
      const request = {
        source: 'ghost' as const,
        path: file,
        prices: { [goldMonthly.id]: 'gold/monthly' },
      };
      const importDeps = {
        ...deps(),
        config: site.config,
        mail: site.app.mailer,
        imageStore: folderStore(site.config.uploads.dir),
        fetchRemoteImages: false,
      };
      const dry = await runImport({ ...request, dryRun: true }, importDeps);
      expect(dry.members).toMatchObject({ created: 1, skipped: [] });
      const tiersNamed = async () =>
        (await site.database.pool.query(`SELECT slug FROM tiers WHERE slug = 'gold'`)).rows;
      expect(await tiersNamed()).toEqual([]);
      expect(await ledgerOf('gold@example.com')).toEqual({
        membership: [],
        subscriptions: [],
        periods: [],
      });

      const report = await runImport(request, importDeps);
      expect(report.members).toMatchObject({ created: 1, skipped: [] });
      expect(await tiersNamed()).toEqual([{ slug: 'gold' }]);
      expect(await ledgerOf('gold@example.com')).toEqual({
        membership: ['gold'],
        subscriptions: ['gold'],
        periods: ['gold'],
      });
    });
  });
});

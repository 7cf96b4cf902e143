import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStaff, type Member } from '#test/factories';
import { newVisitor } from '#test/visitor';
import { withSite, type Site } from '#test/with-site';

// A site without Stripe keys (payments off): the desk's Plans say so plainly and name what to set,
// whatever each plan's own switch says; the site offers nothing to buy, and every way to pay
// answers 503 with the same words.

const STAFF = { STAFF_EMAILS: 'owner@example.com', EDITOR_EMAILS: 'editor@example.com' };
const STRIPE_KEYS = ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'];

describe('a site without Stripe keys', () => {
  let t: Site;
  let owner: Member;
  let editor: Member;

  beforeAll(async () => {
    t = await withSite({ env: STAFF });
    [owner, editor] = await buildStaff(t, 'owner', 'editor');
  });
  afterAll(async () => t?.close());

  it('tells the desk’s Plans that payments are off and which keys to set, to owners and editors', async () => {
    for (const who of [owner, editor]) {
      const answer = await t.call(who, 'GET', '/api/desk/plans');
      expect(answer.statusCode, answer.body).toBe(200);
      const { plans, paymentsOff } = answer.json();
      expect(paymentsOff).toMatch(/^Payments are off/);
      for (const key of STRIPE_KEYS) expect(paymentsOff).toContain(key);
      // The plans keep their owners' switches for the day keys are set.
      expect(plans.map((plan: { id: string; enabled: boolean }) => plan.id).sort()).toEqual([
        'early-access',
        'monthly',
        'yearly',
      ]);
    }
    expect((await t.call(owner, 'GET', '/api/desk/me')).json()).toMatchObject({
      paymentsEnabled: false,
    });
  });

  it('offers the site no plan, and refuses every way to pay with 503, changing nothing', async () => {
    const config = (await t.call(null, 'GET', '/api/config')).json();
    expect(config).toMatchObject({ paymentsEnabled: false, stripePublishableKey: null, plans: [] });
    const visitor = await newVisitor(t.app);
    for (const [url, payload] of [
      ['/api/checkout', { plan: 'yearly' }],
      ['/create-payment-intent', { items: [{ id: 'early-access' }] }],
    ] as const) {
      const refused = await t.call(visitor, 'POST', url, payload);
      expect(refused.statusCode, `${url}: ${refused.body}`).toBe(503);
      expect(refused.json().error.message).toBe('Payments are not configured on this site yet.');
    }
    const { rows } = await t.database.pool.query(`SELECT 1 FROM "users" WHERE "id" = $1`, [
      visitor.userId,
    ]);
    expect(rows).toHaveLength(0);
  });
});

describe('a site with Stripe keys', () => {
  it('does not say payments are off', async () => {
    const t = await withSite({ env: STAFF, payments: true });
    try {
      const [owner] = await buildStaff(t, 'owner');
      const answer = await t.call(owner, 'GET', '/api/desk/plans');
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json().paymentsOff).toBeNull();
    } finally {
      await t.close();
    }
  });
});

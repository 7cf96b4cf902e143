import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildMember,
  buildPost,
  buildStaff,
  buildTier,
  firstTierAsShown,
  type Member,
} from '#test/factories';
import { withSite, type Site } from '#test/with-site';
import { readContentGeneration } from '../../content/content-changes.js';

// Tiers are the owner's (contract/tiers.ts): made, listed, renamed, moved, hidden and deleted in
// the desk, each with its three plans; `/api/config` lists the visible ones in order with their
// prices. Editors and writers are refused; a wrong body, a slug taken, a tier something names: a
// refusal that changes nothing.

const OWNER = 'tiers-owner@example.com';
const EDITOR = 'tiers-editor@example.com';
const WRITER = 'tiers-writer@example.com';

interface TierJson {
  slug: string;
  name: string;
  order: number;
  visible: boolean;
  prices: { monthly: number | null; yearly: number | null; once: number | null };
  trialDays: number;
  members: number;
  posts: number;
}

describe('the desk’s tiers', () => {
  let t: Site;
  let owner: Member;
  let editor: Member;
  let writer: Member;

  const tiers = async (who: Member = owner): Promise<TierJson[]> => {
    const listed = await t.call(who, 'GET', '/api/desk/tiers');
    expect(listed.statusCode, listed.body).toBe(200);
    return listed.json().tiers;
  };
  const config = async () => (await t.app.inject({ method: 'GET', url: '/api/config' })).json();
  /** Everything a tier change could touch, to show that a refused one touched nothing. */
  const stored = async () => {
    const rows = await t.database.pool.query(
      `SELECT t.slug, t.name, t.description, t.benefits, t.visible, t.position,
              array_agg(p.id || ':' || p.enabled || ':' || p."amountCents" || ':' || p."trialDays"
                        ORDER BY p.id) AS plans
         FROM tiers t LEFT JOIN plans p ON p."tierId" = t.id GROUP BY t.id ORDER BY t.id`,
    );
    const audit = await t.database.pool.query(`SELECT count(*)::int AS n FROM audit_log`);
    return { tiers: rows.rows, audit: audit.rows[0], generation: await generation() };
  };
  const generation = () => readContentGeneration(t.database.pool);
  const founder = {
    name: 'Founder',
    description: 'For those who want the site to last.',
    benefits: ['Every post', 'A call with the editors each quarter'],
    prices: { monthly: 500, yearly: 5000, once: null },
    trialDays: 7,
  };

  beforeAll(async () => {
    t = await withSite({
      payments: true,
      env: {
        STAFF_EMAILS: OWNER,
        EDITOR_EMAILS: EDITOR,
        WRITER_EMAILS: WRITER,
        MEMBERSHIP_PRICE_CENTS: '1200',
        MONTHLY_PRICE_CENTS: '100',
      },
    });
    [owner, editor, writer] = await buildStaff(t, 'owner', 'editor', 'writer');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows a site from before tiers its one tier, supporter, priced as the plans it sold', async () => {
    const { plans, tiers: listed } = await config();
    expect(plans.map((plan: { id: string }) => plan.id)).toEqual([
      'early-access',
      'monthly',
      'yearly',
    ]);
    expect(listed).toEqual([firstTierAsShown({ monthly: 100, yearly: 1200, once: 1200 })]);
    expect(await tiers(editor)).toEqual([
      expect.objectContaining({ slug: 'supporter', visible: true, members: 0, posts: 0 }),
    ]);
  });

  it('lets an owner make a tier: its slug from its name, last in order, three plans, audited, on the site', async () => {
    const before = await generation();
    const created = await t.call(owner, 'POST', '/api/desk/tiers', founder);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().tier).toMatchObject({
      slug: 'founder',
      name: 'Founder',
      order: 1,
      visible: true,
      prices: { monthly: 500, yearly: 5000, once: null },
      trialDays: 7,
      members: 0,
    });
    const plans = await t.database.pool.query(
      `SELECT p.id, p.enabled, p."amountCents", p."trialDays" FROM plans p
         JOIN tiers t ON t.id = p."tierId" WHERE t.slug = 'founder' ORDER BY p.id`,
    );
    // The year paid once is not sold, and keeps the first tier's price for when it is.
    expect(plans.rows).toEqual([
      { id: 'early-access', enabled: false, amountCents: 1200, trialDays: 0 },
      { id: 'monthly', enabled: true, amountCents: 500, trialDays: 7 },
      { id: 'yearly', enabled: true, amountCents: 5000, trialDays: 7 },
    ]);
    const audit = await t.database.pool.query(
      `SELECT "actorEmail", after->>'slug' AS slug FROM audit_log WHERE action = 'tier_create'`,
    );
    expect(audit.rows).toEqual([{ actorEmail: OWNER, slug: 'founder' }]);
    expect(await generation()).toBeGreaterThan(before);

    const { tiers: listed } = await config();
    expect(listed.map((tier: TierJson) => [tier.slug, tier.order, tier.prices])).toEqual([
      ['supporter', 0, { monthly: 100, yearly: 1200, once: 1200 }],
      ['founder', 1, { monthly: 500, yearly: 5000, once: null }],
    ]);
    expect(listed[1]).toMatchObject({ benefits: founder.benefits, trialDays: 7 });

    // The same name again gets a slug of its own; a slug a tier has is refused.
    const again = await t.call(owner, 'POST', '/api/desk/tiers', { ...founder, visible: false });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().tier).toMatchObject({ slug: 'founder-2', order: 2, visible: false });
    const unchanged = await stored();
    const taken = await t.call(owner, 'POST', '/api/desk/tiers', { ...founder, slug: 'founder' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatchObject({ code: 'tier_exists' });
    expect(taken.json().error.message).toContain('"founder"');
    expect(await stored()).toEqual(unchanged);
  });

  it('places a new tier where `order` says, moving the ones after it down', async () => {
    const created = await t.call(owner, 'POST', '/api/desk/tiers', {
      name: 'Student',
      prices: { monthly: 100, yearly: null, once: null },
      order: 0,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect((await tiers()).map((tier) => [tier.slug, tier.order])).toEqual([
      ['student', 0],
      ['supporter', 1],
      ['founder', 2],
      ['founder-2', 3],
    ]);
  });

  it('lets an owner rename a tier (its slug too), move, reprice and hide it; the site follows', async () => {
    const before = await generation();
    const renamed = await t.call(owner, 'PATCH', '/api/desk/tiers/founder', {
      name: 'Founders',
      slug: 'founders',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().tier).toMatchObject({ slug: 'founders', name: 'Founders' });
    expect(await generation()).toBeGreaterThan(before);
    expect(
      (await t.call(owner, 'PATCH', '/api/desk/tiers/founder', { name: 'X' })).statusCode,
    ).toBe(404);

    const moved = await t.call(owner, 'PATCH', '/api/desk/tiers/founders', { order: 0 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await tiers()).map((tier) => tier.slug)).toEqual([
      'founders',
      'student',
      'supporter',
      'founder-2',
    ]);

    const repriced = await t.call(owner, 'PATCH', '/api/desk/tiers/founders', {
      prices: { monthly: null, yearly: 6000, once: 2500 },
      trialDays: 0,
    });
    expect(repriced.statusCode, repriced.body).toBe(200);
    expect(repriced.json().tier).toMatchObject({
      prices: { monthly: null, yearly: 6000, once: 2500 },
      trialDays: 0,
    });
    const monthly = await t.database.pool.query(
      `SELECT p.enabled, p."amountCents" FROM plans p JOIN tiers t ON t.id = p."tierId"
        WHERE t.slug = 'founders' AND p.id = 'monthly'`,
    );
    // Off sale, its price kept for when it is sold again.
    expect(monthly.rows).toEqual([{ enabled: false, amountCents: 500 }]);

    expect(
      (await t.call(owner, 'PATCH', '/api/desk/tiers/student', { visible: false })).statusCode,
    ).toBe(200);
    const { tiers: listed, plans } = await config();
    expect(listed.map((tier: TierJson) => [tier.slug, tier.name, tier.order])).toEqual([
      ['founders', 'Founders', 0],
      ['supporter', 'Supporter', 2],
    ]);
    // The plans of clients from before tiers stay the first tier's.
    expect(plans.map((plan: { amountCents: number }) => plan.amountCents)).toEqual([
      1200, 100, 1200,
    ]);
    const changes = await t.database.pool.query(
      `SELECT before->>'slug' AS before, after->>'slug' AS after FROM audit_log
        WHERE action = 'tier_change' ORDER BY id`,
    );
    expect(changes.rows).toEqual([
      { before: 'founder', after: 'founders' },
      { before: 'founders', after: 'founders' },
      { before: 'founders', after: 'founders' },
      { before: 'student', after: 'student' },
    ]);
  });

  it('refuses editors and writers, and anyone else finds nothing', async () => {
    const unchanged = await stored();
    const reader = await buildMember(t);
    for (const [who, status, code] of [
      [editor, 403, 'read_only_staff'],
      [writer, 403, 'writers_see_posts_only'],
      [reader, 404, 'not_found'],
    ] as const) {
      const made = await t.call(who, 'POST', '/api/desk/tiers', founder);
      expect(made.statusCode).toBe(status);
      expect(made.json().error.code).toBe(code);
      const patched = await t.call(who, 'PATCH', '/api/desk/tiers/supporter', { name: 'Mine' });
      expect(patched.statusCode).toBe(status);
      const deleted = await t.call(who, 'DELETE', '/api/desk/tiers/founder-2');
      expect(deleted.statusCode).toBe(status);
    }
    expect((await t.call(writer, 'GET', '/api/desk/tiers')).statusCode).toBe(403);
    expect((await t.call(reader, 'GET', '/api/desk/tiers')).statusCode).toBe(404);
    expect(await stored()).toEqual(unchanged);
  });

  it('answers a wrong body with a 400 naming each wrong field, and changes nothing', async () => {
    const unchanged = await stored();
    const prices = { monthly: 500, yearly: null, once: null };
    for (const [payload, words] of [
      [{}, /name: is required.*prices: is required/],
      [{ name: '  ', prices }, /name: must not be empty/],
      [{ name: 'Patron', prices: { monthly: 10, yearly: null, once: null } }, /prices\.monthly/],
      [{ name: 'Patron', prices: { monthly: 500 } }, /prices\.yearly: is required/],
      [{ name: 'Patron', prices, slug: 'Big Patron' }, /slug: must be lower-case words/],
      [{ name: 'Patron', prices, trialDays: 91 }, /trialDays: must be a whole number of days/],
      [{ name: 'Patron', prices, order: -1 }, /order: must be a whole number from 0/],
      [{ name: 'Patron', prices, colour: 'red' }, /colour: is not a known field/],
      [{ name: 'Patron', prices: { monthly: null, yearly: null, once: null } }, /at least one/],
    ] as const) {
      const refused = await t.call(owner, 'POST', '/api/desk/tiers', payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json().error.code).toBe('invalid_tier');
      expect(refused.json().error.message).toMatch(words);
    }
    for (const [payload, words] of [
      [{}, /body: must change at least one of name, slug/],
      [{ visible: 'no' }, /visible: must be true or false/],
      [{ benefits: 'all' }, /benefits: must be a list/],
      [{ name: 'Supporters', prices: { monthly: null, yearly: null, once: null } }, /at least/],
    ] as const) {
      const refused = await t.call(owner, 'PATCH', '/api/desk/tiers/supporter', payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json().error.message).toMatch(words);
    }
    // A change refused half-way (the slug taken, after the name) leaves the name as it was too.
    const taken = await t.call(owner, 'PATCH', '/api/desk/tiers/supporter', {
      name: 'Friends',
      slug: 'founders',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.code).toBe('tier_exists');
    expect(await stored()).toEqual(unchanged);
  });

  it('keeps a tier a member holds or a post names, saying how many, and deletes one nothing names', async () => {
    const patron = await buildTier(t, { slug: 'patron' });
    await buildMember(t, { tier: 'patron' });
    // A draft for the patron's members (written to its row: how the editor sets it is its own).
    const post = await buildPost(t, { status: 'draft' });
    await t.database.pool.query(
      `UPDATE posts SET visibility = 'tiers', "tierIds" = ARRAY[$2::int] WHERE id = $1`,
      [post.id, patron.id],
    );
    expect(await tiers()).toContainEqual(
      expect.objectContaining({ slug: 'patron', members: 1, posts: 1 }),
    );
    const unchanged = await stored();
    const refused = await t.call(owner, 'DELETE', '/api/desk/tiers/patron');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toEqual({
      code: 'tier_in_use',
      message:
        'Patron cannot be deleted: 1 member holds it and 1 post names it (hide it instead: it is then not offered).',
    });
    const first = await t.call(owner, 'DELETE', '/api/desk/tiers/supporter');
    expect(first.statusCode).toBe(409);
    expect(first.json().error.code).toBe('tier_in_use');
    expect(await stored()).toEqual(unchanged);

    const deleted = await t.call(owner, 'DELETE', '/api/desk/tiers/founder-2');
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().tiers.map((tier: TierJson) => [tier.slug, tier.order])).toEqual([
      ['founders', 0],
      ['student', 1],
      ['supporter', 2],
      ['patron', 3],
    ]);
    const left = await t.database.pool.query(
      `SELECT count(*)::int AS n FROM plans WHERE "tierId" NOT IN (SELECT id FROM tiers)`,
    );
    expect(left.rows).toEqual([{ n: 0 }]);
    const audit = await t.database.pool.query(
      `SELECT before->>'slug' AS slug, after FROM audit_log WHERE action = 'tier_delete'`,
    );
    expect(audit.rows).toEqual([{ slug: 'founder-2', after: null }]);
  });

  it('lists each tier’s plans in the desk, and the plans route changes only the first tier’s', async () => {
    const changed = await t.call(owner, 'PUT', '/api/desk/plans/yearly', { amountCents: 1300 });
    expect(changed.statusCode, changed.body).toBe(200);
    const listed = await t.call(editor, 'GET', '/api/desk/plans');
    expect(listed.statusCode, listed.body).toBe(200);
    const { plans, tiers: byTier } = listed.json();
    const priced = (list: { id: string; enabled: boolean; amountCents: number }[]) =>
      list.map((plan) => [plan.id, plan.enabled, plan.amountCents]);
    expect(priced(plans)).toEqual([
      ['early-access', true, 1200],
      ['monthly', true, 100],
      ['yearly', true, 1300],
    ]);
    expect(byTier.map((tier: { slug: string }) => tier.slug)).toEqual([
      'founders',
      'student',
      'supporter',
      'patron',
    ]);
    expect(priced(byTier[0].plans)).toEqual([
      ['early-access', true, 2500],
      ['monthly', false, 500],
      ['yearly', true, 6000],
    ]);
    // The patron holds a year paid once for their tier, counted there and not on the first.
    expect(byTier[3].plans[0]).toMatchObject({ id: 'early-access', members: 1 });
    expect(plans[0]).toMatchObject({ id: 'early-access', members: 0 });
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskAnalytics } from '../../../../contract/analytics.js';
import type { DeskDashboard, DeskMembersPage } from '../../../../contract/desk-api.js';
import { buildMember, buildTier, type Member } from '#test/factories';
import { madeLater } from '#test/made-later';
import { useSite } from '#test/with-site';
import { utcDay } from '../../analytics/visitors.js';

// The desk's members, money and conversions by tier (docs/decisions/0030-tiers-and-readers.md): the
// members list and its CSV filtered by tier and by free or paid, the dashboard's members and
// revenue per tier, and the analytics' paid conversions per tier, each by the tier the ledger
// recorded (entitlements.tierId).

const OWNER = 'owner@example.com';
const FOUNDER_CENTS = 5000;

describe('the desk by tier', () => {
  const t = useSite({ env: { STAFF_EMAILS: OWNER } });
  const [owner, makeOwner] = madeLater<Member>('The owner');
  const [founding, makeFounding] = madeLater<Member>('A founder member');
  const [supporting, makeSupporting] = madeLater<Member>('A supporter member');
  const [free, makeFree] = madeLater<Member>('A free member');

  beforeAll(async () => {
    makeOwner(await buildMember(t, { role: 'owner' }));
    await buildTier(t, { slug: 'founder', name: 'Founder' });
    makeFounding(await buildMember(t, { tier: 'founder' }));
    // The founder's year cost more than the first tier's.
    await t.database.pool.query(`UPDATE entitlements SET "amountCents" = $2 WHERE "userId" = $1`, [
      founding.userId,
      FOUNDER_CENTS,
    ]);
    makeSupporting(await buildMember(t, { paid: true }));
    makeFree(await buildMember(t));
  });

  const members = async (query: string) => {
    const answer = await t.call(owner, 'GET', `/api/desk/members?${query}`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<DeskMembersPage>().members;
  };
  const ids = (rows: { id: string }[]) => rows.map((row) => row.id).sort();

  it('lists a tier’s members, the paid and the free, each row with its tier', async () => {
    const founders = await members('tier=founder');
    expect(ids(founders)).toEqual([founding.userId]);
    expect(founders[0]).toMatchObject({ isMember: true, tier: 'founder' });
    expect(ids(await members('tier=supporter'))).toEqual([supporting.userId]);

    expect(ids(await members('filter=paid'))).toEqual([founding.userId, supporting.userId].sort());
    // `member`, the older name, finds the same.
    expect(ids(await members('filter=member'))).toEqual(ids(await members('filter=paid')));
    const freeOnes = await members('filter=free');
    expect(ids(freeOnes)).toEqual([free.userId, owner.userId].sort());
    expect(freeOnes.every((row) => !row.isMember && row.tier === null)).toBe(true);

    expect(ids(await members('filter=paid&tier=founder'))).toEqual([founding.userId]);
    expect(await members('filter=free&tier=founder')).toEqual([]);
    expect(ids(await members(`tier=founder&q=${founding.email}`))).toEqual([founding.userId]);
  });

  it('refuses a tier the site does not have with a 400 naming the tiers, and exports nothing', async () => {
    const audits = async () =>
      Number(
        (
          await t.database.pool.query(
            `SELECT count(*) FROM audit_log WHERE action = 'members_export'`,
          )
        ).rows[0].count,
      );
    const before = await audits();
    for (const url of ['/api/desk/members?tier=gold', '/api/desk/exports/members?tier=gold']) {
      const refused = await t.call(owner, 'GET', url);
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json().error).toEqual({
        code: 'unknown_tier',
        message: 'There is no "gold" tier; the tiers are "supporter", "founder".',
      });
    }
    expect(await audits()).toBe(before);
  });

  it('puts each member’s tier in the members CSV, and exports one tier’s members', async () => {
    const csv = await t.call(owner, 'GET', '/api/desk/exports/members?tier=founder');
    expect(csv.statusCode, csv.body).toBe(200);
    const [header, ...rows] = csv.body.trim().split('\n');
    const columns = header?.split(',') ?? [];
    expect(columns.slice(0, 6)).toEqual([
      'user_id',
      'email',
      'created_at',
      'member_now',
      'tier',
      'plan',
    ]);
    expect(rows.map((row) => row.split(',').slice(0, 5))).toEqual([
      [founding.userId, founding.email, expect.any(String), 'yes', 'founder'],
    ]);
    const everyone = await t.call(owner, 'GET', '/api/desk/exports/members');
    const tiers = Object.fromEntries(
      everyone.body
        .trim()
        .split('\n')
        .slice(1)
        .map((row) => [row.split(',')[0], row.split(',')[4]]),
    );
    expect(tiers).toEqual({
      [founding.userId]: 'founder',
      [supporting.userId]: 'supporter',
      [free.userId]: '',
      [owner.userId]: '',
    });
  });

  it('shows each tier’s members now and what was paid for it on the dashboard', async () => {
    const answer = await t.call(owner, 'GET', '/api/desk/dashboard');
    expect(answer.statusCode, answer.body).toBe(200);
    const year = t.config.membership.priceCents;
    expect(answer.json<DeskDashboard>().tiers).toEqual([
      { slug: 'supporter', name: 'Supporter', members: 1, monthCents: year, yearCents: year },
      {
        slug: 'founder',
        name: 'Founder',
        members: 1,
        monthCents: FOUNDER_CENTS,
        yearCents: FOUNDER_CENTS,
      },
    ]);
  });

  it('counts paid conversions and their revenue by the tier each payment was for', async () => {
    // Each member's year as a conversion credited today (what creditPayments writes after a
    // checkout begun on the site), keyed by the payment's Stripe id.
    await t.database.pool.query(
      `INSERT INTO analytics_conversions ("key", "kind", "day", "postId", "source", "revenueCents")
       SELECT 'payment:' || e."paymentIntentId", 'payment', (now() AT TIME ZONE 'UTC')::date,
              NULL, 'Direct', e."amountCents"
         FROM entitlements e WHERE e."userId" = ANY($1::uuid[])`,
      [[founding.userId, supporting.userId]],
    );
    const today = utcDay(new Date());
    const answer = await t.call(owner, 'GET', `/api/desk/analytics?from=${today}&to=${today}`);
    expect(answer.statusCode, answer.body).toBe(200);
    const figures = answer.json<DeskAnalytics>();
    expect(figures.tiers).toEqual([
      {
        slug: 'supporter',
        name: 'Supporter',
        paidConversions: 1,
        revenueCents: t.config.membership.priceCents,
      },
      { slug: 'founder', name: 'Founder', paidConversions: 1, revenueCents: FOUNDER_CENTS },
    ]);
    expect(figures.totals.revenueCents).toBe(t.config.membership.priceCents + FOUNDER_CENTS);
  });
});

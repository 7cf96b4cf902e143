import { beforeAll, describe, expect, it } from 'vitest';
import { buildTier } from '#test/factories';
import { useDeskSite } from '#test/desk-site';

// A comp of a tier, given through the desk (the real app and PostgreSQL): the tier it names,
// hidden ones too, else the default tier as before tiers; a tier there is not is a 400 that gives
// nothing and writes no audit entry.

describe('a comp of a tier', () => {
  const { register, t, owner, member, audit } = useDeskSite();
  const lastDay = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const grant = (userId: string, tier?: string) =>
    t.call(owner, 'POST', `/api/desk/members/${userId}/comps`, {
      until: lastDay,
      reason: 'Founding contributor',
      ...(tier !== undefined && { tier }),
    });
  const tierOf = async (userId: string) => {
    const { rows } = await t.database.pool.query<{ membership: string; comp: string }>(
      `SELECT t.slug AS membership,
              (SELECT ct.slug FROM entitlements e JOIN tiers ct ON ct.id = e."tierId"
                WHERE e."userId" = m."userId" AND e.source = 'comp') AS comp
         FROM memberships m JOIN tiers t ON t.id = m."tierId" WHERE m."userId" = $1`,
      [userId],
    );
    return rows[0] ?? null;
  };

  beforeAll(async () => {
    await buildTier(t, { slug: 'founder', name: 'Founder' });
    await buildTier(t, { slug: 'patron', name: 'Patron', visible: false });
  });

  it('grants a comp of Founder: a Founder membership until its end, its tier in the audit log', async () => {
    const guest = await register();
    const granted = await grant(guest.userId, 'founder');
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json().message).toMatch(/^Founder comp granted through /);
    expect((await t.me(guest)).isSubscribed).toBe(true);
    expect(await tierOf(guest.userId)).toEqual({ membership: 'founder', comp: 'founder' });
    const [entry] = await audit(guest.userId);
    expect(entry).toMatchObject({ action: 'comp_grant', after: { comp: { tier: 'founder' } } });
  });

  it('grants a comp of a hidden tier, and of the default tier when the body names none', async () => {
    const patron = await register();
    expect((await grant(patron.userId, 'patron')).statusCode).toBe(200);
    expect(await tierOf(patron.userId)).toEqual({ membership: 'patron', comp: 'patron' });
    const plain = await register();
    expect((await grant(plain.userId)).statusCode).toBe(200);
    expect(await tierOf(plain.userId)).toEqual({ membership: 'supporter', comp: 'supporter' });
  });

  it('refuses a comp of a tier there is not with a 400, giving nothing', async () => {
    const guest = await register();
    const refused = await grant(guest.userId, 'no-such-tier');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('unknown_tier');
    const record = await member(guest.userId);
    expect(record.ledger).toEqual([]);
    expect(record.audit).toEqual([]);
    expect((await t.me(guest)).isSubscribed).toBe(false);
  });
});

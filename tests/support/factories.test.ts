import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMember } from './members.js';
import { withSite, type Site } from './with-site.js';

// The factories the server tests make their members with: each must give exactly what the real
// app recognises (a staff role by address, a paid year the ledger derives, a password that signs
// in), or every test built on them proves less than it says.

const OWNERS = ['first-owner@example.com', 'second-owner@example.com'];
const EDITOR = 'editor@example.com';
const PASSWORD = 'correct horse battery staple';

describe('test factories', () => {
  let site: Site;

  beforeAll(async () => {
    site = await withSite({ env: { STAFF_EMAILS: OWNERS.join(','), EDITOR_EMAILS: EDITOR } });
  });
  afterAll(async () => {
    await site?.close();
  });

  it('seeds staff on the addresses the site lists for their role, one after another, whom the desk knows', async () => {
    const first = await seedMember(site, { role: 'owner' });
    const second = await seedMember(site, { role: 'owner' });
    const editor = await seedMember(site, { role: 'editor' });
    expect([first.email, second.email, editor.email]).toEqual([...OWNERS, EDITOR]);

    const roles = [];
    for (const who of [first, second, editor]) {
      const desk = await site.call(who, 'GET', '/api/desk/me');
      expect(desk.statusCode, desk.body).toBe(200);
      roles.push(desk.json().role);
    }
    expect(roles).toEqual(['owner', 'owner', 'editor']);
    await expect(seedMember(site, { role: 'owner' })).rejects.toThrow(/STAFF_EMAILS/);
  });

  it('refuses a role for an address the site does not list for it', async () => {
    await expect(
      seedMember(site, { role: 'owner', email: 'stranger@example.com' }),
    ).rejects.toThrow(/not listed/);
    await expect(seedMember(site, { role: 'writer' })).rejects.toThrow(/WRITER_EMAILS/);
    expect(
      (await site.database.pool.query(`SELECT 1 FROM users WHERE email = 'stranger@example.com'`))
        .rowCount,
    ).toBe(0);
  });

  it('seeds a reader the desk does not know, signed in, without a membership', async () => {
    const reader = await seedMember(site);
    expect((await site.call(reader, 'GET', '/api/desk/me')).statusCode).toBe(404);
    expect(await site.me(reader)).toMatchObject({
      id: reader.userId,
      email: reader.email,
      isSubscribed: false,
      membership: null,
    });
  });

  it('seeds a paid member whose year is on the ledger, as a payment once would put it', async () => {
    const member = await seedMember(site, { paid: true });
    const me = await site.me(member);
    expect(me).toMatchObject({ isSubscribed: true, membership: { plan: 'one-time' } });
    const days = (Date.parse(me.membership?.expiresAt ?? '') - Date.now()) / (24 * 3600 * 1000);
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365);
    const entitlements = await site.database.prisma.entitlement.findMany({
      where: { userId: member.userId },
      select: { source: true, state: true, amountCents: true },
    });
    expect(entitlements).toEqual([
      { source: 'one_time', state: 'active', amountCents: site.config.membership.priceCents },
    ]);
  });

  it('seeds an account whose password signs it in from another browser', async () => {
    const member = await seedMember(site, { password: PASSWORD });
    const wrong = await site.call(null, 'POST', '/api/auth/login', {
      email: member.email,
      password: 'not the password',
    });
    expect(wrong.statusCode).toBe(401);
    const signedIn = await site.call(null, 'POST', '/api/auth/login', {
      email: member.email,
      password: PASSWORD,
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().user.id).toBe(member.userId);
  });

  it('says how to ask for the fake Stripe or the mailbox of a site made without them', () => {
    expect(() => site.stripe).toThrow(/payments: true/);
    expect(() => site.mailbox).toThrow(/mail: true/);
  });

  it('calls without a cookie when no one is named, as a browser that never came before', async () => {
    const member = await seedMember(site);
    expect((await site.call(member, 'GET', '/api/me')).statusCode).toBe(200);
    const nobody = await site.call(null, 'GET', '/api/me');
    expect(nobody.statusCode).toBe(401);
    expect(nobody.json().error.code).toBeTruthy();
  });
});

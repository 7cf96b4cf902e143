import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_DATA_PATH } from '../../contract/site-data.js';
import { buildComment, buildIntegration, buildMember, buildPost, buildTier } from './factories.js';
import { withSite, type Site } from './with-site.js';

// The factories the server tests make their members, posts, comments and integrations with: each
// must give exactly what the real app recognises (a staff role by address, a paid year the ledger
// derives, a password that signs in, a post the site shows, a comment under it, keys that open the
// Content API), or every test built on them proves less than it says.

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
    const first = await buildMember(site, { role: 'owner' });
    const second = await buildMember(site, { role: 'owner' });
    const editor = await buildMember(site, { role: 'editor' });
    expect([first.email, second.email, editor.email]).toEqual([...OWNERS, EDITOR]);

    const roles = [];
    for (const who of [first, second, editor]) {
      const desk = await site.call(who, 'GET', '/api/desk/me');
      expect(desk.statusCode, desk.body).toBe(200);
      roles.push(desk.json().role);
    }
    expect(roles).toEqual(['owner', 'owner', 'editor']);
    await expect(buildMember(site, { role: 'owner' })).rejects.toThrow(/STAFF_EMAILS/);
  });

  it('refuses a role for an address the site does not list for it', async () => {
    await expect(
      buildMember(site, { role: 'owner', email: 'stranger@example.com' }),
    ).rejects.toThrow(/not listed/);
    await expect(buildMember(site, { role: 'writer' })).rejects.toThrow(/WRITER_EMAILS/);
    expect(
      (await site.database.pool.query(`SELECT 1 FROM users WHERE email = 'stranger@example.com'`))
        .rowCount,
    ).toBe(0);
  });

  it('seeds a reader the desk does not know, signed in, without a membership', async () => {
    const reader = await buildMember(site);
    expect((await site.call(reader, 'GET', '/api/desk/me')).statusCode).toBe(404);
    expect(await site.me(reader)).toMatchObject({
      id: reader.userId,
      email: reader.email,
      isSubscribed: false,
      membership: null,
    });
  });

  it('seeds a paid member whose year is on the ledger, as a payment once would put it', async () => {
    const member = await buildMember(site, { paid: true });
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

  it('seeds a member of a tier it made, whose membership the ledger derives as of that tier', async () => {
    const founder = await buildTier(site, { slug: `founder-${Date.now()}` });
    const member = await buildMember(site, { tier: founder.slug });
    const membership = await site.database.prisma.membership.findUnique({
      where: { userId: member.userId },
      select: { tier: { select: { slug: true } }, status: true },
    });
    expect(membership).toEqual({ tier: { slug: founder.slug }, status: 'active' });
    const plans = await site.database.prisma.plan.findMany({ where: { tierId: founder.id } });
    expect(plans.map((plan) => plan.id).sort()).toEqual(['early-access', 'monthly', 'yearly']);
    await expect(buildMember(site, { tier: 'no-such-tier' })).rejects.toThrow(/no "no-such-tier"/);
  });

  it('seeds an account whose password signs it in from another browser', async () => {
    const member = await buildMember(site, { password: PASSWORD });
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
    const member = await buildMember(site);
    expect((await site.call(member, 'GET', '/api/me')).statusCode).toBe(200);
    const nobody = await site.call(null, 'GET', '/api/me');
    expect(nobody.statusCode).toBe(401);
    expect(nobody.json().error.code).toBeTruthy();
  });
  it('builds a post the site shows at its address, a draft it does not, by the first owner unless told', async () => {
    const siteData = (path: string) =>
      site.call(null, 'GET', `${SITE_DATA_PATH}?path=${encodeURIComponent(path)}`);
    const post = await buildPost(site, { title: 'Renting Without Tears' });
    expect(post).toMatchObject({ status: 'published', slug: 'renting-without-tears' });
    expect((await siteData(post.path)).body).toContain('Renting Without Tears');
    const draft = await buildPost(site, { status: 'draft' });
    expect(draft.status).toBe('draft');
    expect((await siteData(draft.path)).body).not.toContain(draft.title);
    const [first] = OWNERS;
    const { rows } = await site.database.pool.query<{ email: string }>(
      `SELECT u.email FROM posts p JOIN users u ON u.id = p."createdBy" WHERE p.id = $1`,
      [post.id],
    );
    expect(rows).toEqual([{ email: first }]);
  });

  it('builds a comment under a post, shown with its author’s name', async () => {
    const post = await buildPost(site);
    const ada = await buildMember(site, { paid: true, name: 'Ada Lovelace' });
    const { id } = await buildComment(site, { post, by: ada, body: 'First!' });
    const listed = await site.call(null, 'GET', `/api/posts/${post.id}/comments`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().comments).toEqual([
      expect.objectContaining({
        id,
        html: '<p>First!</p>',
        author: expect.objectContaining({ name: 'Ada Lovelace' }),
      }),
    ]);
  });

  it('builds an integration whose content key opens the Content API', async () => {
    const { contentKey, adminKey } = await buildIntegration(site, { name: 'A front end' });
    expect(adminKey).toMatch(/^[0-9a-f]{24}:[0-9a-f]{64}$/);
    const posts = await site.call(null, 'GET', `/ghost/api/content/posts/?key=${contentKey}`);
    expect(posts.statusCode, posts.body).toBe(200);
    const refused = await site.call(
      null,
      'GET',
      '/ghost/api/content/posts/?key=0123456789abcdef01234567',
    );
    expect(refused.statusCode).toBe(401);
  });
});

import { describe, expect, it } from 'vitest';
import { buildMember, buildPost } from '#test/factories';
import { useDeskPostsSite } from '#test/desk-posts-site';

// A campaign's or a boycott's story (its body: docs/publishing.md, "Writing and publishing"): written in the desk, shown under its
// card on /direct-action and /collective; a members-only one shows its opening to others and the
// whole to members. A resource list has no body, so nothing of it can be for members.

describe('the story behind a campaign or a boycott', () => {
  const { call, owner, reader, t } = useDeskPostsSite();

  /** A campaign or a boycott (the factory's fields, and `fields`) by the owner, published. */
  const publish = (kind: 'campaign' | 'boycott', fields: object) =>
    buildPost(t, { kind, ...fields, by: owner });

  it('shows a public campaign’s and boycott’s story under its card, and a campaign without one as before', async () => {
    await publish('campaign', { slug: 'night-bus', body: 'The last bus leaves at ten.' });
    await publish('campaign', { slug: 'no-story', title: 'A Campaign Without a Story' });
    await publish('boycott', { slug: 'fast-fashion', body: 'It began with a thread of photos.' });

    const campaigns = await call(null, 'GET', '/direct-action');
    expect(campaigns.statusCode).toBe(200);
    expect(campaigns.body).toContain('The story behind it');
    expect(campaigns.body).toContain('The last bus leaves at ten.');
    expect(campaigns.body).toContain('A Campaign Without a Story');
    const data = (await call(null, 'GET', '/api/site-data?path=/direct-action')).json();
    expect(Object.keys(data.bodies)).toEqual(['campaign/night-bus']);
    expect(data.teasers).toBeUndefined();

    const boycotts = await call(null, 'GET', '/collective');
    expect(boycotts.body).toContain('It began with a thread of photos.');
  });

  it('shows a members-only story’s opening to others and the whole to members, and no public output the rest', async () => {
    const SECRET = 'The driver rota we negotiated, shift by shift.';
    await publish('campaign', {
      slug: 'members-bus',
      title: 'The Members Bus',
      visibility: 'members',
      body: `Everyone reads why.\n\n<!-- members-only -->\n\n${SECRET}\n`,
    });
    for (const who of [null, reader]) {
      const page = await call(who, 'GET', '/direct-action');
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.body).toContain('Everyone reads why.');
      expect(page.body).toContain('Members only');
      expect(page.body).not.toContain(SECRET);
      const data = await call(who, 'GET', '/api/site-data?path=/direct-action');
      expect(data.json().teasers).toEqual(['campaign/members-bus']);
      expect(data.json().campaigns).toContainEqual(
        expect.objectContaining({ slug: 'members-bus', membersOnly: true }),
      );
      expect(data.body).not.toContain(SECRET);
    }
    for (const path of ['/rss.xml', '/sitemap.xml']) {
      expect((await call(null, 'GET', path)).body, path).not.toContain('driver rota');
    }
    expect((await call(null, 'GET', '/api/search?q=driver+rota')).json().results).toEqual([]);
    // Its opening finds it, as an article's does.
    expect((await call(null, 'GET', '/api/search?q=everyone+reads+why')).json().results).toEqual([
      expect.objectContaining({ path: '/direct-action#members-bus', membersOnly: true }),
    ]);

    const member = await buildMember(t, { email: 'bus-member@example.com', paid: true });
    const whole = await call(member, 'GET', '/direct-action');
    expect(whole.headers['cache-control']).toBe('private, no-cache');
    expect(whole.body).toContain(SECRET);
    const data = await call(member, 'GET', '/api/site-data?path=/direct-action');
    expect(data.json().teasers).toBeUndefined();
    expect(data.json().bodies['campaign/members-bus']).toBeDefined();
    expect(data.body).toContain(SECRET);
  });

  it('refuses members-only for a resource list, which has no body to divide, and saves nothing', async () => {
    const before = await t.database.pool.query(`SELECT count(*) FROM "posts"`);
    const refused = await call(owner, 'POST', '/api/desk/posts', {
      kind: 'resources',
      slug: 'members-resources',
      category: 'Learning',
      description: 'Free courses.',
      visibility: 'members',
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.message).toMatch(/visibility: .*resource list has no body/);
    const after = await t.database.pool.query(`SELECT count(*) FROM "posts"`);
    expect(after.rows[0].count).toBe(before.rows[0].count);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { buildMember, buildPost, buildStaff, type Member } from '#test/factories';
import { useSite, withSite } from '#test/with-site';
import { contentDir } from '../paths.js';
import { loadContent } from './load-content.js';
import { draftsOf } from './post-files.js';

// The sample content: a new site loads the shipped content/ as its samples, with the
// sample site's settings, unless SAMPLE_CONTENT=off, which starts it with one empty "Articles"
// section and nothing else of them; "Remove the sample content" takes the samples out (and
// nothing of the owner's), once; the privacy page's words follow NEWSLETTER_TRACKING.

const STAFF = { STAFF_EMAILS: 'owner@example.com', EDITOR_EMAILS: 'editor@example.com' };

/** Every shipped post's path part and title: none may show on a site without its samples. */
async function shippedPosts() {
  const drafts = draftsOf(await loadContent(contentDir, { perks: false }));
  return drafts.map((draft) => ({ slug: draft.slug, title: draft.title, kind: draft.kind }));
}

/** The screens whose text a shipped page is: their addresses stay, showing their title alone. */
const SCREEN_TEXTS = ['home', 'why', 'collective', 'empowerment'];

describe('a new site with SAMPLE_CONTENT=off', () => {
  const t = useSite({ env: { ...STAFF, SAMPLE_CONTENT: 'off' }, seedContentDir: contentDir });
  let owner: Member;
  beforeAll(async () => {
    [owner] = await buildStaff(t, 'owner');
  });

  it('has one section, Articles, and no sample post, perk or words anywhere', async () => {
    const home = await t.call(null, 'GET', '/api/site-data?path=%2F');
    expect(home.statusCode, home.body).toBe(200);
    const data = home.json();
    expect(data.navigation.sections.map((s: { name: string; slug: string }) => s)).toEqual([
      expect.objectContaining({ name: 'Articles', slug: 'articles', lists: 'articles' }),
    ]);
    // The footer's links to the sample topic pages went with them; the site's own stay.
    const links = data.navigation.links.map((link: { address: string }) => link.address);
    expect(links).not.toContain('/home-buying');
    expect(links).toContain('/perks');
    expect(data.settings).toMatchObject({ title: 'Cohort', description: '', footerText: '' });

    const texts = [
      JSON.stringify(data),
      (await t.call(null, 'GET', '/rss.xml')).body,
      (await t.call(null, 'GET', '/sitemap.xml')).body,
      (await t.call(null, 'GET', '/api/site-data?path=%2Farticles')).body,
    ];
    for (const { slug, title, kind } of await shippedPosts()) {
      for (const text of texts) {
        expect(text).not.toContain(title);
        if (kind === 'page' && SCREEN_TEXTS.includes(slug)) continue;
        expect(text).not.toContain(`/${slug}"`);
        expect(text).not.toContain(`/${slug}<`);
      }
    }
    const search = await t.call(null, 'GET', '/api/search?q=sleep');
    expect(search.json().results).toEqual([]);
    const desk = await t.call(owner, 'GET', '/api/desk/posts');
    expect(desk.statusCode, desk.body).toBe(200);
    expect(desk.json()).toMatchObject({ posts: [], total: 0 });
    const perks = await t.call(null, 'GET', '/api/site-data?path=%2Fperks');
    expect(perks.json().perks).toEqual([]);
    const privacy = await t.call(null, 'GET', '/api/site-data?path=%2Fprivacy');
    expect(privacy.json().pages?.privacy).toBeUndefined();
  });

  it('offers nothing to remove, and a post of the owner’s goes in Articles', async () => {
    const remaining = await t.call(owner, 'GET', '/api/desk/samples');
    expect(remaining.json()).toEqual({ remaining: { posts: 0, perks: 0, sections: 0 } });
    const post = await buildPost(t, { category: 'Articles', title: 'Our first story' });
    expect(post.path).toBe(`/articles/${post.slug}`);
  });

  it('stays as it is at the next start, whatever the switch says', async () => {
    const again = await withSite({
      env: { ...STAFF, SAMPLE_CONTENT: 'on' },
      seedContentDir: contentDir,
      sharedDatabase: t.testDatabase,
    });
    try {
      const home = (await again.call(null, 'GET', '/api/site-data?path=%2F')).json();
      expect(home.navigation.sections.map((s: { name: string }) => s.name)).toEqual(['Articles']);
      const { rows } = await again.database.pool.query(`SELECT "title" FROM "posts"`);
      expect(rows).toEqual([{ title: 'Our first story' }]);
      expect((await again.call(null, 'GET', '/api/site-data?path=%2Fperks')).json().perks).toEqual(
        [],
      );
    } finally {
      await again.close();
    }
  });
});

describe('a new site with its samples, and "Remove the sample content"', () => {
  const t = useSite({
    env: { ...STAFF, NEWSLETTER_TRACKING: 'on' },
    seedContentDir: contentDir,
  });
  let owner: Member;
  let editor: Member;
  beforeAll(async () => {
    [owner, editor] = await buildStaff(t, 'owner', 'editor');
  });
  const countRows = async (sql: string) =>
    Number((await t.database.pool.query<{ n: string }>(sql)).rows[0]?.n);

  it('loads the samples with the sample site’s settings', async () => {
    const data = (await t.call(null, 'GET', '/api/site-data?path=%2F')).json();
    expect(data.navigation.sections.map((s: { name: string }) => s.name)).toEqual([
      'Health',
      'Wealth',
      'Direct Action',
      'Collective Action',
      'Empowerment',
    ]);
    expect(data.settings).toMatchObject({
      title: 'Cohort',
      description: expect.stringContaining('Millennials and Gen Z'),
      signupText: expect.stringContaining('one click'),
    });
    expect(data.settings.signupText).not.toMatch(/no tracking/i);
    expect((await t.call(null, 'GET', '/api/site-data?path=%2Fperks')).json().perks.length).toBe(8);
  });

  it('says on the privacy page that issues count opens and clicks, tracking on', async () => {
    const privacy = (await t.call(null, 'GET', '/api/site-data?path=%2Fprivacy')).json();
    const words = JSON.stringify(privacy.pages.privacy.body);
    expect(words).toContain('whether it was opened');
    expect(words).not.toContain('no tracking image');
    expect(words).not.toContain('{{');
    expect(words).toContain('without cookies');
  });

  it('removes every sample and nothing of the owner’s, for owners only, audited, once', async () => {
    const own = await buildPost(t, { category: 'Health', title: 'Our clinic hours' });
    const ownPage = await buildPost(t, {
      kind: 'page',
      title: 'About the desk',
      description: 'Who we are.',
    });
    const sampleSlugs = (await shippedPosts()).map((post) => post.slug);
    const before = await t.call(owner, 'GET', '/api/desk/samples');
    expect(before.json()).toEqual({
      // Health is in use: only the four others would go.
      remaining: { posts: sampleSlugs.length, perks: 8, sections: 4 },
    });

    const refused = await t.call(editor, 'POST', '/api/desk/samples/remove');
    expect(refused.statusCode).toBe(403);
    expect(await countRows(`SELECT count(*) AS n FROM "posts" WHERE "sample"`)).toBe(
      sampleSlugs.length,
    );

    const paying = await buildMember(t, { paid: true });
    const members = await countRows(`SELECT count(*) AS n FROM "users"`);
    const money = await countRows(`SELECT count(*) AS n FROM "entitlements"`);
    const removed = await t.call(owner, 'POST', '/api/desk/samples/remove');
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({
      removed: { posts: sampleSlugs.length, perks: 8, sections: 4 },
    });

    const { rows } = await t.database.pool.query<{ title: string }>(
      `SELECT "title" FROM "posts" ORDER BY "title"`,
    );
    expect(rows.map((row) => row.title)).toEqual(['About the desk', 'Our clinic hours']);
    expect(await countRows(`SELECT count(*) AS n FROM "users"`)).toBe(members);
    expect(await countRows(`SELECT count(*) AS n FROM "entitlements"`)).toBe(money);
    expect((await t.me(paying)).isSubscribed).toBe(true);
    const data = (await t.call(null, 'GET', '/api/site-data?path=%2F')).json();
    expect(data.navigation.sections.map((s: { name: string }) => s.name)).toEqual(['Health']);
    expect(data.navigation.links.map((l: { address: string }) => l.address)).not.toContain(
      '/media',
    );
    // The settings' words are the owner's now: they stay.
    expect(data.settings.description).toContain('Millennials and Gen Z');
    expect((await t.call(null, 'GET', '/api/site-data?path=%2Fperks')).json().perks).toEqual([]);
    const redeem = await t.call(paying, 'POST', '/api/perks/green-bowl-kitchen/redeem');
    expect(redeem.statusCode).toBe(404);
    const feed = (await t.call(null, 'GET', '/rss.xml')).body;
    expect(feed).toContain(own.slug);
    expect(feed).not.toContain('sleep-debt-reset');
    const page = await t.call(null, 'GET', `/api/site-data?path=%2F${ownPage.slug}`);
    expect(page.json().standalonePages).toEqual([
      expect.objectContaining({ title: 'About the desk' }),
    ]);

    const audit = await t.database.pool.query(
      `SELECT "actorEmail", "before" FROM audit_log WHERE action = 'samples_remove'`,
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0].before.posts).toContain('article/sleep-debt-reset');
    expect(audit.rows[0].before.sections).toEqual([
      'Wealth',
      'Direct Action',
      'Collective Action',
      'Empowerment',
    ]);

    const second = await t.call(owner, 'POST', '/api/desk/samples/remove');
    expect(second.json()).toEqual({ removed: { posts: 0, perks: 0, sections: 0 } });
    expect((await t.call(owner, 'GET', '/api/desk/samples')).json()).toEqual({
      remaining: { posts: 0, perks: 0, sections: 0 },
    });
  });

  it('never brings the samples back at a later start', async () => {
    const again = await withSite({
      env: STAFF,
      seedContentDir: contentDir,
      sharedDatabase: t.testDatabase,
    });
    try {
      const { rows } = await again.database.pool.query(`SELECT count(*)::int AS n FROM "posts"`);
      expect(rows[0]).toEqual({ n: 2 });
      expect((await again.call(null, 'GET', '/api/site-data?path=%2Fperks')).json().perks).toEqual(
        [],
      );
    } finally {
      await again.close();
    }
  });
});

describe('the privacy page with NEWSLETTER_TRACKING=off, and SITE_NAME set', () => {
  const t = useSite({
    env: { NEWSLETTER_TRACKING: 'off', SITE_NAME: 'The Tuesday Letter' },
    seedContentDir: contentDir,
  });

  it('says issues carry no tracking image, and the site keeps its own name', async () => {
    const privacy = (await t.call(null, 'GET', '/api/site-data?path=%2Fprivacy')).json();
    const words = JSON.stringify(privacy.pages.privacy.body);
    expect(words).toContain('no tracking image and no rewritten links');
    expect(words).not.toContain('whether it was opened');
    expect(privacy.settings.title).toBe('The Tuesday Letter');
    expect(privacy.settings.description).toContain('Millennials and Gen Z');
  });
});

import { describe, expect, it } from 'vitest';
import { ARTICLE, useDeskPostsSite } from '#test/desk-posts-site';
import { buildPost } from '#test/factories';
import { SECTION_COLORS } from '../../../../contract/sections.js';

// Sections and navigation links are the publisher's (docs/publishing.md, "Sections and the menu"): owners add, rename, describe,
// move, hide and delete them; editors and writers are refused; a wrong body changes nothing; a
// renamed section's old addresses lead to the new ones in one hop.

describe('the desk’s sections', () => {
  const { call, page, published, owner, editor, writer, t } = useDeskPostsSite();
  const sectionRows = async () =>
    (
      await t.database.pool.query<{ name: string; slug: string; position: number }>(
        `SELECT "name", "slug", "position" FROM "sections" ORDER BY "position"`,
      )
    ).rows;
  const auditActions = async () =>
    (
      await t.database.pool.query<{ action: string }>(
        `SELECT action FROM audit_log WHERE action LIKE 'section_%' OR action LIKE 'link_%' ORDER BY id`,
      )
    ).rows.map((row) => row.action);

  it('ships the five sections and today’s links as rows, which every staff member reads', async () => {
    const listed = await call(writer, 'GET', '/api/desk/sections');
    expect(listed.statusCode, listed.body).toBe(200);
    const { sections, links } = listed.json();
    expect(
      sections.map((s: { name: string; slug: string; lists: string }) => [s.name, s.slug, s.lists]),
    ).toEqual([
      ['Health', 'health', 'articles'],
      ['Wealth', 'wealth', 'articles'],
      ['Direct Action', 'direct-action', 'campaigns'],
      ['Collective Action', 'collective', 'boycotts'],
      ['Empowerment', 'empowerment', 'resources'],
    ]);
    expect(links).toContainEqual(
      expect.objectContaining({ label: 'Perks', address: '/perks', placement: 'navbar' }),
    );
    // The pages carry them: the menu is in the HTML the server sends.
    const home = await page('/');
    expect(home.body).toMatch(/<nav[^>]*aria-label="Main"[\s\S]*href="\/collective"/);
  });

  it('lets an owner add "Culture": 201, a row last in the menu, an audit entry, and a page in the menu', async () => {
    const created = await call(owner, 'POST', '/api/desk/sections', {
      name: 'Culture',
      slug: 'culture',
      description: 'Books, films and the arts, on a budget.',
      inMenu: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().section).toMatchObject({
      name: 'Culture',
      slug: 'culture',
      position: 6,
      inMenu: true,
      lists: 'articles',
    });
    expect((await sectionRows()).at(-1)).toEqual({ name: 'Culture', slug: 'culture', position: 6 });
    expect(await auditActions()).toEqual(['section_create']);

    const list = await page('/culture');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('Books, films and the arts, on a budget.');
    expect((await page('/')).body).toMatch(/<nav[^>]*aria-label="Main"[\s\S]*href="\/culture"/);
  });

  it('refuses editors and writers, a taken name or slug, and wrong bodies, changing nothing', async () => {
    const before = await sectionRows();
    const culture = { name: 'Arts', slug: 'arts', inMenu: true };
    for (const [who, body, status, says] of [
      [editor, culture, 403, 'ask an owner'],
      [writer, culture, 403, 'Writers work on posts only'],
      [owner, { ...culture, slug: 'culture' }, 409, 'the address of the section "Culture"'],
      [owner, { ...culture, name: 'culture' }, 409, 'already a section "culture"'],
      [owner, { ...culture, slug: 'search' }, 409, 'one of the site'],
      [owner, { ...culture, slug: 'Not A Slug' }, 400, 'slug'],
      [owner, { name: 'Arts', slug: 'arts' }, 400, 'inMenu'],
      [owner, { ...culture, name: '   ' }, 400, 'name'],
      [owner, { ...culture, extra: 1 }, 400, 'additional properties'],
    ] as const) {
      const refused = await call(who, 'POST', '/api/desk/sections', body);
      expect(refused.statusCode, refused.body).toBe(status);
      expect(refused.json().error.message).toContain(says);
    }
    expect(
      (await call(editor, 'PATCH', `/api/desk/sections/1`, { inMenu: false })).statusCode,
    ).toBe(403);
    expect((await call(owner, 'PATCH', `/api/desk/sections/1`, {})).statusCode).toBe(400);
    expect(
      (await call(owner, 'PATCH', `/api/desk/sections/999`, { inMenu: false })).statusCode,
    ).toBe(404);
    // A special section moves like any other, but not onto an address something else answers.
    const special = await call(owner, 'PATCH', '/api/desk/sections/3', { slug: 'search' });
    expect(special.statusCode).toBe(409);
    expect(special.json().error.message).toContain('one of the site');
    const twice = await call(owner, 'POST', '/api/desk/sections', {
      ...culture,
      lists: 'boycotts',
    });
    expect(twice.statusCode, twice.body).toBe(409);
    expect(twice.json().error.message).toContain('"Collective Action" lists the boycotts already');
    expect(await sectionRows()).toEqual(before);
  });

  it('moves, hides and deletes: a section with posts and no word of where they go is refused with the choices', async () => {
    const [culture] = (
      await t.database.pool.query<{ id: number }>(`SELECT id FROM sections WHERE slug = 'culture'`)
    ).rows;
    if (!culture) throw new Error('Culture was not added');
    const moved = await call(owner, 'PATCH', `/api/desk/sections/${culture.id}`, {
      position: 1,
      inMenu: false,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await sectionRows()).map((row) => [row.name, row.position])).toEqual([
      ['Culture', 1],
      ['Health', 2],
      ['Wealth', 3],
      ['Direct Action', 4],
      ['Collective Action', 5],
      ['Empowerment', 6],
    ]);
    // Out of the menu, but its page still answers.
    const home = await page('/');
    expect(home.body).not.toMatch(
      /<nav[^>]*aria-label="Main"[\s\S]*href="\/culture"[\s\S]*<\/nav>/,
    );
    expect((await page('/culture')).statusCode).toBe(200);

    await published({ slug: 'wealth-keeps-its-posts' });
    const rowsBefore = await sectionRows();
    const withPosts = await call(owner, 'DELETE', '/api/desk/sections/2');
    expect(withPosts.statusCode).toBe(409);
    expect(withPosts.json().error.message).toMatch(
      /^Wealth has \d+ posts?: send moveTo \(the slug of another section of articles: culture, health\) to move (it|them) there, or posts: 'trash'/,
    );
    // Where the posts go must be a section of their kind, one place, and a place there is.
    for (const [query, says] of [
      ['moveTo=direct-action', 'Direct Action lists campaigns, Wealth lists articles'],
      ['moveTo=wealth', '/wealth is the section being deleted'],
      ['moveTo=nowhere', 'there is no section /nowhere'],
      ['moveTo=health&posts=trash', 'not both'],
      ['posts=everywhere', 'posts'],
      ['moveTo=Not%20A%20Slug', 'moveTo'],
    ] as const) {
      const refused = await call(owner, 'DELETE', `/api/desk/sections/2?${query}`);
      expect(refused.statusCode, `${query}: ${refused.body}`).toBe(400);
      expect(refused.json().error.message).toContain(says);
    }
    const inBody = await call(owner, 'DELETE', '/api/desk/sections/2', { moveTo: 'collective' });
    expect(inBody.statusCode, inBody.body).toBe(400);
    expect((await call(editor, 'DELETE', '/api/desk/sections/2?moveTo=health')).statusCode).toBe(
      403,
    );
    expect(await sectionRows()).toEqual(rowsBefore);
    expect(await auditActions()).toEqual(['section_create', 'section_change']);

    const deleted = await call(owner, 'DELETE', `/api/desk/sections/${culture.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().sections).toHaveLength(5);
    expect(deleted.json().postCounts['2']).toBeGreaterThan(0);
    expect((await sectionRows()).map((row) => row.position)).toEqual([1, 2, 3, 4, 5]);
    expect((await page('/culture')).statusCode).toBe(404);
    expect(await auditActions()).toEqual(['section_create', 'section_change', 'section_delete']);
  });

  it('renaming a section’s slug makes its old list and article addresses 301 to the new ones in one hop', async () => {
    const article = await published({ slug: 'first-budget-moves' });
    expect(article.path).toBe('/wealth/first-budget-moves');
    const renamed = await call(owner, 'PATCH', '/api/desk/sections/2', {
      name: 'Money',
      slug: 'money',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().section).toMatchObject({ name: 'Money', slug: 'money' });

    const list = await page('/wealth');
    expect(list.statusCode).toBe(301);
    expect(list.headers.location).toBe('/money');
    const old = await page('/wealth/first-budget-moves');
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe('/money/first-budget-moves');
    const now = await page('/money/first-budget-moves');
    expect(now.statusCode).toBe(200);
    expect(now.body).toContain('Renting Your First Flat');
    // The articles went with their section: their category is its new name.
    const { rows } = await t.database.pool.query<{ category: string }>(
      `SELECT fields->>'category' AS category FROM posts WHERE slug = 'first-budget-moves'`,
    );
    expect(rows[0]?.category).toBe('Money');
    expect((await page('/sitemap.xml')).body).toContain('/money/first-budget-moves');
  });

  it('files an article under any section of articles, and refuses one the site does not have', async () => {
    const unknown = await call(owner, 'POST', '/api/desk/posts', {
      ...ARTICLE,
      slug: 'no-such-section',
      category: 'Fitness',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toContain(
      "category: must be one of the site's sections of articles: Health, Money",
    );
    const special = await call(owner, 'POST', '/api/desk/posts', {
      ...ARTICLE,
      slug: 'not-a-campaign',
      category: 'Direct Action',
    });
    expect(special.statusCode).toBe(400);

    expect(
      (
        await call(owner, 'POST', '/api/desk/sections', {
          name: 'Culture',
          slug: 'arts',
          inMenu: true,
        })
      ).statusCode,
    ).toBe(201);
    const article = await published({ slug: 'museum-nights', category: 'Culture' });
    expect(article.path).toBe('/arts/museum-nights');
    const list = await page('/arts');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('href="/arts/museum-nights"');
    expect((await page('/arts/museum-nights')).statusCode).toBe(200);

    // A page of its own cannot take a section's address.
    const ownPage = await call(owner, 'POST', '/api/desk/posts', {
      kind: 'page',
      title: 'Arts',
      slug: 'arts',
      description: 'About the arts.',
      body: 'Words.',
    });
    expect(ownPage.statusCode).toBe(400);
    expect(ownPage.json().error.message).toContain("/arts is the section Culture's address");
  });

  it('gives a new section a colour of its own, its own feed and its row on the home page, and every screen’s data carries the menu', async () => {
    const listed = (await call(owner, 'GET', '/api/desk/sections')).json().sections as {
      id: number;
      name: string;
      color: string;
    }[];
    const culture = listed.find((section) => section.name === 'Culture');
    if (!culture) throw new Error('Culture is missing');
    // Not Wealth's blue: the palette's first colour no other section has.
    expect(listed.filter((section) => section.color === culture.color)).toHaveLength(1);
    expect(SECTION_COLORS.map((color) => color.value)).toContain(culture.color);

    const bad = await call(owner, 'PATCH', `/api/desk/sections/${culture.id}`, {
      color: '#ffff00',
    });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().error.message).toContain("one of the palette's colours");
    const recoloured = await call(owner, 'PATCH', `/api/desk/sections/${culture.id}`, {
      color: '#8a5a00',
    });
    expect(recoloured.statusCode, recoloured.body).toBe(200);
    expect(recoloured.json().section.color).toBe('#8a5a00');

    // Its feed, beside its list, with its article.
    const feed = await page('/arts/rss.xml');
    expect(feed.statusCode, feed.body).toBe(200);
    expect(feed.headers['content-type']).toContain('application/rss+xml');
    expect(feed.body).toContain('<title>Cohort: Culture</title>');
    expect(feed.body).toContain('/arts/museum-nights');
    expect((await page('/no-such-section/rss.xml')).statusCode).toBe(404);

    // The home page's data has its newest articles; every screen's data has the menu as it is now.
    const home = (await page('/api/site-data?path=%2F')).json();
    expect(
      home.highlights.articles.Culture.map((article: { slug: string }) => article.slug),
    ).toEqual(['museum-nights']);
    const health = (await page('/api/site-data?path=%2Fhealth')).json();
    expect(health.navigation.sections).toContainEqual(
      expect.objectContaining({ name: 'Culture', slug: 'arts', color: '#8a5a00' }),
    );
    // Drawn in its colour, in the menu's order on the home page.
    const homePage = (await page('/')).body;
    expect(homePage).toContain('id="latest-arts"');
    expect(homePage).toContain('--tone:#8a5a00');
  });

  it('lets an owner manage the navbar’s and footer’s links; others are refused', async () => {
    const bad = await call(owner, 'POST', '/api/desk/links', {
      label: 'Shop',
      address: 'javascript:alert(1)',
      placement: 'navbar',
    });
    expect(bad.statusCode).toBe(400);
    expect(
      (
        await call(editor, 'POST', '/api/desk/links', {
          label: 'Shop',
          address: '/shop',
          placement: 'footer',
        })
      ).statusCode,
    ).toBe(403);
    const added = await call(owner, 'POST', '/api/desk/links', {
      label: 'About us',
      address: '/about',
      placement: 'footer',
    });
    expect(added.statusCode, added.body).toBe(201);
    const { link } = added.json();
    expect(link).toMatchObject({ label: 'About us', placement: 'footer', position: 12 });
    const first = await call(owner, 'PATCH', `/api/desk/links/${link.id}`, { position: 1 });
    expect(first.json().link.position).toBe(1);
    expect((await page('/')).body).toMatch(/<footer[\s\S]*href="\/about"[^>]*>About us</);
    expect((await call(owner, 'DELETE', `/api/desk/links/${link.id}`)).statusCode).toBe(200);
    expect((await page('/')).body).not.toContain('>About us<');
  });
});

// Every section can be renamed, moved and deleted, Direct Action, Collective Action and
// Empowerment too: their pages follow their sections, their old addresses lead to the
// new ones in one hop, and a section with posts is deleted only with a word of where they go.
describe('the desk’s special sections, renamed and deleted like any other', () => {
  const { call, page, published, owner, t } = useDeskPostsSite();
  const homeSections = (sections: string[]) =>
    call(owner, 'PATCH', '/api/desk/settings', {
      home: { hero: null, sections, featured: [], layout: 'grid' },
    });
  const storedHomeSections = async () =>
    (
      await t.database.pool.query<{ sections: string[] | null }>(
        `SELECT settings->'home'->'sections' AS sections FROM site_settings`,
      )
    ).rows[0]?.sections;
  const lastAudit = async () =>
    (
      await t.database.pool.query<{ before: unknown; after: unknown }>(
        `SELECT before, after FROM audit_log WHERE action = 'section_delete' ORDER BY id DESC LIMIT 1`,
      )
    ).rows[0];
  const menu = async () =>
    /<nav[^>]*aria-label="Main"[\s\S]*?<\/nav>/.exec((await page('/')).body)?.[0] ?? '';

  it('renames the three action sections: their pages at the new addresses, the old ones 301 in one hop, the menu and the sitemap saying so', async () => {
    const campaign = await buildPost(t, { kind: 'campaign', slug: 'night-bus', by: owner });
    await buildPost(t, { kind: 'boycott', slug: 'fast-fashion', by: owner });
    expect(campaign.path).toBe('/direct-action');
    expect((await homeSections(['health', 'direct-action', 'collective'])).statusCode).toBe(200);

    for (const [id, name, slug] of [
      [3, 'Act Now', 'act-now'],
      [4, 'Boycotts', 'boycotts'],
      [5, 'Learn', 'learn'],
    ] as const) {
      const renamed = await call(owner, 'PATCH', `/api/desk/sections/${id}`, { name, slug });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json().section).toMatchObject({ id, name, slug });
    }

    for (const [old, now, heading, item] of [
      ['/direct-action', '/act-now', 'Act Now', 'Fund the night bus'],
      ['/collective', '/boycotts', 'Boycotts', 'Skip the fast fashion sale'],
      ['/empowerment', '/learn', 'Learn', ''],
    ] as const) {
      const moved = await page(old);
      expect(moved.statusCode, old).toBe(301);
      expect(moved.headers.location, old).toBe(now);
      const shown = await page(now);
      expect(shown.statusCode, now).toBe(200);
      expect(shown.body).toMatch(new RegExp(`<h1[^>]*>${heading}</h1>`));
      expect(shown.body).toContain(item);
      expect(await menu()).toContain(`href="${now}"`);
      expect(await menu()).not.toContain(`href="${old}"`);
    }
    expect(await menu()).toMatch(/>Act Now</);
    const sitemap = (await page('/sitemap.xml')).body;
    for (const path of ['/act-now', '/boycotts', '/learn']) expect(sitemap).toContain(path);
    for (const path of ['/direct-action<', '/collective<', '/empowerment<']) {
      expect(sitemap).not.toContain(path);
    }
    // The desk and search say where a campaign is now; the home page's list followed.
    expect((await call(owner, 'GET', `/api/desk/posts/${campaign.id}`)).json().post.path).toBe(
      '/act-now',
    );
    const found = (await page('/api/search?q=night%20bus')).json();
    expect(found.results[0]).toMatchObject({ path: '/act-now#night-bus', section: 'Act Now' });
    expect(await storedHomeSections()).toEqual(['health', 'act-now', 'boycotts']);
  });

  it('deletes the boycotts’ section with its posts into the Trash: its page, its old address and its sitemap entry go, the home page’s list follows', async () => {
    const bare = await call(owner, 'DELETE', '/api/desk/sections/4');
    expect(bare.statusCode).toBe(409);
    expect(bare.json().error.message).toBe(
      "Boycotts has 1 post: send posts: 'trash' to move it to the Trash.",
    );
    const elsewhere = await call(owner, 'DELETE', '/api/desk/sections/4?moveTo=health');
    expect(elsewhere.statusCode).toBe(400);
    expect((await page('/boycotts')).statusCode).toBe(200);

    const deleted = await call(owner, 'DELETE', '/api/desk/sections/4', { posts: 'trash' });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().sections.map((s: { slug: string }) => s.slug)).not.toContain('boycotts');
    const { rows } = await t.database.pool.query<{ deletedAt: Date | null }>(
      `SELECT "deletedAt" FROM posts WHERE kind = 'boycott' AND slug = 'fast-fashion'`,
    );
    expect(rows[0]?.deletedAt).toBeInstanceOf(Date);
    const trash = await call(owner, 'GET', '/api/desk/posts?status=deleted');
    expect(trash.json().posts.map((post: { slug: string }) => post.slug)).toContain('fast-fashion');
    expect(await lastAudit()).toMatchObject({
      before: { name: 'Boycotts', lists: 'boycotts', posts: 1 },
      after: { trashed: 1 },
    });

    expect((await page('/boycotts')).statusCode).toBe(404);
    expect((await page('/collective')).statusCode).toBe(404);
    expect(await menu()).not.toContain('href="/boycotts"');
    expect((await page('/sitemap.xml')).body).not.toContain('/boycotts<');
    expect(await storedHomeSections()).toEqual(['health', 'act-now']);

    // A site without one may make its boycotts' section again, once.
    const again = await call(owner, 'POST', '/api/desk/sections', {
      name: 'Together',
      slug: 'together',
      inMenu: true,
      lists: 'boycotts',
    });
    expect(again.statusCode, again.body).toBe(201);
    expect((await page('/together')).statusCode).toBe(200);
  });

  it('deletes a section of articles with posts into another, whose address its old ones lead to', async () => {
    const created = await call(owner, 'POST', '/api/desk/sections', {
      name: 'Culture',
      slug: 'culture',
      inMenu: true,
    });
    const culture = created.json().section as { id: number };
    await published({ slug: 'museum-nights', category: 'Culture' });
    await published({ slug: 'gallery-draft', category: 'Culture', status: 'draft' });
    expect((await homeSections(['culture', 'health'])).statusCode).toBe(200);
    const counted = (await call(owner, 'GET', '/api/desk/sections')).json().postCounts;
    expect(counted[String(culture.id)]).toBe(2);

    const deleted = await call(owner, 'DELETE', `/api/desk/sections/${culture.id}?moveTo=health`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const { rows } = await t.database.pool.query<{ slug: string; category: string }>(
      `SELECT slug, fields->>'category' AS category FROM posts
        WHERE slug IN ('museum-nights', 'gallery-draft') ORDER BY slug`,
    );
    expect(rows).toEqual([
      { slug: 'gallery-draft', category: 'Health' },
      { slug: 'museum-nights', category: 'Health' },
    ]);
    expect(await lastAudit()).toMatchObject({ after: { movedTo: 'health', posts: 2 } });
    const list = await page('/culture');
    expect(list.statusCode).toBe(301);
    expect(list.headers.location).toBe('/health');
    const old = await page('/culture/museum-nights');
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe('/health/museum-nights');
    expect((await page('/health/museum-nights')).statusCode).toBe(200);
    expect((await page('/culture/rss.xml')).statusCode).not.toBe(200);
    expect((await page('/sitemap.xml')).body).not.toContain('/culture');
    expect(await storedHomeSections()).toEqual(['health']);
  });
});

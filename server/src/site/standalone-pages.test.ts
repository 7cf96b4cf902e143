import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentFile, writeContentFolder } from '#test/content-folder';
import { buildMember, buildPost, buildStaff, type Member } from '#test/factories';
import { builtDirs, withSite, type Site } from '#test/with-site';
import { SERVER_PATHS } from '../../../contract/constants.js';
import { PAGE_SCREENS, pageSlugProblem } from '../../../contract/posts.js';
import { SITE_FILES } from '../../../contract/site-index.js';
import { paths, redirects } from '../../../contract/site-paths.js';
import { ContentValidationError } from '../content/content-issues.js';
import { loadContent } from '../content/load-content.js';

// Pages of their own (`/about`): a page post whose slug is no screen's is drawn at `/<slug>` like
// an article (head, sitemap, members-only, 410, 301), never over an address the site answers
// otherwise; and old addresses (an import's `/write`, WordPress's `/?p=1178`) answer in one hop.

const OWNER = 'owner@example.com';
const SITE = 'https://members.example.org';

const ABOUT = {
  kind: 'page',
  slug: 'about',
  title: 'About the Collective',
  description: 'Who writes here, and why we started.',
  body: '## Our story\n\nWe started in a kitchen in 2019.\n',
};

describe('the slugs a page of its own may have', () => {
  it('takes a word no screen or server address uses', () => {
    for (const slug of ['about', 'contact', 'contribute', 'write', 'our-team-2026']) {
      expect(pageSlugProblem(slug), slug).toBeNull();
    }
  });

  it('refuses the site’s screens, saying which', () => {
    expect(pageSlugProblem('account')).toBe(
      "/account is one of the site's own screens: choose another slug",
    );
    for (const path of [
      ...Object.values(paths),
      paths.topics,
      paths.search,
      paths.desk,
      '/newsletter',
      '/health',
      '/wealth',
    ]) {
      const slug = path.split('/')[1];
      // The home page, and the screens whose text is a page post (tested below). The samples'
      // Direct Action is a section's address, the sections table's (section-store.ts), not the code's.
      if (!slug || slug in PAGE_SCREENS || path === paths.directAction) continue;
      expect(pageSlugProblem(slug), path).toMatch(/is one of the site's own screens/);
    }
  });

  it('refuses what the server answers itself and the old addresses that redirect', () => {
    const firstWords = [...SERVER_PATHS, ...SITE_FILES, ...redirects.map(({ from }) => from)].map(
      (path) => (path.split('/')[1] ?? '').replace(/\.[^.]*$/, ''),
    );
    for (const slug of [...firstWords, 'metrics', 'assets', 'join', 'favicon', 'rss', 'sitemap']) {
      expect(pageSlugProblem(slug), slug).not.toBeNull();
    }
    expect(pageSlugProblem('api')).toBe(
      "/api is an address the site's server answers itself: choose another slug",
    );
  });

  it('keeps a screen’s slug for that screen’s text, and refuses what is no slug', () => {
    for (const [slug, screen] of Object.entries(PAGE_SCREENS)) {
      // A special kind's screen is wherever its section is (`/:section`).
      const where = screen === '/:section' ? 'section of' : `${screen} screen`;
      expect(pageSlugProblem(slug), slug).toContain(`the site's ${where}`);
    }
    expect(pageSlugProblem('About Us')).toBe('must be lower-case words joined by hyphens');
    expect(pageSlugProblem('')).toBe('must be lower-case words joined by hyphens');
  });

  it('refuses the name of every file of the built client', () => {
    const names = readdirSync(builtDirs().clientDir).filter((name) => !/\.(gz|br)$/.test(name));
    expect(names).toContain('favicon.ico');
    for (const name of names) {
      expect(pageSlugProblem(name.replace(/\.[^.]*$/, '')), name).not.toBeNull();
    }
  });
});

describe('a content folder’s pages', () => {
  it('loads a page of its own, and names a file whose name the site answers otherwise', async () => {
    const page = (title: string) =>
      contentFile({ title, description: 'A page.', updatedAt: '2026-11-20' }, 'Some text.');
    const good = await writeContentFolder({ 'pages/about.md': page('About') });
    const bad = await writeContentFolder({
      'pages/about.md': page('About'),
      'pages/login.md': page('Sign in'),
    });
    try {
      expect((await loadContent(good.dir, { perks: false })).pages.map((p) => p.name)).toEqual([
        'about',
      ]);
      const error = await loadContent(bad.dir, { perks: false }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ContentValidationError);
      expect((error as ContentValidationError).issues).toEqual([
        {
          file: expect.stringMatching(/pages\/login\.md$/),
          field: 'slug',
          message: "/login is one of the site's own screens: choose another slug",
        },
      ]);
    } finally {
      await good.remove();
      await bad.remove();
    }
  });
});

describe('a page of its own on the site', () => {
  let t: Site;
  let owner: Member;

  const page = (url: string, who: Member | null = null) =>
    t.app.inject({ method: 'GET', url, headers: who ? { cookie: who.cookie } : {} });
  const call = (method: 'POST' | 'PATCH', url: string, payload: object) =>
    t.app.inject({ method, url, headers: { cookie: owner.cookie }, payload });

  /** A new post by the owner, published: its JSON. */
  const published = (post: object) => buildPost(t, { ...post, by: owner });

  /** Records an old address of a post, as an import does, and has the site read it. */
  async function recordOldPath(path: string, postId: number) {
    await t.database.pool.query(`INSERT INTO "post_paths" ("path", "postId") VALUES ($1, $2)`, [
      path,
      postId,
    ]);
    await t.app.siteContent.refresh();
  }

  beforeAll(async () => {
    t = await withSite({ built: true, env: { SITE_URL: SITE, STAFF_EMAILS: OWNER } });
    [owner] = await buildStaff(t, 'owner');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 200 at /<slug> with its title, description, text and head, and lists it in the sitemap', async () => {
    const about = await published(ABOUT);
    expect(about.path).toBe('/about');
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/desk/posts',
      headers: { cookie: owner.cookie },
    });
    expect(listed.json().posts).toContainEqual(expect.objectContaining({ path: '/about' }));

    const response = await page('/about');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    const html = response.body;
    expect(html).toContain('<h1');
    expect(html).toContain(ABOUT.title);
    expect(html).toContain('We started in a kitchen in 2019.');
    expect(html).toMatch(/<h2[^>]*>Our story<\/h2>/);
    expect(html).toMatch(new RegExp(`<title>${ABOUT.title} · [^<]+</title>`));
    expect(html).toMatch(
      new RegExp(`<meta\\s+name="description"\\s+content="${ABOUT.description}"`),
    );
    expect(html).toContain(`<meta property="og:title" content="${ABOUT.title}"`);
    expect(html).toContain(`<meta property="og:description" content="${ABOUT.description}"`);
    expect(html).toContain(`<link rel="canonical" href="${SITE}/about"`);

    expect((await page('/sitemap.xml')).body).toContain(`<loc>${SITE}/about</loc>`);
    const data = await page(`/api/site-data?path=${encodeURIComponent('/about')}`);
    expect(data.json()).toMatchObject({
      standalonePages: [{ slug: 'about', title: ABOUT.title, description: ABOUT.description }],
      bodies: { 'page/about': { type: 'root' } },
    });
    expect(data.json()).not.toHaveProperty('teasers');
  });

  it('refuses a page slug the site answers otherwise with a 400 naming it, and writes nothing', async () => {
    const count = async () =>
      Number((await t.database.pool.query(`SELECT count(*) FROM posts`)).rows[0].count);
    const before = await count();
    for (const [slug, message] of [
      ['account', "slug: /account is one of the site's own screens: choose another slug"],
      ['api', "slug: /api is an address the site's server answers itself: choose another slug"],
      ['topics', "slug: /topics is one of the site's own screens"],
      ['rss', "slug: /rss.xml is an address the site's server answers itself"],
      ['index', 'slug: /index leads to another screen of the site'],
    ]) {
      const refused = await call('POST', '/api/desk/posts', { ...ABOUT, slug });
      expect(refused.statusCode, slug).toBe(400);
      expect(refused.json().error.code).toBe('invalid_post');
      expect(refused.json().error.message, slug).toMatch(new RegExp(`^${message}`));
    }
    expect(await count()).toBe(before);

    // A page moved onto such an address: refused the same way, the page left as it was.
    const draft = (await call('POST', '/api/desk/posts', { ...ABOUT, slug: 'draft-page' })).json()
      .post;
    const moved = await call('PATCH', `/api/desk/posts/${draft.id}`, {
      version: draft.version,
      slug: 'desk',
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().error.message).toMatch(/^slug: \/desk is one of the site's own screens/);
  });

  it('shows a members-only page’s opening and a Join box to others, the whole of it to members', async () => {
    const SECRET = 'The members’ meeting is on the first Monday.';
    await published({
      ...ABOUT,
      slug: 'meetings',
      title: 'Meetings',
      visibility: 'members',
      body: `Everyone may come to the open day.\n\n<!-- members-only -->\n\n${SECRET}\n`,
    });
    const visitor = await page('/meetings');
    expect(visitor.statusCode).toBe(200);
    expect(visitor.body).toContain('Everyone may come to the open day.');
    expect(visitor.body).toContain('The rest is for members');
    expect(visitor.body).not.toContain(SECRET);
    expect(visitor.headers['cache-control']).toBe('no-cache');
    const data = await page(`/api/site-data?path=${encodeURIComponent('/meetings')}`);
    expect(data.json().teasers).toEqual(['page/meetings']);
    expect(data.body).not.toContain(SECRET);

    const member = await buildMember(t, { email: 'member@example.com', paid: true });
    const whole = await page('/meetings', member);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['cache-control']).toBe('private, no-cache');
    expect(whole.body).toContain(SECRET);
    expect(whole.body).not.toContain('The rest is for members');
    const memberData = await page(`/api/site-data?path=${encodeURIComponent('/meetings')}`, member);
    expect(memberData.json()).not.toHaveProperty('teasers');
    expect(memberData.body).toContain(SECRET);
  });

  it('leads its old slug to the new one (301), and answers 410 once it is taken down', async () => {
    const contact = await published({ ...ABOUT, slug: 'contact', title: 'Contact us' });
    const renamed = await call('PATCH', `/api/desk/posts/${contact.id}`, {
      version: contact.version,
      slug: 'get-in-touch',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().post.path).toBe('/get-in-touch');
    const old = await page('/contact');
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe('/get-in-touch');
    expect((await page('/get-in-touch')).body).toContain('Contact us');

    const down = await call('POST', `/api/desk/posts/${contact.id}/unpublish`, {
      version: renamed.json().post.version,
    });
    expect(down.statusCode, down.body).toBe(200);
    const gone = await page('/get-in-touch');
    expect(gone.statusCode).toBe(410);
    expect(gone.body).toContain('This page was removed');
    expect(gone.body).not.toContain('Page not found');
    expect((await page('/sitemap.xml')).body).not.toContain('/get-in-touch');
  });

  it('leaves the screens’ text where it is: never gone, never moved, never a page of its own', async () => {
    const privacy = await published({
      kind: 'page',
      slug: 'privacy',
      title: 'Privacy policy',
      description: 'What we keep.',
      body: 'We keep your email address and nothing else.',
    });
    expect(privacy.path).toBe('/privacy');
    const shown = await page('/privacy');
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('We keep your email address and nothing else.');
    expect(shown.body).toContain('Site policy');

    // Its slug given to another screen's text: /privacy is the privacy screen without its text
    // (the not-found page, as it always was), never a 301 to /terms.
    const moved = await call('PATCH', `/api/desk/posts/${privacy.id}`, {
      version: privacy.version,
      slug: 'terms',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().post.path).toBe('/terms');
    expect((await page('/privacy')).statusCode).toBe(404);
    expect((await page('/terms')).body).toContain('We keep your email address and nothing else.');

    // Taken off the site: the screen without its text is the not-found page, as it always was,
    // never 410 Gone.
    const down = await call('POST', `/api/desk/posts/${privacy.id}/unpublish`, {
      version: moved.json().post.version,
    });
    expect(down.statusCode, down.body).toBe(200);
    const terms = await page('/terms');
    expect(terms.statusCode).toBe(404);
    expect(terms.body).not.toContain('We keep your email address and nothing else.');

    // An import recording a screen's address as some post's old one changes nothing there.
    const about = (await page('/api/site-data?path=%2Fabout')).json().standalonePages[0];
    await recordOldPath('/terms', about.id);
    expect((await page('/terms')).statusCode).toBe(404);
    await published({
      kind: 'page',
      slug: 'refunds',
      title: 'Refunds',
      description: 'When we pay back.',
      body: 'Within fourteen days, in full.',
    });
    await recordOldPath('/refunds', about.id);
    const refunds = await page('/refunds');
    expect(refunds.statusCode).toBe(200);
    expect(refunds.body).toContain('Within fourteen days, in full.');
  });

  it('answers an old address with a trailing slash in one hop, straight to the post', async () => {
    const write = await published({ ...ABOUT, slug: 'writing-for-us', title: 'Write for us' });
    await recordOldPath('/write', write.id);
    for (const url of ['/write/', '/write', '/write//']) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(301);
      expect(response.headers.location, url).toBe('/writing-for-us');
    }
    // An address that moved nowhere still loses its slash first, as before.
    const plain = await page('/writing-for-us/');
    expect(plain.statusCode).toBe(301);
    expect(plain.headers.location).toBe('/writing-for-us');
    // Never off the site, however the address was spelled.
    const odd = await page('//evil.example/');
    expect(odd.statusCode).toBe(301);
    expect(odd.headers.location).toBe('/evil.example');
  });

  it('answers WordPress’s /?p= and /?page_id= with 301 when recorded, and the home page otherwise', async () => {
    const post = await published({ ...ABOUT, slug: 'markup-tags', title: 'Markup: HTML tags' });
    await recordOldPath('/?p=1178', post.id);
    await recordOldPath('/?page_id=2', post.id);
    for (const url of [
      '/?p=1178',
      '/?p=1178&replytocom=3',
      '/?utm_source=x&p=01178',
      '/?page_id=2',
    ]) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(301);
      expect(response.headers.location, url).toBe('/markup-tags');
    }
    for (const url of ['/?p=9999', '/?p=abc', '/?q=1178', '/?page_id=1178']) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toMatch(/<h1/);
      expect(response.body, url).not.toContain('Page not found');
    }
  });

  it('previews a draft page at its own address, as a visitor and as a member', async () => {
    const created = await call('POST', '/api/desk/posts', {
      ...ABOUT,
      slug: 'volunteer',
      title: 'Volunteer',
      visibility: 'members',
      body: 'Anyone can help on Saturdays.\n\n<!-- members-only -->\n\nMembers get the rota.\n',
    });
    expect(created.statusCode, created.body).toBe(201);
    const { post } = created.json();
    const preview = (as: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/desk/posts/${post.id}/preview`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: owner.cookie },
        payload: new URLSearchParams({ as, post: JSON.stringify({}) }).toString(),
      });
    const visitor = await preview('visitor');
    expect(visitor.statusCode, visitor.body).toBe(200);
    expect(visitor.body).toContain('Anyone can help on Saturdays.');
    expect(visitor.body).toContain('The rest is for members');
    expect(visitor.body).not.toContain('Members get the rota.');
    expect((await preview('member')).body).toContain('Members get the rota.');
    expect((await page('/volunteer')).statusCode).toBe(404);
  });

  it('answers a one-word address no page has with the 404 page', async () => {
    const response = await page('/no-such-page');
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('Page not found');
    // Nothing but the navigation and the settings every answer carries.
    const { navigation, settings, ...data } = (
      await page('/api/site-data?path=%2Fno-such-page')
    ).json();
    expect(data).toEqual({});
    expect(navigation.sections.length).toBeGreaterThan(0);
    expect(settings.title).toEqual(expect.any(String));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { seedMember, seedStaff, type SeededMember } from '#test/members';
import { waitForMail } from '#test/registration';
import { SmtpCapture } from '#test/smtp-capture';
import { createTestApp, type TestApp } from '#test/test-app';
import { clientDistDir, ssrDistDir } from '../../paths.js';
import { createPostSchedule } from '../../content/post-schedule.js';

// The desk's posts through the real app, its renderer and PostgreSQL: who may do what, what a
// visitor sees at each step (draft, published, edited, moved, unpublished, deleted, scheduled),
// and that no save overwrites another's or loses what it replaced.

const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';
const WRITER = 'writer@example.com';
const SITE = 'https://members.example.org';

/** An article's fields, whole: what publishing it needs. */
const ARTICLE = {
  kind: 'article',
  title: 'Renting Your First Flat',
  category: 'Wealth',
  summary: 'Deposits, inventories and what a landlord may not ask for.',
  readingMinutes: 4,
  body: '## Before you sign\n\nRead the whole lease, then read it again.\n',
};

/** An uploaded image's address, as the desk's Upload image gives it (contract/images.ts). */
const UPLOADED_IMAGE = '/uploads/k3ys0nawoodentab1e00-1200x800.webp';

describe('the desk’s posts', () => {
  let mailbox: SmtpCapture;
  let t: TestApp;
  let owner: SeededMember;
  let editor: SeededMember;
  let writer: SeededMember;
  let reader: SeededMember;

  const call = (
    who: SeededMember | null,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url,
      headers: who ? { cookie: who.cookie } : {},
      ...(payload !== undefined && { payload }),
    });
  const page = (url: string) => t.app.inject({ method: 'GET', url });
  const feedLinks = async (url: string) => {
    const parsed = new XMLParser({ isArray: (name) => name === 'item' }).parse(
      (await page(url)).body,
    ) as {
      rss: { channel: { item?: { link: string }[] } };
    };
    return (parsed.rss.channel.item ?? []).map((item) => item.link);
  };
  const sitemap = async () => (await page('/sitemap.xml')).body;
  const postCount = async () =>
    Number((await t.database.pool.query('SELECT count(*) FROM posts')).rows[0].count);

  /** A new post by the owner, published: its JSON. */
  async function published(changes: object = {}) {
    const created = await call(owner, 'POST', '/api/desk/posts', { ...ARTICLE, ...changes });
    expect(created.statusCode, created.body).toBe(201);
    const { post } = created.json();
    const done = await call(owner, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version,
    });
    expect(done.statusCode, done.body).toBe(200);
    return done.json().post;
  }

  beforeAll(async () => {
    mailbox = await new SmtpCapture().start();
    t = await createTestApp({
      clientDir: clientDistDir,
      ssrDir: ssrDistDir,
      env: {
        SITE_URL: SITE,
        STAFF_EMAILS: OWNER,
        EDITOR_EMAILS: EDITOR,
        WRITER_EMAILS: WRITER,
        SMTP_URL: mailbox.url,
      },
    });
    [owner, editor, writer] = await seedStaff(t, 'owner', 'editor', 'writer');
    reader = await seedMember(t, { email: 'reader@example.com' });
  });
  afterAll(async () => {
    await t?.close();
    await mailbox?.stop();
  });

  it('is an unknown address to anyone but staff, whatever they send', async () => {
    for (const who of [null, reader]) {
      for (const [method, url] of [
        ['GET', '/api/desk/posts'],
        ['POST', '/api/desk/posts'],
        ['PATCH', '/api/desk/posts/1'],
        ['POST', '/api/desk/posts/1/publish'],
        ['DELETE', '/api/desk/posts/1'],
      ] as const) {
        const response = await call(
          who,
          method,
          url,
          method === 'GET' || method === 'DELETE' ? undefined : ARTICLE,
        );
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json().error.code).toBe('not_found');
      }
    }
    expect(Number((await t.database.pool.query('SELECT count(*) FROM posts')).rows[0].count)).toBe(
      0,
    );
  });

  it('keeps a draft off the site: no page, no list, no feed, no sitemap, no site data', async () => {
    const created = await call(writer, 'POST', '/api/desk/posts', ARTICLE);
    expect(created.statusCode, created.body).toBe(201);
    const { post } = created.json();
    expect(post).toMatchObject({
      kind: 'article',
      slug: 'renting-your-first-flat',
      status: 'draft',
      visibility: 'public',
      version: 1,
      publishedAt: null,
      path: '/wealth/renting-your-first-flat',
      category: 'Wealth',
    });
    expect((await page(post.path)).statusCode).toBe(404);
    expect((await page('/wealth')).body).not.toContain(ARTICLE.title);
    expect(await feedLinks('/rss.xml')).not.toContain(`${SITE}${post.path}`);
    expect(await sitemap()).not.toContain(post.path);
    const data = await page(`/api/site-data?path=${encodeURIComponent(post.path)}`);
    expect(data.body).not.toContain(ARTICLE.title);

    const listed = await call(editor, 'GET', '/api/desk/posts?status=draft&q=first%20flat');
    expect(listed.json().posts.map((item: { id: number }) => item.id)).toEqual([post.id]);
    const byText = await call(editor, 'GET', '/api/desk/posts?kind=article&text=FIRST%20FLAT');
    expect(byText.json().posts.map((item: { id: number }) => item.id)).toEqual([post.id]);
    expect((await call(editor, 'GET', '/api/desk/posts?kind=page')).json().posts).toEqual([]);
    expect((await call(editor, 'GET', '/api/desk/posts?kind=essay')).statusCode).toBe(400);
  });

  it('answers a wrong body with 400 naming each field, and saves nothing', async () => {
    const before = Number(
      (await t.database.pool.query('SELECT count(*) FROM posts')).rows[0].count,
    );
    const cases: [object, RegExp][] = [
      [{ ...ARTICLE, kind: 'essay' }, /^kind: must be one of article, campaign/],
      [{ ...ARTICLE, category: 'Fitness' }, /category: must be one of Health, Wealth/],
      [
        { ...ARTICLE, readingMinutes: 'four', colour: 'red' },
        /readingMinutes: .*colour: is not a known field/,
      ],
      [{ ...ARTICLE, title: '' }, /title: /],
      [{ ...ARTICLE, slug: 'Not A Slug' }, /slug: must be lower-case words joined by hyphens/],
      [{ ...ARTICLE, status: 'published' }, /status: is changed by publishing or unpublishing/],
      [
        { kind: 'page', title: 'My account', slug: 'account', description: 'x' },
        /slug: \/account is one of the site's own screens/,
      ],
    ];
    for (const [body, message] of cases) {
      const response = await call(owner, 'POST', '/api/desk/posts', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.code).toBe('invalid_post');
      expect(response.json().error.message).toMatch(message);
    }
    const taken = await call(owner, 'POST', '/api/desk/posts', ARTICLE);
    expect(taken.statusCode).toBe(400);
    expect(taken.json().error.message).toMatch(
      /^slug: "renting-your-first-flat" is taken by another article/,
    );
    const after = Number((await t.database.pool.query('SELECT count(*) FROM posts')).rows[0].count);
    expect(after).toBe(before);
  });

  it('publishes only a whole post, naming what is missing, and then serves it everywhere at once', async () => {
    const created = await call(owner, 'POST', '/api/desk/posts', {
      kind: 'article',
      title: 'Half Written',
      body: '# A second H1\n\nText.',
    });
    const { post } = created.json();
    const refused = await call(owner, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toMatch(/category: is required/);
    expect(refused.json().error.message).toMatch(/summary: is required/);
    expect(refused.json().error.message).toMatch(/body: "# A second H1": headings start at ##/);
    expect((await call(owner, 'GET', `/api/desk/posts/${post.id}`)).json().post.status).toBe(
      'draft',
    );

    const live = await published({
      title: 'Index Funds Without Jargon',
      slug: 'index-funds-plainly',
    });
    expect(live).toMatchObject({ status: 'published', path: '/wealth/index-funds-plainly' });
    const html = await page(live.path);
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('<h1');
    expect(html.body).toContain('Index Funds Without Jargon');
    expect(html.body).toContain('Read the whole lease, then read it again.');
    expect(html.body).toContain(`<meta property="og:image" content="${SITE}/og/`);
    expect((await page('/wealth')).body).toContain('Index Funds Without Jargon');
    expect((await page('/')).body).toContain('Index Funds Without Jargon');
    expect(await feedLinks('/rss.xml')).toContain(`${SITE}${live.path}`);
    expect(await feedLinks('/wealth/rss.xml')).toContain(`${SITE}${live.path}`);
    expect(await sitemap()).toContain(`${SITE}${live.path}`);
  });

  it('gives a slug to one of two posts made with it at once, and names it to the other', async () => {
    const [first, second] = await Promise.all(
      [owner, editor].map((who) =>
        call(who, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'made-at-once' }),
      ),
    );
    expect([first?.statusCode, second?.statusCode].sort()).toEqual([201, 400]);
    const refused = first?.statusCode === 400 ? first : second;
    expect(refused?.json().error.message).toMatch(/^slug: "made-at-once" is taken by another/);
  });

  it('gives one of two saves from the same version a 200 and the other a 409 with the post as it is', async () => {
    const { post } = (
      await call(editor, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'two-writers' })
    ).json();
    const [first, second] = await Promise.all([
      call(owner, 'PATCH', `/api/desk/posts/${post.id}`, {
        version: post.version,
        title: 'Owner’s title',
      }),
      call(editor, 'PATCH', `/api/desk/posts/${post.id}`, {
        version: post.version,
        title: 'Editor’s title',
      }),
    ]);
    const statuses = [first.statusCode, second.statusCode].sort();
    expect(statuses).toEqual([200, 409]);
    const [won, lost] = first.statusCode === 200 ? [first, second] : [second, first];
    // Exactly the error and the post now: the editor reads both to offer a comparison.
    expect(lost.json()).toEqual({
      error: {
        code: 'edit_conflict',
        message: expect.stringMatching(/at version \d+ now/),
      },
      post: won.json().post,
    });
    expect(won.json().post.version).toBe(post.version + 1);

    // Nothing either wrote is lost: the one that lost still has its text, the first is a revision.
    const stale = await call(owner, 'PATCH', `/api/desk/posts/${post.id}`, { title: 'No version' });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().error.message).toMatch(/^version: is required/);
  });

  it('uses the writer’s SEO title and description in the page’s head, and their feature image with its alt text', async () => {
    const noAlt = await call(owner, 'POST', '/api/desk/posts', {
      ...ARTICLE,
      slug: 'with-an-image',
      featureImage: UPLOADED_IMAGE,
    });
    const refused = await call(owner, 'POST', `/api/desk/posts/${noAlt.json().post.id}/publish`, {
      version: 1,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toMatch(
      /featureImageAlt: is required with a feature image/,
    );

    const live = await published({
      slug: 'found-by-search',
      seoTitle: 'First Flat Checklist',
      seoDescription: 'Everything to check before you sign a lease.',
      featureImage: UPLOADED_IMAGE,
      featureImageAlt: 'A bunch of keys on a wooden table',
    });
    const html = (await page(live.path)).body;
    expect(html).toMatch(/<title>First Flat Checklist · [^<]+<\/title>/);
    expect(html).toMatch(
      /<meta\s+name="description"\s+content="Everything to check before you sign a lease\."/,
    );
    expect(html).toMatch(
      /<img[^>]* src="\/uploads\/k3ys0nawoodentab1e00-1200x800\.webp"[^>]* alt="A bunch of keys on a wooden table"/,
    );
    // The page itself still says what the article is called.
    expect(html).toContain(`>${ARTICLE.title}</h1>`);
  });

  it('takes as a feature image only an image uploaded here, never another host or a path of the site', async () => {
    const before = await postCount();
    const draft = (
      await call(owner, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'image-elsewhere' })
    ).json().post;
    for (const featureImage of [
      '/\\evil.example/x.png',
      '//evil.example/x.png',
      'https://images.example/cover.jpg',
      '/api/desk/posts',
      '/uploads/keys.jpg',
      '/uploads/k3ys0nawoodentab1e00-1200x800.webp/../../api/me',
    ]) {
      for (const [method, url, body] of [
        ['POST', '/api/desk/posts', { ...ARTICLE, slug: 'image-elsewhere-2', featureImage }],
        ['PATCH', `/api/desk/posts/${draft.id}`, { version: draft.version, featureImage }],
      ] as const) {
        const response = await call(owner, method, url, body);
        expect(response.statusCode, `${method} ${featureImage}`).toBe(400);
        expect(response.json().error.message).toMatch(
          /^featureImage: must be an image uploaded to this site/,
        );
      }
    }
    expect(await postCount()).toBe(before + 1);
    const saved = (await call(owner, 'GET', `/api/desk/posts/${draft.id}`)).json().post;
    expect(saved).toMatchObject({ version: draft.version, featureImage: null });
  });

  it('refuses a NUL character in any text with a 400 naming the field, and saves nothing', async () => {
    const before = await postCount();
    const draft = (
      await call(writer, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'no-nul-here' })
    ).json().post;
    const cases: [object, string][] = [
      [{ ...ARTICLE, slug: 'nul-title', title: 'Renting\u0000' }, 'title'],
      [{ ...ARTICLE, slug: 'nul-body', body: 'A line.\u0000\n' }, 'body'],
      [{ ...ARTICLE, slug: 'nul-tag', tags: ['Renting', 'First\u0000home'] }, 'tags.1'],
    ];
    for (const [body, field] of cases) {
      const response = await call(writer, 'POST', '/api/desk/posts', body);
      expect(response.statusCode, field).toBe(400);
      expect(response.json().error.message).toMatch(new RegExp(`^${field}: must not contain`));
    }
    const edit = await call(writer, 'PATCH', `/api/desk/posts/${draft.id}`, {
      version: draft.version,
      summary: 'Deposits\u0000',
    });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().error.message).toMatch(/^summary: must not contain/);
    const search = await call(writer, 'GET', '/api/desk/posts?q=rent%00');
    expect(search.statusCode).toBe(400);
    expect(search.json().error.message).toMatch(/^q: must not contain/);

    expect(await postCount()).toBe(before + 1);
    expect((await call(writer, 'GET', `/api/desk/posts/${draft.id}`)).json().post).toMatchObject({
      version: draft.version,
      summary: ARTICLE.summary,
    });
  });

  it('schedules only at a real date and time, with its zone, from 1900 to a hundred years ahead', async () => {
    const { post } = (
      await call(owner, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'on-a-real-day' })
    ).json();
    for (const at of [
      '2027-02-30T09:00:00Z',
      '2027-04-31T09:00:00Z',
      '2027-02-28T24:00:00Z',
      '2027-03-01T09:00:00',
      '0000-01-01T00:00:00Z',
      '1899-12-31T23:59:59Z',
      '9999-01-01T00:00:00Z',
      `${new Date().getUTCFullYear() + 101}-01-01T00:00:00Z`,
    ]) {
      const refused = await call(owner, 'POST', `/api/desk/posts/${post.id}/publish`, {
        version: post.version,
        at,
      });
      expect(refused.statusCode, at).toBe(400);
      expect(refused.json().error.message, at).toMatch(/^at: must be /);
    }
    expect((await call(owner, 'GET', `/api/desk/posts/${post.id}`)).json().post).toMatchObject({
      status: 'draft',
      version: post.version,
      publishedAt: null,
    });

    // A boycott's dated notes are real days in the same years.
    const boycott = {
      kind: 'boycott',
      title: 'The Long Boycott',
      reason: 'Why people walked.',
      boycottStatus: 'Success',
      alternative: { name: 'Walking', description: 'Together.' },
    };
    for (const date of ['2027-02-30', '0000-01-01', '9999-12-31']) {
      const refused = await call(owner, 'POST', '/api/desk/posts', {
        ...boycott,
        updates: [
          { date: '1955-12-05', note: 'It began.' },
          { date, note: 'It went on.' },
        ],
      });
      expect(refused.statusCode, date).toBe(400);
      expect(refused.json().error.message, date).toMatch(/^updates\.1\.date: must be /);
    }
    const dated = await call(owner, 'POST', '/api/desk/posts', {
      ...boycott,
      updates: [
        { date: '1955-12-05', note: 'It began.' },
        { date: '2028-02-29', note: 'It went on.' },
      ],
    });
    expect(dated.statusCode, dated.body).toBe(201);
  });

  it('saves a body of 140,000 characters, and of 200,000 in any script, and names the body past that', async () => {
    const long = 'Read the whole lease, then read it again. '.repeat(3_334).slice(0, 140_000);
    const created = await call(writer, 'POST', '/api/desk/posts', {
      ...ARTICLE,
      slug: 'a-long-read',
      body: long,
    });
    expect(created.statusCode, created.body.slice(0, 200)).toBe(201);
    const { post } = created.json();
    // Three bytes a character in UTF-8, the most a character of one code unit takes.
    const widest = '€'.repeat(200_000);
    const saved = await call(writer, 'PATCH', `/api/desk/posts/${post.id}`, {
      version: post.version,
      body: widest,
    });
    expect(saved.statusCode, saved.body.slice(0, 200)).toBe(200);
    const { rows } = await t.database.pool.query(
      `SELECT length("body") AS length FROM "posts" WHERE "id" = $1`,
      [post.id],
    );
    expect(rows[0].length).toBe(200_000);
    const tooLong = await call(writer, 'PATCH', `/api/desk/posts/${post.id}`, {
      version: post.version + 1,
      body: `${widest}€`,
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.message).toMatch(/^body: must be at most 200,000 characters/);
  });

  it('lists as many posts as the query string’s limit asks, and names a limit that is no number', async () => {
    for (const slug of ['listed-one', 'listed-two', 'listed-three']) {
      expect((await call(writer, 'POST', '/api/desk/posts', { ...ARTICLE, slug })).statusCode).toBe(
        201,
      );
    }
    const two = await call(editor, 'GET', '/api/desk/posts?limit=2');
    expect(two.statusCode, two.body).toBe(200);
    expect(two.json().posts.map((post: { slug: string }) => post.slug)).toEqual([
      'listed-three',
      'listed-two',
    ]);
    expect((await call(editor, 'GET', '/api/desk/posts?limit=500')).statusCode).toBe(200);
    for (const limit of ['0', '501', 'two', '1.5', '-1', '']) {
      const refused = await call(editor, 'GET', `/api/desk/posts?limit=${limit}`);
      expect(refused.statusCode, limit).toBe(400);
      expect(refused.json().error.message, limit).toMatch(/limit/);
    }
  });

  it('takes a field sent as null off the post: a policy page stops being a template', async () => {
    const created = await call(owner, 'POST', '/api/desk/posts', {
      kind: 'page',
      slug: 'privacy',
      title: 'Privacy policy',
      description: 'What we keep.',
      template: true,
      body: 'We keep your email.',
    });
    expect(created.statusCode, created.body).toBe(201);
    const { post } = created.json();
    expect(post).toMatchObject({ template: true, path: '/privacy' });
    const saved = await call(owner, 'PATCH', `/api/desk/posts/${post.id}`, {
      version: post.version,
      template: null,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().post).not.toHaveProperty('template');
    expect(saved.json().post.description).toBe('What we keep.');

    // Published, then edited while live: the page says the day its text changed.
    const live = await call(owner, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: saved.json().post.version,
    });
    expect(live.statusCode, live.body).toBe(200);
    const edited = await call(owner, 'PATCH', `/api/desk/posts/${post.id}`, {
      version: live.json().post.version,
      body: 'We keep your email, and nothing else.',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().post.updatedAt.slice(0, 10)).toBe(new Date().toISOString().slice(0, 10));
    const html = (await page('/privacy')).body;
    expect(html).toContain('We keep your email, and nothing else.');
    expect(html).not.toContain('class="template-note"');
  });

  it('keeps every earlier version, and restores one as a new version', async () => {
    const { post } = (
      await call(writer, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'many-drafts' })
    ).json();
    let version = post.version;
    for (const title of ['Second title', 'Third title']) {
      const saved = await call(writer, 'PATCH', `/api/desk/posts/${post.id}`, { version, title });
      expect(saved.statusCode, saved.body).toBe(200);
      version = saved.json().post.version;
    }
    const revisions = (await call(writer, 'GET', `/api/desk/posts/${post.id}/revisions`)).json()
      .revisions;
    expect(revisions.map((r: { version: number; title: string }) => [r.version, r.title])).toEqual([
      [2, 'Second title'],
      [1, ARTICLE.title],
    ]);
    expect(revisions[0].savedByEmail).toBe(WRITER);

    const restored = await call(writer, 'POST', `/api/desk/posts/${post.id}/revisions/1/restore`, {
      version,
    });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().post).toMatchObject({ title: ARTICLE.title, version: version + 1 });
    const after = (await call(writer, 'GET', `/api/desk/posts/${post.id}/revisions`)).json()
      .revisions;
    expect(after[0]).toMatchObject({ version, title: 'Third title' });
    const missing = await call(
      writer,
      'POST',
      `/api/desk/posts/${post.id}/revisions/99/restore`,
      {},
    );
    expect(missing.statusCode).toBe(404);
  });

  it('lets a writer draft and submit, never publish, touch what is live, or see members', async () => {
    const { post } = (
      await call(writer, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'from-a-writer' })
    ).json();
    const ownerBefore = mailbox.mailsTo(OWNER).length;
    const editorBefore = mailbox.mailsTo(EDITOR).length;
    const writerBefore = mailbox.mailsTo(WRITER).length;
    const submitted = await call(writer, 'POST', `/api/desk/posts/${post.id}/submit`, {
      version: post.version,
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().post.submittedAt).not.toBeNull();
    // Whoever publishes is told by mail: who submitted what, and where to publish it.
    for (const [publisher, before] of [
      [OWNER, ownerBefore],
      [EDITOR, editorBefore],
    ] as const) {
      const told = await waitForMail(mailbox, publisher, before + 1);
      expect(told.subject).toBe(`Ready for review: “${post.title}”`);
      expect(told.text).toContain(`${WRITER} submitted “${post.title}” for publishing`);
      expect(told.text).toContain(`/desk/posts/${post.id}\n`);
    }
    expect(mailbox.mailsTo(WRITER)).toHaveLength(writerBefore);
    const publish = await call(writer, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version + 1,
    });
    expect(publish.statusCode).toBe(403);
    expect(publish.json().error.code).toBe('writers_cannot_publish');

    const live = await published({ slug: 'live-already' });
    const edit = await call(writer, 'PATCH', `/api/desk/posts/${live.id}`, {
      version: live.version,
      title: 'Mine now',
    });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().error.code).toBe('writers_edit_drafts');
    for (const url of ['/api/desk/members', '/api/desk/dashboard', '/api/desk/audit']) {
      const response = await call(writer, 'GET', url);
      expect(response.statusCode, url).toBe(403);
      expect(response.json().error.code).toBe('writers_see_posts_only');
    }
    expect((await call(writer, 'GET', '/api/desk/me')).json().role).toBe('writer');

    // An editor publishes the writer's draft.
    const byEditor = await call(editor, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version + 1,
    });
    expect(byEditor.statusCode, byEditor.body).toBe(200);
    expect(byEditor.json().post).toMatchObject({ status: 'published', submittedAt: null });
  });

  it('leads an old address to the new one with a 301 when a live post’s slug or section changes', async () => {
    const live = await published({ slug: 'old-name' });
    const renamed = await call(editor, 'PATCH', `/api/desk/posts/${live.id}`, {
      version: live.version,
      slug: 'new-name',
      category: 'Health',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().post.path).toBe('/health/new-name');
    expect((await page('/health/new-name')).statusCode).toBe(200);
    const moved = await page('/wealth/old-name');
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe('/health/new-name');
    // Only addresses it had: any other slug in any section is still no page.
    for (const never of ['/health/old-name', '/wealth/new-name']) {
      expect((await page(never)).statusCode, never).toBe(404);
    }

    // Moved again: every earlier address leads to the newest.
    const again = await call(editor, 'PATCH', `/api/desk/posts/${live.id}`, {
      version: renamed.json().post.version,
      slug: 'newest-name',
    });
    expect(again.statusCode, again.body).toBe(200);
    for (const old of ['/wealth/old-name', '/health/new-name']) {
      const response = await page(old);
      expect(response.statusCode, old).toBe(301);
      expect(response.headers.location).toBe('/health/newest-name');
    }
  });

  it('keeps an old address leading to its post whoever drafts there, until an owner gives it to another', async () => {
    const live = await published({ slug: 'first-address' });
    const renamed = await call(editor, 'PATCH', `/api/desk/posts/${live.id}`, {
      version: live.version,
      slug: 'second-address',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const leadsOn = async () => {
      const response = await page('/wealth/first-address');
      expect(response.statusCode).toBe(301);
      expect(response.headers.location).toBe('/wealth/second-address');
    };
    await leadsOn();

    // A writer's draft moved there, a new draft there, an editor's: refused, and it still leads on.
    const { post: draft } = (
      await call(writer, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'a-writers-draft' })
    ).json();
    for (const [who, method, url, body] of [
      [
        writer,
        'PATCH',
        `/api/desk/posts/${draft.id}`,
        { version: draft.version, slug: 'first-address' },
      ],
      [writer, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'first-address' }],
      [editor, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'first-address' }],
    ] as const) {
      const refused = await call(who, method, url, body);
      expect(refused.statusCode, `${method} ${url}`).toBe(400);
      expect(refused.json().error.message).toMatch(
        new RegExp(`^slug: /wealth/first-address leads to post ${live.id}`),
      );
    }
    await leadsOn();
    const { rows } = await t.database.pool.query(
      `SELECT "postId" FROM "post_paths" WHERE "path" = '/wealth/first-address'`,
    );
    expect(rows).toEqual([{ postId: live.id }]);

    // An owner gives it to a new post: once that is live, the address is its own.
    const taken = await call(owner, 'POST', '/api/desk/posts', {
      ...ARTICLE,
      title: 'A New First Address',
      slug: 'first-address',
    });
    expect(taken.statusCode, taken.body).toBe(201);
    // That save ends the redirect at once: the draft is not live yet, so the address is unknown.
    expect((await page('/wealth/first-address')).statusCode).toBe(404);
    const { post } = taken.json();
    const live2 = await call(editor, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version,
    });
    expect(live2.statusCode, live2.body).toBe(200);
    const now = await page('/wealth/first-address');
    expect(now.statusCode).toBe(200);
    expect(now.body).toContain('A New First Address');
  });

  it('answers 410 Gone for a post unpublished or deleted, and records who did it', async () => {
    const first = await published({ slug: 'taken-down' });
    const down = await call(editor, 'POST', `/api/desk/posts/${first.id}/unpublish`, {
      version: first.version,
    });
    expect(down.statusCode, down.body).toBe(200);
    expect(down.json().post.status).toBe('draft');
    const gone = await page(first.path);
    expect(gone.statusCode).toBe(410);
    expect(gone.body).toContain('Page not found');
    expect(await feedLinks('/rss.xml')).not.toContain(`${SITE}${first.path}`);

    const second = await published({ slug: 'deleted-one' });
    const byEditor = await call(editor, 'DELETE', `/api/desk/posts/${second.id}`);
    expect(byEditor.statusCode).toBe(403);
    expect(byEditor.json().error.code).toBe('owners_only');
    const deleted = await call(owner, 'DELETE', `/api/desk/posts/${second.id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await page(second.path)).statusCode).toBe(410);
    expect((await call(owner, 'GET', `/api/desk/posts/${second.id}`)).statusCode).toBe(404);
    const listed = (await call(owner, 'GET', '/api/desk/posts')).json().posts;
    expect(listed.map((post: { id: number }) => post.id)).not.toContain(second.id);

    const { rows } = await t.database.pool.query(
      `SELECT "actorEmail", action, before->>'slug' AS slug FROM audit_log
        WHERE action IN ('post_unpublish', 'post_delete') ORDER BY id`,
    );
    expect(rows).toEqual([
      { actorEmail: EDITOR, action: 'post_unpublish', slug: 'taken-down' },
      { actorEmail: OWNER, action: 'post_delete', slug: 'deleted-one' },
    ]);
  });

  it('shows a members-only article’s opening and a Join box to others, the whole of it to members only', async () => {
    const SECRET = 'The members-only checklist, line by line.';
    const live = await published({
      slug: 'for-members',
      category: 'Health',
      visibility: 'members',
      body: `Everyone reads this opening.\n\n<!-- members-only -->\n\n${SECRET}\n`,
    });
    expect(live.path).toBe('/health/for-members');
    const member = await seedMember(t, { email: 'member@example.com' });
    const comp = await call(owner, 'POST', `/api/desk/members/${member.userId}/comps`, {
      until: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
      reason: 'a test member',
    });
    expect(comp.statusCode, comp.body).toBe(200);

    // A visitor and a signed-in reader who is no member: the opening, how to join, never the rest.
    for (const who of [null, reader]) {
      const response = await call(who, 'GET', live.path);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('Everyone reads this opening.');
      expect(response.body).toContain('The rest is for members');
      expect(response.body).not.toContain(SECRET);
      expect(response.body).not.toContain('members-only -->');
      const data = await call(who, 'GET', `/api/site-data?path=${encodeURIComponent(live.path)}`);
      expect(data.json().teasers).toEqual(['article/for-members']);
      expect(data.body).not.toContain(SECRET);
    }

    // A member gets it whole in the HTML itself, for their browser alone.
    const whole = await call(member, 'GET', live.path);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['cache-control']).toBe('private, no-cache');
    expect(whole.body).toContain('Everyone reads this opening.');
    expect(whole.body).toContain(SECRET);
    expect(whole.body).not.toContain('The rest is for members');
    const data = await call(member, 'GET', `/api/site-data?path=${encodeURIComponent(live.path)}`);
    expect(data.headers['cache-control']).toBe('private, no-store');
    expect(data.json().teasers).toBeUndefined();
    expect(data.body).toContain(SECRET);

    // Nothing public holds it: every page of the sitemap and the data its screen fetches, the
    // feeds and the site files.
    const locs = [...(await sitemap()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) =>
      (match[1] ?? '').replace(SITE, ''),
    );
    expect(locs).toContain(live.path);
    const urls = [
      ...locs.flatMap((path) => [
        path || '/',
        `/api/site-data?path=${encodeURIComponent(path || '/')}`,
      ]),
      '/rss.xml',
      '/health/rss.xml',
      '/wealth/rss.xml',
      '/newsletter/rss.xml',
      '/sitemap.xml',
      '/manifest.webmanifest',
    ];
    for (const url of urls) {
      const response = await page(url);
      expect(response.body, url).not.toContain(SECRET);
    }
    expect((await page('/health')).body).toContain(live.title);
  });

  it('previews unsaved changes as the page a visitor or a member would get, saving nothing', async () => {
    const created = await call(owner, 'POST', '/api/desk/posts', {
      ...ARTICLE,
      slug: 'preview-me',
      visibility: 'members',
      body: 'An opening for all.\n\n<!-- members-only -->\n\nThe members’ part.\n',
    });
    expect(created.statusCode, created.body).toBe(201);
    const draft = created.json().post;
    const preview = (who: SeededMember | null, as: string, post: object) =>
      t.app.inject({
        method: 'POST',
        url: `/api/desk/posts/${draft.id}/preview`,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(who && { cookie: who.cookie }),
        },
        payload: new URLSearchParams({ as, post: JSON.stringify(post) }).toString(),
      });

    const visitor = await preview(writer, 'visitor', { title: 'A Title Not Yet Saved' });
    expect(visitor.statusCode, visitor.body).toBe(200);
    expect(visitor.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(visitor.body).toContain('A Title Not Yet Saved');
    expect(visitor.body).toContain('An opening for all.');
    expect(visitor.body).toContain('The rest is for members');
    expect(visitor.body).not.toContain('The members’ part.');
    // Static: nothing in it fetches the published page's data over what was drawn.
    expect(visitor.body).not.toMatch(/<script[^>]*type="module"/);

    const member = await preview(writer, 'member', { title: 'A Title Not Yet Saved' });
    expect(member.body).toContain('The members’ part.');
    expect(member.body).not.toContain('The rest is for members');

    // Saved nothing, and the draft is still off the site.
    expect((await call(owner, 'GET', `/api/desk/posts/${draft.id}`)).json().post).toMatchObject({
      title: ARTICLE.title,
      version: draft.version,
      status: 'draft',
    });
    expect((await page('/wealth/preview-me')).statusCode).toBe(404);

    // What publishing would refuse, it names; and to anyone but staff it is no address at all.
    const unfinished = await preview(owner, 'visitor', { summary: null });
    expect(unfinished.statusCode).toBe(400);
    expect(unfinished.body).toContain('Not ready to preview');
    expect(unfinished.body).toContain('summary');
    expect((await preview(reader, 'visitor', {})).statusCode).toBe(404);
    expect((await preview(null, 'visitor', {})).statusCode).toBe(404);
  });

  it('schedules a post: not on the site before its time, live at it on the job queue, with no visitor', async () => {
    const { post } = (
      await call(owner, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'in-two-seconds' })
    ).json();
    const bad = await call(owner, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version,
      at: 'tomorrow',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/^at: must be an ISO date and time/);

    const at = new Date(Date.now() + 6_000);
    const scheduled = await call(owner, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version,
      at: at.toISOString(),
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(scheduled.json().post).toMatchObject({
      status: 'scheduled',
      publishedAt: at.toISOString(),
    });
    expect((await page(post.path)).statusCode).toBe(404);
    expect(await sitemap()).not.toContain(post.path);

    // The queue's job marks it published within a few seconds of its time.
    let status = 'scheduled';
    for (let tries = 0; tries < 60 && status !== 'published'; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = (await call(owner, 'GET', `/api/desk/posts/${post.id}`)).json().post.status;
    }
    expect(status).toBe('published');
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
    // The site reads its posts again once the job has marked it (the next moment, not at once).
    await expect
      .poll(async () => (await page(post.path)).statusCode, { timeout: 5_000, interval: 100 })
      .toBe(200);
    expect(await feedLinks('/rss.xml')).toContain(`${SITE}${post.path}`);
  });

  it('tags posts with topics, which editors describe and writers cannot; a wrong body changes nothing', async () => {
    const badTags = await call(owner, 'POST', '/api/desk/posts', {
      ...ARTICLE,
      slug: 'bad-tags',
      tags: ['Housing', 'housing'],
    });
    expect(badTags.statusCode).toBe(400);
    expect(badTags.body).toContain('must not name the same tag twice');

    const post = await published({
      slug: 'first-flat-topics',
      tags: ['Renting', 'First home'],
    });
    expect(post.tags).toEqual(['Renting', 'First home']);
    const listed = await call(editor, 'GET', '/api/desk/topics');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().topics).toContainEqual({
      slug: 'first-home',
      name: 'First home',
      count: 1,
      description: 'Articles and campaigns about first home, newest first.',
      written: false,
    });

    const description = 'Leases, deposits and the first keys: everything about a first home.';
    for (const [who, body, status] of [
      [writer, { description }, 403],
      [editor, {}, 400],
      [editor, { description: 42 }, 400],
      [editor, { description: 'x'.repeat(301) }, 400],
      [editor, { description: 'Leases\u0000' }, 400],
    ] as const) {
      const refused = await t.app.inject({
        method: 'PUT',
        url: '/api/desk/topics/first-home',
        headers: { cookie: who.cookie },
        payload: body,
      });
      expect(refused.statusCode, JSON.stringify(body)).toBe(status);
    }
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/api/desk/topics/no-such-topic',
          headers: { cookie: editor.cookie },
          payload: { description },
        })
      ).statusCode,
    ).toBe(404);
    const { rows: none } = await t.database.pool.query(`SELECT 1 FROM "topics"`);
    expect(none).toHaveLength(0);

    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/desk/topics/first-home',
      headers: { cookie: editor.cookie },
      payload: { description: `  ${description}  ` },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().topic).toMatchObject({ description, written: true });
    const topicPage = await page('/topics/first-home');
    expect(topicPage.statusCode).toBe(200);
    expect(topicPage.body).toContain(description);
    expect(topicPage.body).toContain('Renting Your First Flat');
    const { rows: audit } = await t.database.pool.query(
      `SELECT "actorEmail", after FROM audit_log WHERE action = 'topic_describe'`,
    );
    expect(audit).toEqual([{ actorEmail: EDITOR, after: { slug: 'first-home', description } }]);

    // Empty: the page's own sentence again.
    const cleared = await t.app.inject({
      method: 'PUT',
      url: '/api/desk/topics/first-home',
      headers: { cookie: owner.cookie },
      payload: { description: ' ' },
    });
    expect(cleared.json().topic).toMatchObject({
      description: 'Articles and campaigns about first home, newest first.',
      written: false,
    });
    expect((await page('/topics/first-home')).body).not.toContain(description);
  });
});

describe('a scheduled post across a restart', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { STAFF_EMAILS: OWNER } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('goes live at its time though the server that scheduled it stopped before then', async () => {
    const pool = t.database.pool;
    const { rows } = await pool.query<{ id: number }>(
      `INSERT INTO posts (kind, slug, title, fields, body, status, "publishedAt", "updatedAt")
        VALUES ('article', 'after-restart', 'After a restart',
          '{"category":"Health","summary":"s","readingMinutes":3}', 'Text.', 'scheduled',
          now() + interval '3 seconds', now())
        RETURNING id`,
    );
    const id = rows[0]?.id ?? 0;
    // The server that scheduled it: its job is queued, then it stops before the time.
    const before = createPostSchedule(pool, { onPublished: () => {}, log: () => {} });
    const at = new Date(Date.now() + 3_000);
    await before.publishAt(id, at);
    await before.stop();

    // Another server starts (or the same one again): it finds the queued job and works it.
    let published = false;
    const after = createPostSchedule(pool, {
      onPublished: () => (published = true),
      log: () => {},
    });
    await after.start();
    try {
      for (let tries = 0; tries < 60 && !published; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    } finally {
      await after.stop();
    }
    expect(published).toBe(true);
    const status = await pool.query(`SELECT status FROM posts WHERE id = $1`, [id]);
    expect(status.rows[0].status).toBe('published');
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
  });
});

describe('two app servers on one database', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const options = {
      clientDir: clientDistDir,
      ssrDir: ssrDistDir,
      env: { STAFF_EMAILS: OWNER },
    };
    a = await createTestApp(options);
    b = await createTestApp({ ...options, sharedDatabase: a.testDatabase });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('serves a post published through one from the other within 2 seconds, and its removal too', async (context) => {
    if (a.testDatabase.embedded) context.skip('the embedded test database serves one app');
    const { cookie } = await seedMember(a, { role: 'owner' });
    const call = (method: 'POST' | 'PATCH', url: string, payload: object) =>
      a.app.inject({ method, url, headers: { cookie }, payload });

    const { post } = (
      await call('POST', '/api/desk/posts', { ...ARTICLE, slug: 'on-both' })
    ).json();
    expect((await b.app.inject({ url: post.path })).statusCode).toBe(404);

    /** How long until B answers `status` at `path`, from now. */
    const untilB = async (path: string, status: number) => {
      const started = performance.now();
      while ((await b.app.inject({ url: path })).statusCode !== status) {
        if (performance.now() - started > 5_000) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return performance.now() - started;
    };
    const publish = await call('POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version,
    });
    expect(publish.statusCode).toBe(200);
    expect(await untilB(post.path, 200)).toBeLessThan(2_000);
    expect((await b.app.inject({ url: '/rss.xml' })).body).toContain(post.path);

    const edited = await call('PATCH', `/api/desk/posts/${post.id}`, {
      version: publish.json().post.version,
      title: 'Edited on A',
    });
    expect(edited.statusCode).toBe(200);
    const started = performance.now();
    while (!(await b.app.inject({ url: post.path })).body.includes('Edited on A')) {
      if (performance.now() - started > 5_000) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(performance.now() - started).toBeLessThan(2_000);

    const down = await call('POST', `/api/desk/posts/${post.id}/unpublish`, {
      version: edited.json().post.version,
    });
    expect(down.statusCode).toBe(200);
    expect(await untilB(post.path, 410)).toBeLessThan(2_000);
  });
});

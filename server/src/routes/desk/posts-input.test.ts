import { beforeAll, describe, expect, it } from 'vitest';
import { ARTICLE, useDeskPostsSite } from '#test/desk-posts-site';

// What a save of a post takes and refuses, naming the field: a wrong body, a feature image from
// elsewhere, a NUL character, a date out of range, a body too long, a list's limit, a null field.

describe('the desk’s posts: what a save takes', () => {
  const { call, page, postCount, owner, editor, writer, t } = useDeskPostsSite();
  // A draft with ARTICLE's slug, for the save that takes it to be refused.
  beforeAll(async () => {
    expect((await call(writer, 'POST', '/api/desk/posts', ARTICLE)).statusCode).toBe(201);
  });

  it('answers a wrong body with 400 naming each field, and saves nothing', async () => {
    const before = Number(
      (await t.database.pool.query('SELECT count(*) FROM posts')).rows[0].count,
    );
    const cases: [object, RegExp][] = [
      [{ ...ARTICLE, kind: 'essay' }, /^kind: must be one of article, campaign/],
      [
        { ...ARTICLE, category: 'Fitness' },
        /category: must be one of the site's sections of articles: Health, Wealth/,
      ],
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

  it('takes as a feature image only an image uploaded here or an http(s) address, never a path of the site', async () => {
    const before = await postCount();
    const draft = (
      await call(owner, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'image-elsewhere' })
    ).json().post;
    for (const featureImage of [
      '/\\evil.example/x.png',
      '//evil.example/x.png',
      'javascript:alert(1)',
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

  it('saves a boycott draft with fewer than two updates, and publishes or schedules it only with two', async () => {
    const created = await call(owner, 'POST', '/api/desk/posts', {
      kind: 'boycott',
      title: 'The Slow Boycott',
      reason: 'Why people are walking.',
      boycottStatus: 'Ongoing',
      alternative: { name: 'Walking', description: 'Together.' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const draft = created.json().post;
    const oneUpdate = await call(owner, 'PATCH', `/api/desk/posts/${draft.id}`, {
      version: draft.version,
      updates: [{ date: '2026-01-05', note: 'It began.' }],
    });
    expect(oneUpdate.statusCode, oneUpdate.body).toBe(200);
    const { post } = oneUpdate.json();
    expect(post.updates).toEqual([{ date: '2026-01-05', note: 'It began.' }]);

    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    for (const body of [{ version: post.version }, { version: post.version, at: tomorrow }]) {
      const refused = await call(owner, 'POST', `/api/desk/posts/${post.id}/publish`, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().error).toMatchObject({
        code: 'invalid_post',
        message: expect.stringMatching(/^updates: must have at least two updates to be published/),
      });
    }
    expect((await call(owner, 'GET', `/api/desk/posts/${post.id}`)).json().post).toMatchObject({
      status: 'draft',
      version: post.version,
    });

    const twoUpdates = await call(owner, 'PATCH', `/api/desk/posts/${post.id}`, {
      version: post.version,
      updates: [...post.updates, { date: '2026-02-05', note: 'It went on.' }],
    });
    const live = await call(owner, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: twoUpdates.json().post.version,
    });
    expect(live.statusCode, live.body).toBe(200);
    expect(live.json().post.status).toBe('published');
  });

  it('names what is wrong with a publish, unpublish or topic body, and changes nothing', async () => {
    const { post } = (
      await call(owner, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'bodies-named' })
    ).json();
    const cases: [string, object, RegExp][] = [
      [`/posts/${post.id}/publish`, {}, /^version: is required/],
      [`/posts/${post.id}/publish`, { version: '1' }, /^version: is required/],
      [`/posts/${post.id}/unpublish`, { version: post.version, when: 'now' }, /^when: is not a/],
    ];
    for (const [path, body, message] of cases) {
      const refused = await call(owner, 'POST', `/api/desk${path}`, body);
      expect(refused.statusCode, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(refused.json().error).toMatchObject({
        code: 'invalid_post',
        message: expect.stringMatching(message),
      });
    }
    const topic = await t.app.inject({
      method: 'PUT',
      url: '/api/desk/topics/anything',
      headers: { cookie: owner.cookie },
      payload: { description: 42 },
    });
    expect(topic.statusCode).toBe(400);
    expect(topic.json().error).toMatchObject({
      code: 'invalid_topic',
      message: 'description: must be text (empty for none).',
    });
    expect((await call(owner, 'GET', `/api/desk/posts/${post.id}`)).json().post).toMatchObject({
      status: 'draft',
      version: post.version,
    });
  });

  it('keeps what a save sends as the schema reads it: text trimmed, and only what was sent', async () => {
    const created = await call(owner, 'POST', '/api/desk/posts', {
      ...ARTICLE,
      slug: 'trimmed-text',
      title: '  Renting, Trimmed  ',
      summary: '  Deposits and inventories.  ',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().post).toMatchObject({
      title: 'Renting, Trimmed',
      summary: 'Deposits and inventories.',
    });
    const newsletter = await call(owner, 'POST', '/api/desk/posts', {
      kind: 'newsletter',
      title: 'Issue one',
      summary: 'The first one.',
      body: 'Hello.',
    });
    expect(newsletter.statusCode, newsletter.body).toBe(201);
    // The defaults (`articles: []`, `sample: false`) are a whole issue's, not a draft's.
    expect(newsletter.json().post).not.toHaveProperty('articles');
    expect(newsletter.json().post).not.toHaveProperty('sample');
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
});

import { describe, expect, it } from 'vitest';
import { buildMember, type Member } from '#test/factories';
import {
  OWNER,
  EDITOR,
  SITE,
  ARTICLE,
  UPLOADED_IMAGE,
  useDeskPostsSite,
} from '#test/desk-posts-site';

// What a visitor sees of a post at each step: a draft (nothing), published (everywhere at once),
// its head and feature image, members-only, previewed, unpublished or deleted (410).

describe('the desk’s posts: what a visitor sees', () => {
  const { call, page, feedLinks, sitemap, published, owner, editor, writer, reader, t } =
    useDeskPostsSite();

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

  it('answers 410 Gone for a post unpublished or deleted, and records who did it', async () => {
    const first = await published({ slug: 'taken-down' });
    const down = await call(editor, 'POST', `/api/desk/posts/${first.id}/unpublish`, {
      version: first.version,
    });
    expect(down.statusCode, down.body).toBe(200);
    expect(down.json().post.status).toBe('draft');
    const gone = await page(first.path);
    expect(gone.statusCode).toBe(410);
    // The page says the post was taken down, not that the address is wrong.
    expect(gone.body).toContain('This page was removed');
    expect(gone.body).not.toContain('Page not found');
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
    const member = await buildMember(t, { email: 'member@example.com' });
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

  it('draws each link in the tab its writer chose, and lets no other attribute through', async () => {
    const live = await published({
      title: 'Links That Choose',
      slug: 'links-that-choose',
      body:
        'See [the guide](/wealth/index-funds){target="_blank"}, [the CDC](https://www.cdc.gov/){target="_self"}, ' +
        '[the law](https://law.example/) and [a trap](https://trap.example/){onclick="alert(1)"}.\n',
    });
    const html = (await page(live.path)).body;
    expect(html).toMatch(
      /<a href="\/wealth\/index-funds" target="_blank" rel="noopener noreferrer">the guide<span class="visually-hidden"> \(opens in a new tab\)<\/span><\/a>/,
    );
    expect(html).toContain('<a href="https://www.cdc.gov/">the CDC</a>');
    expect(html).toMatch(
      /<a href="https:\/\/law.example\/" target="_blank" rel="noopener noreferrer">/,
    );
    expect(html).not.toMatch(/<a [^>]*onclick/);
    expect(html).toContain('{onclick=&quot;alert(1)&quot;}');
    expect(html).not.toContain('{target=');
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
    const preview = (who: Member | null, as: string, post: object) =>
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

    // What a save would refuse, it names; and to anyone but staff it is no address at all.
    const unsavable = await preview(owner, 'visitor', { title: '' });
    expect(unsavable.statusCode).toBe(400);
    expect(unsavable.body).toContain('Not ready to preview');
    expect(unsavable.body).toContain('title: must not be empty');
    expect((await preview(reader, 'visitor', {})).statusCode).toBe(404);
    expect((await preview(null, 'visitor', {})).statusCode).toBe(404);
  });

  it('draws a draft of every kind with only its title, whatever its kind still lacks', async () => {
    for (const kind of ['article', 'campaign', 'boycott', 'resources', 'page', 'newsletter']) {
      const title = `Only A Title ${kind}`;
      const created = await call(writer, 'POST', '/api/desk/posts', { kind, title });
      expect(created.statusCode, created.body).toBe(201);
      const { id } = created.json().post;
      const html = await t.app.inject({
        method: 'POST',
        url: `/api/desk/posts/${id}/preview`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: writer.cookie },
        payload: new URLSearchParams({ as: 'visitor', post: '{}' }).toString(),
      });
      expect(html.statusCode, `${kind}: ${html.body.slice(0, 300)}`).toBe(200);
      expect(html.body, kind).toContain(title);
      const warned = await call(writer, 'POST', `/api/desk/posts/${id}/preview/warnings`, {});
      expect(warned.json().warnings.length, kind).toBeGreaterThan(0);
    }
  });

  it('previews a draft that publishing would refuse, and names what it lacks by the editor’s labels', async () => {
    // A draft as a writer leaves it after a minute: a title and a line, nothing else.
    const created = await call(writer, 'POST', '/api/desk/posts', {
      kind: 'article',
      title: 'Barely Begun',
      body: 'A first line, and an image without its text:\n\n![](' + UPLOADED_IMAGE + ')\n',
      featureImage: UPLOADED_IMAGE,
    });
    expect(created.statusCode, created.body).toBe(201);
    const draft = created.json().post;
    const html = await t.app.inject({
      method: 'POST',
      url: `/api/desk/posts/${draft.id}/preview`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: writer.cookie },
      payload: new URLSearchParams({ as: 'visitor', post: '{}' }).toString(),
    });
    expect(html.statusCode, html.body).toBe(200);
    expect(html.body).toContain('Barely Begun');
    expect(html.body).toContain('A first line, and an image without its text:');

    const warned = await call(writer, 'POST', `/api/desk/posts/${draft.id}/preview/warnings`, {});
    expect(warned.statusCode, warned.body).toBe(200);
    const { warnings } = warned.json() as {
      warnings: { field: string; label: string; message: string }[];
    };
    expect(warnings.map(({ label }) => label)).toEqual([
      'Section',
      'Summary',
      'Reading time (minutes)',
      'Body',
      'Feature image alt text',
    ]);
    expect(warnings.find(({ field }) => field === 'featureImageAlt')).toEqual({
      field: 'featureImageAlt',
      label: 'Feature image alt text',
      message: 'is required with a feature image',
    });
    expect(warnings.find(({ label }) => label === 'Body')?.message).toMatch(/needs alt text/);

    // The unsaved changes count: with them, nothing is left to warn of.
    const whole = await call(writer, 'POST', `/api/desk/posts/${draft.id}/preview/warnings`, {
      category: 'Health',
      summary: 'What it is about.',
      readingMinutes: 2,
      featureImageAlt: 'A wooden table',
      body: `A first line.\n\n![A wooden table](${UPLOADED_IMAGE})\n`,
    });
    expect(whole.json()).toEqual({ warnings: [] });
    // A change a save would refuse is refused here too (400), and nothing was saved.
    const refused = await call(writer, 'POST', `/api/desk/posts/${draft.id}/preview/warnings`, {
      readingMinutes: 'soon',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('invalid_post');
    expect((await call(owner, 'GET', `/api/desk/posts/${draft.id}`)).json().post).toMatchObject({
      version: draft.version,
      status: 'draft',
    });
    // Publishing still refuses it, with the same problems.
    const publish = await call(owner, 'POST', `/api/desk/posts/${draft.id}/publish`, {
      version: draft.version,
    });
    expect(publish.statusCode).toBe(400);
    expect(publish.json().error.message).toMatch(
      /featureImageAlt: is required with a feature image/,
    );
    expect(
      (await call(reader, 'POST', `/api/desk/posts/${draft.id}/preview/warnings`, {})).statusCode,
    ).toBe(404);
  });
});

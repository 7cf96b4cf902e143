import { describe, expect, it } from 'vitest';
import { ARTICLE, SITE, UPLOADED_IMAGE, useDeskPostsSite } from '#test/desk-posts-site';

// Authors: each staff member's profile, a post's authors (its writer by default), the
// bylines, the authors' pages and feeds, and JSON-LD naming them as people. Wrong input is a 400
// (a slug another author has, a 409) and changes nothing.

/** The JSON-LD blocks of a page, parsed. */
function jsonLdOf(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/gs)].map(
    (match) => JSON.parse(match[1] ?? 'null') as Record<string, unknown>,
  );
}

describe('the desk’s authors', () => {
  const { t, call, page, published, owner, editor, writer, reader, sitemap } = useDeskPostsSite();

  const profileRow = async (userId: string) =>
    (
      await t.database.pool.query(
        `SELECT p."slug", p."bio", p."picture", p."links", u."name"
          FROM "author_profiles" p JOIN "users" u ON u."id" = p."userId" WHERE p."userId" = $1`,
        [userId],
      )
    ).rows[0];

  it('saves a staff member’s own profile, refuses a wrong one or a slug another author has, and changes nothing then', async () => {
    const mine = await call(owner, 'GET', '/api/desk/profile');
    expect(mine.statusCode, mine.body).toBe(200);
    // Made from the address's local part before they named themselves.
    expect(mine.json().profile).toMatchObject({ email: owner.email, slug: 'owner', links: [] });

    const saved = await call(owner, 'PATCH', '/api/desk/profile', {
      name: ' Ana Ruiz ',
      slug: 'ana-ruiz',
      bio: 'Writes about rent, deposits and the first keys.',
      picture: UPLOADED_IMAGE,
      links: ['https://example.com/ana', 'http://ana.example.net/'],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const profile = {
      email: owner.email,
      name: 'Ana Ruiz',
      slug: 'ana-ruiz',
      bio: 'Writes about rent, deposits and the first keys.',
      picture: UPLOADED_IMAGE,
      links: ['https://example.com/ana', 'http://ana.example.net/'],
    };
    expect(saved.json().profile).toEqual(profile);
    expect((await call(owner, 'GET', '/api/desk/profile')).json().profile).toEqual(profile);
    const row = {
      name: 'Ana Ruiz',
      slug: 'ana-ruiz',
      bio: profile.bio,
      picture: UPLOADED_IMAGE,
      links: profile.links,
    };
    expect(await profileRow(owner.userId)).toEqual(row);

    for (const [body, message] of [
      [{ slug: 'Ana Ruiz!' }, 'slug: must be lower-case words joined by hyphens'],
      [{ name: '  ' }, 'name: must not be empty'],
      [{ bio: 'x'.repeat(501) }, 'bio: must be at most 500 characters'],
      [{ picture: 'https://elsewhere.example/me.jpg' }, 'picture: must be an image uploaded'],
      [{ links: ['javascript:alert(1)'] }, 'links.0: must be an http(s) address'],
      [{ links: 'https://example.com' }, 'links: must be a list'],
      [{ twitter: '@ana' }, 'twitter: is not a known field'],
    ] as const) {
      const refused = await call(owner, 'PATCH', '/api/desk/profile', body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().error.code).toBe('invalid_profile');
      expect(refused.json().error.message).toContain(message);
    }

    const taken = await call(editor, 'PATCH', '/api/desk/profile', {
      name: 'Someone Else',
      slug: 'ana-ruiz',
    });
    expect(taken.statusCode, taken.body).toBe(409);
    expect(taken.json().error.code).toBe('slug_taken');
    expect(await profileRow(owner.userId)).toEqual(row);
    // Refused whole: not even the profile a first request makes.
    expect(await profileRow(editor.userId)).toBeUndefined();

    // The desk's, and only staff's.
    expect((await call(reader, 'GET', '/api/desk/profile')).statusCode).toBe(404);
    expect((await call(reader, 'PATCH', '/api/desk/profile', { name: 'Me' })).statusCode).toBe(404);
  });

  it('saves a post with two authors, in their order; a new post is its writer’s, and an unknown author is refused', async () => {
    expect(
      (await call(editor, 'PATCH', '/api/desk/profile', { name: 'Sam Lee', slug: 'sam-lee' }))
        .statusCode,
    ).toBe(200);
    const listed = await call(writer, 'GET', '/api/desk/authors');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().authors).toEqual([
      { slug: 'ana-ruiz', name: 'Ana Ruiz', email: owner.email, role: 'owner' },
      { slug: 'sam-lee', name: 'Sam Lee', email: editor.email, role: 'editor' },
      { slug: 'writer', name: 'writer', email: writer.email, role: 'writer' },
    ]);

    const two = await call(owner, 'POST', '/api/desk/posts', {
      ...ARTICLE,
      slug: 'two-authors',
      authors: ['sam-lee', 'ana-ruiz'],
    });
    expect(two.statusCode, two.body).toBe(201);
    expect(two.json().post.authors).toEqual(['sam-lee', 'ana-ruiz']);
    const { rows } = await t.database.pool.query(
      `SELECT "userId", "position" FROM "post_authors" WHERE "postId" = $1 ORDER BY "position"`,
      [two.json().post.id],
    );
    expect(rows).toEqual([
      { userId: editor.userId, position: 0 },
      { userId: owner.userId, position: 1 },
    ]);
    expect(
      (await call(owner, 'GET', `/api/desk/posts/${two.json().post.id}`)).json().post.authors,
    ).toEqual(['sam-lee', 'ana-ruiz']);

    const byWriter = await call(writer, 'POST', '/api/desk/posts', {
      ...ARTICLE,
      slug: 'the-writers-own',
    });
    expect(byWriter.statusCode, byWriter.body).toBe(201);
    expect(byWriter.json().post.authors).toEqual(['writer']);

    const { id, version } = byWriter.json().post;
    for (const [authors, message] of [
      [['ana-ruiz', 'nobody-here'], 'authors: no author has the slug "nobody-here"'],
      [[], 'authors: must name at least one author'],
      [['ana-ruiz', 'ana-ruiz'], 'authors: must not name an author twice'],
      ['ana-ruiz', "authors: must be a list of authors' slugs"],
      [Array.from({ length: 11 }, (_, i) => `a-${i}`), 'authors: must name at most 10'],
      [['Ana Ruiz'], 'must be lower-case words joined by hyphens'],
    ] as const) {
      const refused = await call(writer, 'PATCH', `/api/desk/posts/${id}`, { version, authors });
      expect(refused.statusCode, JSON.stringify(authors)).toBe(400);
      expect(refused.json().error.message).toContain(message);
    }
    const after = await call(writer, 'GET', `/api/desk/posts/${id}`);
    expect(after.json().post).toMatchObject({ version, authors: ['writer'] });

    const changed = await call(writer, 'PATCH', `/api/desk/posts/${id}`, {
      version,
      authors: ['writer', 'ana-ruiz'],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().post.authors).toEqual(['writer', 'ana-ruiz']);

    // A post credited to nobody (as the shipped ones are) saved back as the editor reads it.
    await t.database.pool.query(`DELETE FROM "post_authors" WHERE "postId" = $1`, [id]);
    const nobodys = (await call(writer, 'GET', `/api/desk/posts/${id}`)).json().post;
    expect(nobodys.authors).toEqual([]);
    const resaved = await call(writer, 'PATCH', `/api/desk/posts/${id}`, {
      ...nobodys,
      title: 'Renting, Again',
    });
    expect(resaved.statusCode, resaved.body).toBe(200);
    expect(resaved.json().post).toMatchObject({ title: 'Renting, Again', authors: [] });
  });

  it('shows the bylines, the author’s page, the feeds and JSON-LD people once the post is published', async () => {
    const post = await published({ slug: 'deposits-back', authors: ['ana-ruiz', 'sam-lee'] });
    expect(post.authors).toEqual(['ana-ruiz', 'sam-lee']);

    const article = await page(post.path);
    expect(article.statusCode).toBe(200);
    expect(article.body).toMatch(
      /By(<!-- -->)? ?<a[^>]*href="\/authors\/ana-ruiz"[^>]*>Ana Ruiz<\/a>/,
    );
    expect(article.body).toMatch(/ and <a[^>]*href="\/authors\/sam-lee"[^>]*>Sam Lee<\/a>/);
    const ld = jsonLdOf(article.body).find((block) => block['@type'] === 'Article');
    expect(ld?.author).toEqual([
      { '@type': 'Person', name: 'Ana Ruiz', url: `${SITE}/authors/ana-ruiz` },
      { '@type': 'Person', name: 'Sam Lee', url: `${SITE}/authors/sam-lee` },
    ]);

    const authorPage = await page('/authors/ana-ruiz');
    expect(authorPage.statusCode).toBe(200);
    expect(authorPage.body).toContain('<h1>Ana Ruiz</h1>');
    expect(authorPage.body).toContain('Writes about rent, deposits and the first keys.');
    expect(authorPage.body).toContain('href="https://example.com/ana"');
    expect(authorPage.body).toContain(ARTICLE.title);
    expect(authorPage.body).toContain(`href="${SITE}/authors/ana-ruiz/rss.xml"`);
    // Unknown, or with nothing published (the writer's posts are drafts): the 404 page.
    expect((await page('/authors/nobody-here')).statusCode).toBe(404);
    expect((await page('/authors/writer')).statusCode).toBe(404);
    expect(await sitemap()).toContain(`<loc>${SITE}/authors/sam-lee</loc>`);

    const feed = await page('/authors/sam-lee/rss.xml');
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toContain('application/rss+xml');
    expect(feed.body).toContain(`<link>${SITE}${post.path}</link>`);
    expect(feed.body).toContain('<dc:creator>Ana Ruiz</dc:creator>');
    expect(feed.body).toContain('<dc:creator>Sam Lee</dc:creator>');
    expect((await page('/authors/writer/rss.xml')).statusCode).toBe(404);
    const siteFeed = await page('/rss.xml');
    expect(siteFeed.body).toContain('xmlns:dc="http://purl.org/dc/elements/1.1/"');
    expect(siteFeed.body).toMatch(
      /<title>Renting Your First Flat<\/title>[\s\S]*?<dc:creator>Ana Ruiz<\/dc:creator>\s*<dc:creator>Sam Lee<\/dc:creator>/,
    );

    // Other kinds with a body of their own have the byline too: a page of its own.
    const created = await call(owner, 'POST', '/api/desk/posts', {
      kind: 'page',
      slug: 'house-rules',
      title: 'House Rules',
      description: 'How we write and whom we credit.',
      body: 'Every piece names who wrote it.',
      authors: ['sam-lee'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id, version } = created.json().post;
    expect(
      (await call(owner, 'POST', `/api/desk/posts/${id}/publish`, { version })).statusCode,
    ).toBe(200);
    expect((await page('/house-rules')).body).toMatch(
      /By (<!-- -->)?<a[^>]*href="\/authors\/sam-lee"[^>]*>Sam Lee<\/a><\/p>/,
    );

    // A renamed author: the byline, the page and the feed follow at once.
    expect(
      (await call(owner, 'PATCH', '/api/desk/profile', { name: 'Ana Ruiz-Díaz' })).statusCode,
    ).toBe(200);
    expect((await page(post.path)).body).toContain('>Ana Ruiz-Díaz</a>');
    expect((await page('/authors/sam-lee/rss.xml')).body).toContain(
      '<dc:creator>Ana Ruiz-Díaz</dc:creator>',
    );
  });
});

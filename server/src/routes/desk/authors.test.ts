import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTICLE, SITE, UPLOADED_IMAGE, useDeskPostsSite } from '#test/desk-posts-site';
import { loadContent } from '../../content/load-content.js';
import { draftsOf, exportPosts } from '../../content/post-files.js';
import { importPosts } from '../../content/post-import.js';
import { ghostExportChunks } from '../../imports/ghost-export.js';

/** What the Ghost export's tests read of it. */
interface GhostData {
  posts: { id: string; slug: string }[];
  users: { id: string; slug: string; name: string; email: string }[];
  posts_authors: { post_id: string; author_id: string; sort_order: number }[];
}

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

    // Audited with what changed, as it was and as it is; a save that changes nothing is not.
    expect((await call(owner, 'PATCH', '/api/desk/profile', { bio: profile.bio })).statusCode).toBe(
      200,
    );
    const audit = await call(owner, 'GET', '/api/desk/audit');
    const changes = (
      audit.json().entries as {
        action: string;
        actorEmail: string;
        before: unknown;
        after: unknown;
      }[]
    ).filter((entry) => entry.action === 'profile_change');
    expect(changes).toEqual([
      expect.objectContaining({
        actorEmail: owner.email,
        before: { name: 'owner', slug: 'owner', bio: '', picture: null, links: [] },
        after: {
          name: 'Ana Ruiz',
          slug: 'ana-ruiz',
          bio: profile.bio,
          picture: UPLOADED_IMAGE,
          links: profile.links,
        },
      }),
    ]);

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
  it('keeps a post’s authors in its revisions, and a restore brings them back', async () => {
    const created = await call(owner, 'POST', '/api/desk/posts', {
      ...ARTICLE,
      slug: 'authors-kept',
      authors: ['ana-ruiz'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id, version } = created.json().post;
    const changed = await call(owner, 'PATCH', `/api/desk/posts/${id}`, {
      version,
      authors: ['sam-lee', 'writer'],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().post.authors).toEqual(['sam-lee', 'writer']);

    const then = await call(owner, 'GET', `/api/desk/posts/${id}/revisions/${version}`);
    expect(then.statusCode, then.body).toBe(200);
    expect(then.json().revision.post.authors).toEqual(['ana-ruiz']);

    const restored = await call(
      owner,
      'POST',
      `/api/desk/posts/${id}/revisions/${version}/restore`,
      {
        version: version + 1,
      },
    );
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().post.authors).toEqual(['ana-ruiz']);
    expect((await call(owner, 'GET', `/api/desk/posts/${id}`)).json().post.authors).toEqual([
      'ana-ruiz',
    ]);
  });

  it('writes a post’s authors into content files and Ghost exports, and a content import credits them, making a profile for a slug it does not know', async () => {
    const post = await published({ slug: 'authors-travel', authors: ['sam-lee', 'ana-ruiz'] });
    const folder = await mkdtemp(join(tmpdir(), 'cohort-authors-'));
    try {
      await exportPosts(t.database.pool, folder);
      const file = await readFile(join(folder, 'articles', 'authors-travel.md'), 'utf8');
      expect(file).toMatch(/\nauthors:\n {2}- sam-lee\n {2}- ana-ruiz\n/);

      // Imported again, as another site's export naming an author this one does not have yet.
      await writeFile(
        join(folder, 'articles', 'authors-travel.md'),
        file.replace('  - ana-ruiz\n', '  - ana-ruiz\n  - lee-okafor\n'),
      );
      const content = await loadContent(folder, { perks: false });
      const result = await importPosts(t.database.pool, draftsOf(content));
      expect(result.updated).toBeGreaterThan(0);
      expect((await call(owner, 'GET', `/api/desk/posts/${post.id}`)).json().post.authors).toEqual([
        'sam-lee',
        'ana-ruiz',
        'lee-okafor',
      ]);
      const { rows } = await t.database.pool.query(
        `SELECT "name", "userId" FROM "author_profiles" WHERE "slug" = 'lee-okafor'`,
      );
      expect(rows).toEqual([{ name: 'Lee Okafor', userId: null }]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }

    // Ghost's export: each author a user (one with no account here at an address that receives
    // nothing), linked in byline order.
    let json = '';
    for await (const chunk of ghostExportChunks(t.database.pool, {
      siteUrl: SITE,
      siteName: 'Cohort',
      staff: t.config.staff,
    })) {
      json += chunk;
    }
    const data = (JSON.parse(json) as { db: [{ data: GhostData }] }).db[0].data;
    const ghostPost = data.posts.find((item) => item.slug === 'authors-travel');
    const links = data.posts_authors
      .filter((link) => link.post_id === ghostPost?.id)
      .sort((a, b) => a.sort_order - b.sort_order)
      .map((link) => data.users.find((user) => user.id === link.author_id));
    expect(links.map((user) => [user?.slug, user?.name, user?.email])).toEqual([
      ['sam-lee', 'Sam Lee', editor.email],
      ['ana-ruiz', 'Ana Ruiz-Díaz', owner.email],
      ['lee-okafor', 'Lee Okafor', 'lee-okafor@authors.invalid'],
    ]);
  });
});

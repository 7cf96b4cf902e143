import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useDeskPostsSite } from '#test/desk-posts-site';
import { sample } from '#test/migration-samples';

// An imported post keeps its authors (docs/migrating.md): the Ghost, WordPress and Medium
// readers take each post's author(s) from the real exports in ../shared/migration-samples, and
// the import credits the post to a profile of each, found by slug, address or name, else made
// for an author with no account here, who gets a byline and an /authors/<slug> page. Substack's
// export names no author. Skipped, saying so, where the samples are absent.

describe('the authors of imported posts', () => {
  const { t, call, page, owner, importSample } = useDeskPostsSite();

  /** Every profile: its slug, the name it keeps, and whether it is a staff member's. */
  const profiles = async () =>
    (
      await t.database.pool.query<{ slug: string; name: string; staff: boolean }>(
        `SELECT "slug", "name", "userId" IS NOT NULL AS staff FROM "author_profiles" ORDER BY "slug"`,
      )
    ).rows;

  /** Each imported post's authors' slugs, by the post's slug. */
  const credits = async (slugs: string[]) =>
    Object.fromEntries(
      (
        await t.database.pool.query<{ slug: string; authors: string[] }>(
          `SELECT p."slug", ARRAY(SELECT ap."slug" FROM "post_authors" pa
              JOIN "author_profiles" ap ON ap."id" = pa."authorId"
              WHERE pa."postId" = p."id" ORDER BY pa."position") AS authors
            FROM "posts" p WHERE p."slug" = ANY($1)`,
          [slugs],
        )
      ).rows.map((row) => [row.slug, row.authors]),
    );

  it('credits the Ghost v4 sample’s posts to its author "Ghost", a profile with no account and a page of its own', async (context) => {
    if (!existsSync(sample('ghost/v4_export.json'))) context.skip('the samples are not here');
    await importSample('ghost', 'ghost/v4_export.json');
    expect(await profiles()).toContainEqual({ slug: 'ghost', name: 'Ghost', staff: false });
    expect(await credits(['write', 'sell'])).toEqual({ write: ['ghost'], sell: ['ghost'] });

    const authorPage = await page('/authors/ghost');
    expect(authorPage.statusCode).toBe(200);
    expect(authorPage.body).toContain('Ghost');
    expect(authorPage.body).toContain('/write');
    const feed = await page('/authors/ghost/rss.xml');
    expect(feed.statusCode).toBe(200);
    // The editor names them as any other author.
    const post = (await call(owner, 'GET', '/api/desk/posts?q=write')).json().posts[0];
    expect(post.authors).toEqual(['ghost']);

    // Again: the same profile, not a second one.
    const before = await profiles();
    await importSample('ghost', 'ghost/v4_export.json');
    expect(await profiles()).toEqual(before);
  });

  // The theme unit test's hundred posts take a while on a busy machine.
  it(
    'credits the WordPress theme unit test’s posts to each dc:creator, matching a staff member by name and the stray ">themereviewteam" by slug',
    { timeout: 120_000 },
    async (context) => {
      if (!existsSync(sample('wordpress/theme-unit-test-data.xml')))
        context.skip('the samples are not here');
      // A staff member who is "Theme Buster" here already: their posts come to their profile.
      expect(
        (
          await call(owner, 'PATCH', '/api/desk/profile', {
            name: 'Theme Buster',
            slug: 'theme-buster',
          })
        ).statusCode,
      ).toBe(200);
      await importSample('wordpress', 'wordpress/theme-unit-test-data.xml');
      const made = await profiles();
      expect(made).toContainEqual({
        slug: 'themereviewteam',
        name: 'Theme Reviewer',
        staff: false,
      });
      expect(made).toContainEqual({ slug: 'theme-buster', name: '', staff: true });
      expect(made.map((profile) => profile.slug)).not.toContain('themedemos');
      const { rows } = await t.database.pool.query<{ slug: string; n: number }>(
        `SELECT ap."slug", count(*)::int AS n FROM "post_authors" pa
        JOIN "author_profiles" ap ON ap."id" = pa."authorId"
        WHERE ap."slug" IN ('themereviewteam', 'theme-buster') GROUP BY ap."slug" ORDER BY 1`,
      );
      // Every post imported (import_items keeps the authors the export named) is its creator's:
      // those by Theme Reviewer with the one whose dc:creator is ">themereviewteam".
      const { rows: named } = await t.database.pool.query<{ slug: string; n: number }>(
        `SELECT CASE "authors"->0->>'slug' WHEN 'themedemos' THEN 'theme-buster'
          ELSE 'themereviewteam' END AS slug, count(*)::int AS n
        FROM "import_items" WHERE "source" = 'wordpress' AND "kind" = 'post' GROUP BY 1 ORDER BY 1`,
      );
      expect(rows).toEqual(named);
      expect(rows.map((row) => row.n)).toEqual([56, 22]);
      const byline = await page('/authors/themereviewteam');
      expect(byline.statusCode).toBe(200);
      expect(byline.body).toContain('Theme Reviewer');
    },
  );

  it('credits the Medium sample’s posts to the profile’s author, Joe Bloggs', async (context) => {
    if (!existsSync(sample('medium/export'))) context.skip('the samples are not here');
    await importSample('medium', 'medium/export');
    expect(await profiles()).toContainEqual({
      slug: 'joebloggs',
      name: 'Joe Bloggs',
      staff: false,
    });
    const { rows } = await t.database.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "post_authors" pa
        JOIN "author_profiles" ap ON ap."id" = pa."authorId" WHERE ap."slug" = 'joebloggs'`,
    );
    expect(rows[0]?.n).toBe(7);
    expect((await page('/authors/joebloggs')).statusCode).toBe(200);
  });
});

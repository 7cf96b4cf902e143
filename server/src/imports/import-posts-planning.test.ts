import { createHash } from 'node:crypto';
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanSlug } from './clean-slug.js';
import { oldPathOf, siteOwnAddress } from './post-planning.js';
import type { SourcePost } from './source.js';
import {
  FIRST_SECTION,
  OTHER_SECTION,
  bundleOf,
  sourcePost,
  useImportTarget,
} from '#test/import-posts-target';

// What an import decides before it writes a post (post-planning.ts): its slug, told apart from the
// site's and the export's others, the section it goes to, its tags, and its old addresses.

describe('planning imported posts', () => {
  const target = useImportTarget();
  const { write, postsBySlug, publication } = target;
  let pool: pg.Pool;
  beforeAll(() => ({ pool } = target));

  it('skips a post whose slug another post has, and leaves that post as it was', async () => {
    const { rows } = await pool.query<{ id: number }>(
      `INSERT INTO "posts" ("kind", "slug", "title", "body", "status", "fields", "updatedAt")
        VALUES ('article', 'taken', 'Written here', 'Ours.', 'draft', '{}', now()) RETURNING "id"`,
    );
    const outcome = await write(
      bundleOf([sourcePost({ sourceId: 'x', slug: 'taken', title: 'From the old site' })]),
    );
    expect(outcome.posts.created).toBe(0);
    expect(outcome.posts.skipped).toEqual([
      {
        item: 'From the old site',
        reason: `slug "taken" is taken by another post here (post ${rows[0]?.id}); not overwritten`,
      },
    ]);
    expect((await postsBySlug()).get('taken')).toMatchObject({
      title: 'Written here',
      body: 'Ours.',
    });
  });

  it('gives a post whose slug an earlier post of the export has its title’s, the same on every run', async () => {
    const twins = () =>
      bundleOf([
        sourcePost({ sourceId: 'first', slug: 'testpost', title: 'First post' }),
        sourcePost({ sourceId: 'second', slug: 'testpost', title: 'Second post' }),
        sourcePost({ sourceId: 'third', slug: 'testpost', title: 'Second post' }),
      ]);
    const outcome = await write(twins());
    expect(outcome.posts.created).toBe(3);
    expect([...(await postsBySlug()).keys()]).toEqual(['testpost', 'second-post', 'testpost-2']);
    expect(outcome.notes).toContain(
      '"Second post": slug "testpost" is an earlier post\'s in this export; "second-post" instead',
    );
    const again = await write(twins());
    expect(again.posts).toEqual({ created: 0, updated: 0, unchanged: 3, skipped: [] });
  });

  it("skips a page whose slug is one of the site's own screens", async () => {
    const outcome = await write(
      bundleOf([sourcePost({ sourceId: 'pp', type: 'page', slug: 'privacy', title: 'Privacy' })]),
    );
    expect(outcome.pages.created).toBe(0);
    expect(outcome.pages.skipped[0]?.reason).toMatch(/^slug "privacy": /);
  });

  it('cleans control and invisible characters out of slugs, keeping their words', () => {
    // The UTF-8 challenge's slug: a right-to-left override around its words.
    expect(cleanSlug('\u202eevil-slug\u202c', 'x', '1')).toBe('evil-slug');
    expect(cleanSlug('zero\u200bwidth\u00adsoft', 'x', '1')).toBe('zerowidthsoft');
    expect(cleanSlug('Café Crème', 'x', '1')).toBe('cafe-creme');
    expect(cleanSlug('caf%c3%a9', 'x', '1')).toBe('cafe');
    expect(cleanSlug('\u202e\u202c', 'Its Title', '1')).toBe('its-title');
    expect(cleanSlug('日本語', '日本語', '42')).toBe('post-42');
  });

  it('spells a Greek or Cyrillic slug in Latin letters rather than losing its words', () => {
    expect(cleanSlug('%ce%b5%cf%80%ce%af%cf%80%ce%b5%ce%b4%ce%bf-3', 'x', '1')).toBe('epipedo-3');
    expect(cleanSlug('привет-мир', 'x', '1')).toBe('privet-mir');
    expect(cleanSlug('', 'Grüße aus Köln', '1')).toBe('gruesse-aus-koeln');
  });

  it('imports a post whose slug has a right-to-left override at the cleaned slug', async () => {
    const outcome = await write(
      bundleOf([sourcePost({ sourceId: 'rtl', slug: '\u202emulti-byte-slug\u202c' })]),
    );
    expect(outcome.posts.created).toBe(1);
    expect([...(await postsBySlug()).keys()]).toEqual(['multi-byte-slug']);
  });

  it('places posts by their first mapped tag, else in the section named', async () => {
    const outcome = await write(
      bundleOf([
        sourcePost({ sourceId: 'm1', slug: 'mapped', tags: ['Misc', 'Money'] }),
        sourcePost({ sourceId: 'm2', slug: 'unmapped', tags: ['Misc'] }),
      ]),
      { dryRun: false, section: OTHER_SECTION.toLowerCase(), map: { money: FIRST_SECTION } },
    );
    expect(outcome.posts.created).toBe(2);
    const posts = await postsBySlug();
    expect(posts.get('mapped')?.fields.category).toBe(FIRST_SECTION);
    expect(posts.get('unmapped')?.fields.category).toBe(OTHER_SECTION);
  });

  it('refuses a section the site does not have before writing anything', async () => {
    await expect(write(publication(), { dryRun: false, section: 'Gardening' })).rejects.toThrow(
      /there is no section "Gardening"/,
    );
    await expect(
      write(publication(), { dryRun: false, map: { craft: 'Nowhere' } }),
    ).rejects.toThrow(/--map craft=Nowhere: there is no section "Nowhere"/);
    expect((await pool.query(`SELECT count(*)::int AS n FROM "posts"`)).rows[0]).toEqual({ n: 0 });
  });

  it('fits tags to the site: at most eight, each at most 40 characters, with a note', async () => {
    const long = 'A tag name that goes on far longer than forty characters';
    const outcome = await write(
      bundleOf([
        sourcePost({
          sourceId: 't',
          slug: 'tagged',
          tags: [
            long,
            '!!!',
            'One',
            'one',
            'Two',
            'Three',
            'Four',
            'Five',
            'Six',
            'Seven',
            'Eight',
          ],
        }),
      ]),
    );
    const tags = (await postsBySlug()).get('tagged')?.fields.tags;
    expect(tags).toEqual([
      'A tag name that goes on far longer than',
      'One',
      'Two',
      'Three',
      'Four',
      'Five',
      'Six',
      'Seven',
    ]);
    expect(outcome.notes).toEqual(
      expect.arrayContaining([
        `"Post t": tag "${long}" shortened to "A tag name that goes on far longer than" (at most 40 characters)`,
        '"Post t": tag "!!!" dropped (no letter or digit)',
        '"Post t": tag "Eight" dropped (at most 8 tags on a post)',
      ]),
    );
  });

  it('reduces old addresses to paths the site can answer', () => {
    expect(oldPathOf('https://old.example/2013/01/11/markup-html-tags-and-formatting/')).toBe(
      '/2013/01/11/markup-html-tags-and-formatting',
    );
    expect(oldPathOf('/write/')).toBe('/write');
    expect(oldPathOf('https://old.example/?p=1178')).toBe('/?p=1178');
    expect(oldPathOf('/?page_id=2')).toBe('/?page_id=2');
    expect(oldPathOf('/p/my-post?utm_source=x#top')).toBe('/p/my-post');
    expect(oldPathOf('https://old.example/')).toBeNull();
    expect(oldPathOf('javascript:alert(1)')).toBeNull();
  });

  it("never takes an old address that is one of the site's own screens or server paths", () => {
    for (const address of [
      '/login/',
      'https://old.example/desk',
      '/desk/members',
      '/account',
      '/api/desk/posts',
      '/join',
      '/assets/index-abc123.js',
      '/uploads/a.jpg',
      '/sitemap.xml',
      '/newsletter/unsubscribe',
      '/LOGIN',
      '/%6Cogin',
      '/health',
    ]) {
      expect([address, oldPathOf(address)]).toEqual([address, null]);
      expect(siteOwnAddress(address)).toEqual(expect.any(String));
    }
    expect(siteOwnAddress('/login/')).toBe("/login is one of the site's own screens");
    expect(siteOwnAddress('/api/desk/posts')).toBe(
      "/api is an address the site's server answers itself",
    );
    // An article's old address in a section of the same name is an article's, not a screen.
    expect(oldPathOf('/health/old-post/')).toBe('/health/old-post');
    expect(oldPathOf('/p/login')).toBe('/p/login');
    expect(siteOwnAddress('/?p=12')).toBeNull();
  });
  it('leaves a post imported before the visibilities unchanged when its meaning is, and updates one whose readers are new', async () => {
    const paid = sourcePost({ sourceId: 'p', slug: 'paid', visibility: 'members' });
    const free = sourcePost({ sourceId: 'f', slug: 'free', visibility: 'registered' });
    await write(bundleOf([paid, free]));
    // What an import from before wrote for them: the file said `membersOnly: true` of both (Ghost's
    // `paid` and `members` alike), where `visibility` and `tiers` are now.
    const before = (post: SourcePost) =>
      Object.fromEntries(
        Object.entries(post).flatMap(([key, value]: [string, unknown]) =>
          key === 'tiers' ? [] : key === 'visibility' ? [['membersOnly', true]] : [[key, value]],
        ),
      );
    for (const post of [paid, free]) {
      const digest = createHash('sha256')
        .update(JSON.stringify(before(post)))
        .digest('hex');
      await pool.query(`UPDATE "import_items" SET "digest" = $2 WHERE "sourceId" = $1`, [
        post.sourceId,
        digest,
      ]);
      await pool.query(`UPDATE "posts" SET "visibility" = 'members' WHERE "slug" = $1`, [
        post.slug,
      ]);
    }
    const again = await write(bundleOf([paid, free]));
    expect(again.posts).toMatchObject({ unchanged: 1, updated: 1 });
    const posts = await postsBySlug();
    expect(posts.get('paid')).toMatchObject({ visibility: 'members', version: 1 });
    expect(posts.get('free')).toMatchObject({ visibility: 'registered', version: 2 });
  });
});

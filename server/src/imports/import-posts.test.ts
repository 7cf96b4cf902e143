import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { updatePost } from '../content/post-editing.js';
import { publishDuePosts } from '../content/post-publishing.js';
import { cutAtWord } from '../content/post-summary.js';
import type { SourcePost } from './source.js';
import { FIRST_SECTION, bundleOf, sourcePost, useImportTarget } from '#test/import-posts-target';

// Writing an export's posts and pages into the site (import-posts.ts), on a real PostgreSQL: what
// each becomes, what a second run of the same or a changed file does, what it skips and says why,
// and a dry run. Slugs and placement are import-posts-planning.test.ts's, images
// import-posts-images.test.ts's.

describe('writing imported posts', () => {
  const target = useImportTarget();
  const { write, postsBySlug, snapshot, publication, future } = target;
  let pool: pg.Pool;
  let imageBase: string;
  let uploadsDir: string;
  beforeAll(() => ({ pool, imageBase, uploadsDir } = target));

  it('creates articles and pages with their status, visibility, tags, dates and old addresses', async () => {
    const outcome = await write(publication());
    expect(outcome.posts).toEqual({ created: 3, updated: 0, unchanged: 0, skipped: [] });
    expect(outcome.pages).toEqual({ created: 1, updated: 0, unchanged: 0, skipped: [] });
    expect(outcome).toMatchObject({ drafts: 1, scheduled: 1, topics: 2 });
    // /write, /2013/01/11/write and /?p=1178; the page's /about-us is its own address now.
    expect(outcome.redirects).toBe(3);
    expect(outcome.notes[0]).toBe(
      `3 posts placed in ${FIRST_SECTION}, the first section, as none was chosen`,
    );

    const posts = await postsBySlug();
    const write1 = posts.get('write');
    expect(write1).toMatchObject({
      kind: 'article',
      status: 'published',
      visibility: 'members',
      title: 'How to write',
      publishedAt: new Date('2021-03-04T10:00:00Z'),
      fields: {
        category: FIRST_SECTION,
        summary: 'A short guide to writing.',
        readingMinutes: 1,
        tags: ['Craft', 'Getting started'],
      },
    });
    expect(write1?.body).toBe('The words of post a1, written on the old site.');
    expect(posts.get('unfinished')).toMatchObject({ status: 'draft', publishedAt: null });
    expect(posts.get('coming-soon')).toMatchObject({ status: 'scheduled', publishedAt: future });
    expect(posts.get('about-us')).toMatchObject({
      kind: 'page',
      status: 'published',
      fields: { description: 'The words of post p1, written on the old site.' },
    });
    const { rows: paths } = await pool.query<{ path: string; postId: number }>(
      `SELECT "path", "postId" FROM "post_paths" ORDER BY "path"`,
    );
    expect(paths).toEqual([
      { path: '/2013/01/11/write', postId: write1?.id },
      { path: '/?p=1178', postId: write1?.id },
      { path: '/write', postId: write1?.id },
    ]);
  });

  it('changes nothing when the same file is imported again', async () => {
    await write(publication());
    const before = await snapshot();
    const again = await write(publication());
    expect(again.posts).toEqual({ created: 0, updated: 0, unchanged: 3, skipped: [] });
    expect(again.pages).toEqual({ created: 0, updated: 0, unchanged: 1, skipped: [] });
    expect(again).toMatchObject({ drafts: 0, scheduled: 0, topics: 0, redirects: 0 });
    expect(await snapshot()).toEqual(before);
  });

  it('updates a post the file changed, keeping its earlier version, and never one edited here since', async () => {
    await write(publication());
    const posts = await postsBySlug();
    const draft = posts.get('unfinished');
    if (!draft) throw new Error('the draft was not imported');
    await updatePost(
      pool,
      { userId: randomUUID(), email: 'owner@example.com', role: 'owner' },
      draft.id,
      { version: draft.version, title: 'Retitled here' },
    );
    const changed = publication();
    changed.posts = changed.posts.map((post) => ({ ...post, title: `${post.title} (revised)` }));

    const outcome = await write(changed);
    expect(outcome.posts).toEqual({
      created: 0,
      updated: 2,
      unchanged: 0,
      skipped: [
        { item: 'Post a2 (revised)', reason: 'edited here since the last import; not overwritten' },
      ],
    });
    const after = await postsBySlug();
    expect(after.get('write')).toMatchObject({ title: 'How to write (revised)', version: 2 });
    expect(after.get('unfinished')).toMatchObject({ title: 'Retitled here' });
    const { rows: revisions } = await pool.query(
      `SELECT "version", "snapshot"->>'title' AS title FROM "post_revisions" WHERE "postId" = $1`,
      [after.get('write')?.id],
    );
    expect(revisions).toEqual([{ version: 1, title: 'How to write' }]);
  });

  it('still updates a scheduled post the site made live on time: going live is not an edit', async () => {
    await write(publication());
    await pool.query(
      `UPDATE "posts" SET "publishedAt" = now() - interval '1 minute' WHERE "slug" = 'coming-soon'`,
    );
    expect(await publishDuePosts(pool)).toBe(1);
    const changed = publication();
    changed.posts = changed.posts.map((post) =>
      post.sourceId === 'a3' ? { ...post, title: 'Coming soon, revised' } : post,
    );
    const outcome = await write(changed);
    expect(outcome.posts).toMatchObject({ updated: 1, unchanged: 2, skipped: [] });
    expect((await postsBySlug()).get('coming-soon')?.title).toBe('Coming soon, revised');
  });

  it('keeps each post’s authors as the platform named them, for when the site has authors', async () => {
    await write(
      bundleOf([
        sourcePost({
          sourceId: 'two-hands',
          slug: 'two-hands',
          authors: [
            { name: 'Ann Writer', slug: 'ann' },
            { name: 'Bo Editor', email: 'bo@example.org' },
          ],
        }),
      ]),
    );
    const { rows } = await pool.query<{ authors: unknown }>(
      `SELECT "authors" FROM "import_items" WHERE "kind" = 'post' AND "sourceId" = 'two-hands'`,
    );
    expect(rows).toEqual([
      {
        authors: [
          { name: 'Ann Writer', slug: 'ann' },
          { name: 'Bo Editor', email: 'bo@example.org' },
        ],
      },
    ]);
  });

  it('names a post without a title by its slug rather than losing it', async () => {
    const outcome = await write(
      bundleOf([sourcePost({ sourceId: 'nt', slug: 'edge-case-no-title', title: '' })]),
    );
    expect(outcome.posts.created).toBe(1);
    expect((await postsBySlug()).get('edge-case-no-title')?.title).toBe('Edge case no title');
    expect(outcome.notes).toContain(
      '"edge-case-no-title": had no title; titled "Edge case no title" from its slug',
    );
  });

  it('brings a live post with no text in as a draft, with its title, rather than leaving it out', async () => {
    const outcome = await write(
      bundleOf([
        sourcePost({ sourceId: 'empty', slug: 'no-content', title: 'No Content', html: '' }),
      ]),
    );
    expect(outcome.posts.created).toBe(1);
    expect(outcome.drafts).toBe(1);
    expect((await postsBySlug()).get('no-content')).toMatchObject({
      title: 'No Content',
      status: 'draft',
    });
    expect(outcome.notes).toContain('"No Content": has no text; imported as a draft');
  });

  it('summarises a post without an excerpt by its opening paragraphs, never by members’ text', async () => {
    await write(
      bundleOf([
        sourcePost({
          sourceId: 'open',
          slug: 'open',
          html: '<h2>Headings first</h2><p>The opening words.</p><ul><li>a list</li></ul>',
        }),
        sourcePost({
          sourceId: 'paid-whole',
          slug: 'paid-whole',
          title: 'For members',
          visibility: 'members',
          html: '<p>Only members may read this sentence.</p>',
        }),
        sourcePost({
          sourceId: 'paid-divided',
          slug: 'paid-divided',
          visibility: 'members',
          html: '<p>Everyone reads this.</p><!--members-only--><p>Members read this.</p>',
        }),
      ]),
    );
    const posts = await postsBySlug();
    expect(posts.get('open')?.fields.summary).toBe('The opening words.');
    expect(posts.get('paid-whole')?.fields.summary).toBe('For members');
    expect(posts.get('paid-divided')?.fields.summary).toBe('Everyone reads this.');
  });

  it('keeps two sites’ posts apart when their exports use the same id', async () => {
    const first = await write(
      bundleOf([sourcePost({ sourceId: '1', slug: 'hello-harbour', title: 'Hello harbour' })], {
        siteUrl: 'https://harbour.example.org',
      }),
    );
    const second = await write(
      bundleOf([sourcePost({ sourceId: '1', slug: 'hello-hills', title: 'Hello hills' })], {
        siteUrl: 'https://hills.example.net/',
      }),
    );
    expect([first.posts.created, second.posts.created, second.posts.updated]).toEqual([1, 1, 0]);
    const posts = await postsBySlug();
    expect(posts.get('hello-harbour')?.title).toBe('Hello harbour');
    expect(posts.get('hello-hills')?.title).toBe('Hello hills');
  });

  it('skips a post the site cannot take, saying why, and writes nothing of it', async () => {
    // Longer than a post may be (MAX_BODY_CHARS): the desk's own check refuses it.
    const outcome = await write(
      bundleOf([
        sourcePost({ sourceId: 'long', slug: 'long', html: `<p>${'words '.repeat(40_001)}</p>` }),
      ]),
    );
    expect(outcome.posts.skipped).toEqual([
      { item: 'Post long', reason: 'its text is longer than the site takes (200,000 characters)' },
    ]);
    expect((await pool.query(`SELECT count(*)::int AS n FROM "import_items"`)).rows[0]).toEqual({
      n: 0,
    });
  });

  it('skips a post with a date PostgreSQL cannot keep, and imports the rest', async () => {
    const outcome = await write(
      bundleOf([
        sourcePost({ sourceId: 'far', slug: 'far', publishedAt: new Date(Date.UTC(-10000, 0, 1)) }),
        sourcePost({ sourceId: 'near', slug: 'near' }),
      ]),
    );
    expect(outcome.posts.created).toBe(1);
    expect(outcome.posts.skipped).toEqual([
      { item: 'Post far', reason: expect.stringMatching(/^the database refused it: /) as unknown },
    ]);
  });

  it('writes nothing on a dry run, and reports what it would do', async () => {
    const bundle = publication();
    bundle.posts[0] = {
      ...(bundle.posts[0] as SourcePost),
      html: `<p>Words.</p><p><img src="${imageBase}/photo.png" alt="Photo"></p>`,
    };
    const filesBefore = await readdir(uploadsDir);
    const before = await snapshot();
    const outcome = await write(bundle, { dryRun: true });
    expect(outcome.posts).toEqual({ created: 3, updated: 0, unchanged: 0, skipped: [] });
    expect(outcome.pages.created).toBe(1);
    expect(outcome).toMatchObject({ drafts: 1, scheduled: 1, redirects: 3, topics: 2 });
    expect(outcome.images).toEqual({ stored: 1, notFetched: [] });
    expect(await snapshot()).toEqual(before);
    expect(await readdir(uploadsDir)).toEqual(filesBefore);
  });

  it('cuts a summary at a word', () => {
    expect(cutAtWord('one two three', 200)).toBe('one two three');
    expect(cutAtWord('alpha beta gamma delta', 12)).toBe('alpha beta…');
  });
});

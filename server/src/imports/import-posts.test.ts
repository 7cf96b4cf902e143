import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testConfig } from '#test/test-app';
import { createMigratedTestDatabase, type TestDatabase } from '#test/test-database';
import { articleCategories } from '../../../contract/content-types.js';
import { parseUploadUrl } from '../../../contract/images.js';
import { updatePost } from '../content/post-editing.js';
import { publishDuePosts } from '../content/post-publishing.js';
import { folderStore } from '../uploads/image-store.js';
import { cleanSlug } from './clean-slug.js';
import { refusalOf } from './fetch-image.js';
import { cutAtWord, oldPathOf, writePosts, type PostsDeps } from './import-posts.js';
import type { SourceBundle, SourceFile, SourcePost } from './source.js';

// Writing an export's posts and pages into the site (import-posts.ts), on a real PostgreSQL, with
// images served by a local HTTP server and stored in a folder as the desk's upload stores them.

const [FIRST_SECTION, OTHER_SECTION] = articleCategories as readonly string[] as [string, string];

function sourcePost(overrides: Partial<SourcePost> & { sourceId: string }): SourcePost {
  return {
    type: 'post',
    slug: `post-${overrides.sourceId}`,
    title: `Post ${overrides.sourceId}`,
    html: `<p>The words of post ${overrides.sourceId}, written on the old site.</p>`,
    flavour: 'ghost',
    status: 'published',
    publishedAt: new Date('2021-03-04T10:00:00Z'),
    authors: [{ name: 'Ann Writer' }],
    tags: [],
    membersOnly: false,
    oldPaths: [],
    comments: 0,
    ...overrides,
  };
}

function bundleOf(posts: SourcePost[], extra: Partial<SourceBundle> = {}): SourceBundle {
  return {
    source: 'ghost',
    posts,
    members: [],
    files: new Map(),
    skipped: [],
    attachments: new Map(),
    comments: 0,
    ...extra,
  };
}

describe('writing imported posts', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let uploadsDir: string;
  let images: Server;
  let imageBase: string;
  let png: Buffer;
  let deps: PostsDeps;

  beforeAll(async () => {
    database = await createMigratedTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: database.embedded ? 1 : 4 });
    uploadsDir = await mkdtemp(join(tmpdir(), 'cohort-import-images-'));
    png = await sharp({
      create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 80, b: 20 } },
    })
      .png()
      .toBuffer();
    images = createServer((request, response) => {
      if (request.url === '/photo.png') {
        response.writeHead(200, { 'content-type': 'image/png' }).end(png);
      } else if (request.url === '/moved.png') {
        response.writeHead(302, { location: '/photo.png' }).end();
      } else if (request.url === '/loop.png') {
        response.writeHead(302, { location: '/loop.png' }).end();
      } else if (request.url === '/huge.png') {
        // Sent without a length: refused once the stream passes the limit.
        response.writeHead(200, { 'content-type': 'image/png' });
        response.write(png);
        response.end(Buffer.alloc(1024 * 1024 + 1));
      } else if (request.url === '/declared.png') {
        response.writeHead(200, { 'content-length': String(2 * 1024 * 1024) });
        response.end(Buffer.alloc(2 * 1024 * 1024));
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
    deps = {
      pool,
      imageStore: folderStore(uploadsDir),
      config: testConfig({ UPLOADS_DIR: uploadsDir }),
      allowPrivateAddresses: true,
    };
  });

  afterAll(async () => {
    await new Promise((resolve) => images.close(resolve));
    await pool.end();
    await database.drop();
    await rm(uploadsDir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    await pool.query(
      `TRUNCATE "posts", "post_revisions", "post_paths", "import_items", "images" CASCADE`,
    );
  });

  const write = (
    bundle: SourceBundle,
    options: Parameters<typeof writePosts>[2] = { dryRun: false },
  ) => writePosts(deps, bundle, options);

  async function postsBySlug() {
    const { rows } = await pool.query<{
      id: number;
      kind: string;
      slug: string;
      status: string;
      visibility: string;
      title: string;
      fields: Record<string, unknown>;
      body: string;
      publishedAt: Date | null;
      featureImage: string | null;
      featureImageAlt: string | null;
      version: number;
    }>(`SELECT * FROM "posts" ORDER BY "id"`);
    return new Map(rows.map((row) => [row.slug, row]));
  }

  /** Everything an import writes, to compare before and after. */
  async function snapshot() {
    const tables = ['posts', 'post_revisions', 'post_paths', 'import_items', 'images'];
    const result: Record<string, unknown[]> = {};
    for (const table of tables) {
      result[table] = (await pool.query(`SELECT * FROM "${table}" ORDER BY 1, 2`)).rows;
    }
    return result;
  }

  const future = new Date(Date.now() + 30 * 24 * 3600 * 1000);
  const publication = () =>
    bundleOf([
      sourcePost({
        sourceId: 'a1',
        slug: 'write',
        title: 'How to write',
        excerpt: 'A short guide to writing.',
        tags: ['Craft', 'Getting started'],
        membersOnly: true,
        oldPaths: ['/write/', 'https://old.example/2013/01/11/write/', '/?p=1178'],
        seoTitle: 'Writing, a guide',
      }),
      sourcePost({ sourceId: 'a2', slug: 'unfinished', status: 'draft', publishedAt: undefined }),
      sourcePost({ sourceId: 'a3', slug: 'coming-soon', status: 'scheduled', publishedAt: future }),
      sourcePost({
        sourceId: 'p1',
        type: 'page',
        slug: 'about-us',
        title: 'About us',
        oldPaths: ['/about-us/'],
      }),
    ]);

  it('creates articles and pages with their status, visibility, tags, dates and old addresses', async () => {
    const outcome = await write(publication());
    expect(outcome.posts).toEqual({ created: 3, updated: 0, unchanged: 0, skipped: [] });
    expect(outcome.pages).toEqual({ created: 1, updated: 0, unchanged: 0, skipped: [] });
    expect(outcome).toMatchObject({ drafts: 1, scheduled: 1, topics: 2 });
    // /write, /2013/01/11/write and /?p=1178; the page's /about-us is its own address now.
    expect(outcome.redirects).toBe(3);
    expect(outcome.notes[0]).toBe(
      `3 posts placed in ${FIRST_SECTION}, the first section: no --section was given`,
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
          membersOnly: true,
          html: '<p>Only members may read this sentence.</p>',
        }),
        sourcePost({
          sourceId: 'paid-divided',
          slug: 'paid-divided',
          membersOnly: true,
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

  it('imports a post whose slug has a right-to-left override at the cleaned slug', async () => {
    const outcome = await write(
      bundleOf([sourcePost({ sourceId: 'rtl', slug: '\u202emulti-byte-slug\u202c' })]),
    );
    expect(outcome.posts.created).toBe(1);
    expect([...(await postsBySlug()).keys()]).toEqual(['multi-byte-slug']);
  });

  it('stores images from the web as uploads, links the ones it cannot fetch, and still imports the post', async () => {
    const unreachable = 'http://127.0.0.1:9/gone.png';
    const outcome = await write(
      bundleOf([
        sourcePost({
          sourceId: 'img',
          slug: 'with-images',
          html:
            `<p>Before.</p><figure><img src="${imageBase}/photo.png" alt="A red square"></figure>` +
            `<p><img src="${imageBase}/moved.png" alt="Again"></p>` +
            `<p><img src="${unreachable}" alt="Lost"></p>`,
          featureImage: { url: `${imageBase}/photo.png`, alt: 'Feature' },
        }),
      ]),
    );
    expect(outcome.posts.created).toBe(1);
    // The same bytes twice (a redirect to the same file): one image.
    expect(outcome.images.stored).toBe(1);
    expect(outcome.images.notFetched).toEqual([
      { url: unreachable, reason: 'the connection was refused' },
    ]);
    const post = (await postsBySlug()).get('with-images');
    const upload = post?.featureImage ?? '';
    expect(parseUploadUrl(upload)).toMatchObject({ width: 40, height: 30 });
    expect(post?.featureImageAlt).toBe('Feature');
    expect(post?.body).toContain(`![A red square](${upload})`);
    expect(post?.body).toContain(`![Again](${upload})`);
    expect(post?.body).toContain(`[Lost](${unreachable})`);
    expect((await pool.query(`SELECT count(*)::int AS n FROM "images"`)).rows[0]).toEqual({ n: 1 });
    expect((await readdir(uploadsDir)).some((name) => name.endsWith('.webp'))).toBe(true);
  });

  it('takes an image from the export itself when its path is one of its files', async () => {
    const file: SourceFile = {
      path: 'content/images/a.png',
      size: png.length,
      read: async () => png,
    };
    const outcome = await write(
      bundleOf(
        [
          sourcePost({
            sourceId: 'zip',
            html: '<p>Words.</p><p><img src="__GHOST_URL__/content/images/a.png" alt="Zipped"></p>',
          }),
        ],
        { files: new Map([['/content/images/a.png', file]]) },
      ),
    );
    expect(outcome.images).toEqual({ stored: 1, notFetched: [] });
  });

  it('refuses to fetch from 127.0.0.1 and other private addresses unless a test allows it', async () => {
    const outcome = await writePosts(
      { ...deps, allowPrivateAddresses: false },
      bundleOf([
        sourcePost({
          sourceId: 'ssrf',
          html: `<p>Words.</p><p><img src="${imageBase}/photo.png" alt="Inside"></p>`,
        }),
      ]),
      { dryRun: false },
    );
    expect(outcome.posts.created).toBe(1);
    expect(outcome.images.stored).toBe(0);
    expect(outcome.images.notFetched).toEqual([
      {
        url: `${imageBase}/photo.png`,
        reason: '127.0.0.1 is a private, loopback or otherwise local address: not fetched',
      },
    ]);
    for (const address of [
      '10.1.2.3',
      '100.64.0.1',
      '169.254.169.254',
      '::1',
      'fd00::1',
      '::ffff:192.168.0.1',
      '224.0.0.1',
    ]) {
      expect(refusalOf(address), address).not.toBeNull();
    }
    expect(refusalOf('93.184.216.34')).toBeNull();
  });

  it('refuses a host name that resolves to a loopback address', async () => {
    const url = imageBase.replace('127.0.0.1', 'localhost');
    const outcome = await writePosts(
      { ...deps, allowPrivateAddresses: false },
      bundleOf([
        sourcePost({
          sourceId: 'named',
          html: `<p>Words.</p><p><img src="${url}/photo.png" alt="Inside"></p>`,
        }),
      ]),
      { dryRun: false },
    );
    expect(outcome.images.notFetched).toEqual([
      {
        url: `${url}/photo.png`,
        reason: expect.stringMatching(
          /^(127\.0\.0\.1|::1) is a private, loopback or otherwise local address: not fetched$/,
        ) as unknown,
      },
    ]);
  });

  it('gives up on an image past UPLOAD_MAX_MB or more than three redirects away', async () => {
    const outcome = await writePosts(
      { ...deps, config: testConfig({ UPLOADS_DIR: uploadsDir, UPLOAD_MAX_MB: '1' }) },
      bundleOf([
        sourcePost({
          sourceId: 'limits',
          html: ['huge', 'declared', 'loop']
            .map((name) => `<p><img src="${imageBase}/${name}.png" alt="${name}"></p>`)
            .join(''),
        }),
      ]),
      { dryRun: false },
    );
    expect(outcome.posts.created).toBe(1);
    expect(outcome.images.notFetched).toEqual(
      expect.arrayContaining([
        { url: `${imageBase}/huge.png`, reason: 'larger than 1 MB (UPLOAD_MAX_MB)' },
        { url: `${imageBase}/declared.png`, reason: 'larger than 1 MB (UPLOAD_MAX_MB)' },
        { url: `${imageBase}/loop.png`, reason: 'more than 3 redirects' },
      ]),
    );
    expect(outcome.images.notFetched).toHaveLength(3);
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

  it('cuts a summary at a word', () => {
    expect(cutAtWord('one two three', 200)).toBe('one two three');
    expect(cutAtWord('alpha beta gamma delta', 12)).toBe('alpha beta…');
  });
});

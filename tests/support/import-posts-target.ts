import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { madeLater } from '#test/made-later';
import { testConfig } from '#test/test-app';
import { createMigratedTestDatabase, type TestDatabase } from '#test/test-database';
import { articleCategories } from '../../contract/content-types.js';
import { createMailer } from '../../server/src/mail/mailer.js';
import { folderStore } from '../../server/src/uploads/image-store.js';
import { writePosts } from '../../server/src/imports/import-posts.js';
import type { ImportDeps } from '../../server/src/imports/run-import.js';
import type { PostsDeps } from '../../server/src/imports/post-planning.js';
import type { SourceBundle, SourcePost } from '../../server/src/imports/source.js';

// What the tests of imports share: for writing an export's posts
// (server/src/imports/import-posts*.test.ts), a real PostgreSQL emptied before each test, images
// served by a local HTTP server and stored in a folder as the desk's upload stores them, and the
// posts and exports they write; for a whole import (run-import.ts), what it runs with.

export const [FIRST_SECTION, OTHER_SECTION] = articleCategories as readonly string[] as [
  string,
  string,
];

export function sourcePost(overrides: Partial<SourcePost> & { sourceId: string }): SourcePost {
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
    visibility: 'public',
    tiers: [],
    oldPaths: [],
    comments: 0,
    ...overrides,
  };
}

export function bundleOf(posts: SourcePost[], extra: Partial<SourceBundle> = {}): SourceBundle {
  return {
    source: 'ghost',
    posts,
    tiers: [],
    members: [],
    files: new Map(),
    skipped: [],
    attachments: new Map(),
    comments: 0,
    ...extra,
  };
}

/**
 * Starts the database and the image server before the calling describe's tests, empties what an
 * import writes before each, and stops them after: its pool and dependencies are there once the
 * describe's `beforeAll` hooks run (this one first), its calls at once.
 */
export function useImportTarget() {
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
    // The tiers an export brought (their plans go with them); the first is the site's own.
    await pool.query(`DELETE FROM "tiers" WHERE "id" <> 1`);
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
        visibility: 'members',
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

  return {
    get pool() {
      return pool;
    },
    get imageBase() {
      return imageBase;
    },
    get png() {
      return png;
    },
    get uploadsDir() {
      return uploadsDir;
    },
    get deps() {
      return deps;
    },
    write,
    postsBySlug,
    snapshot,
    future,
    publication,
  };
}

/**
 * What a whole import (run-import.ts) runs with, on a real PostgreSQL of the calling describe's
 * own: its pool, images stored in a folder, no Stripe, mail sent nowhere, no image fetched from
 * the web. Made by this `beforeAll`, ended by its `afterAll`; the pool and the dependencies stand
 * in until then (`madeLater`), so a test file names them at once.
 */
export function useImportDeps(): { pool: pg.Pool; deps: ImportDeps } {
  const [pool, makePool, madePool] = madeLater<pg.Pool>('The import’s pool');
  const [deps, makeDeps] = madeLater<ImportDeps>('The import’s dependencies');
  let database: TestDatabase | undefined;
  let uploadsDir: string | undefined;

  beforeAll(async () => {
    database = await createMigratedTestDatabase();
    const made = makePool(
      new pg.Pool({ connectionString: database.url, max: database.embedded ? 1 : 4 }),
    );
    uploadsDir = await mkdtemp(join(tmpdir(), 'cohort-import-uploads-'));
    const config = testConfig({ UPLOADS_DIR: uploadsDir });
    makeDeps({
      pool: made,
      imageStore: folderStore(uploadsDir),
      config,
      stripe: null,
      mail: createMailer({ smtpUrl: undefined, from: config.mailFrom, log: { info: () => {} } }),
      fetchRemoteImages: false,
    });
  });
  afterAll(async () => {
    await madePool()?.end();
    await database?.drop();
    if (uploadsDir) await rm(uploadsDir, { recursive: true, force: true });
  });

  return { pool, deps };
}

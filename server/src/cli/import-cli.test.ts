import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '#test/run-command';
import { createMigratedTestDatabase, type TestDatabase } from '#test/test-database';
import type { ImportReport } from '../imports/source.js';
import { main } from './import.js';

// `npm run import -- <source> <path> …`, through the `main` scripts/cli.mjs runs, on a real
// PostgreSQL (the real exports are run in server/src/imports/run-import.test.ts).

/** A small Ghost export of this test's own: a post with a tag and an old address, and a page. */
const ghostExport = {
  db: [
    {
      meta: { exported_on: 1_700_000_000_000, version: '4.1.0' },
      data: {
        posts: [
          {
            id: 'g1',
            uuid: '5b6b2a49-0000-4000-8000-000000000001',
            title: 'Hello from Ghost',
            slug: 'hello',
            html: '<p>Hello, readers. This post came from Ghost.</p>',
            status: 'published',
            type: 'post',
            visibility: 'paid',
            published_at: '2021-01-02T03:04:05.000Z',
            created_at: '2021-01-01T00:00:00.000Z',
            updated_at: '2021-01-02T03:04:05.000Z',
          },
          {
            id: 'g2',
            uuid: '5b6b2a49-0000-4000-8000-000000000002',
            title: 'About this blog',
            slug: 'about-this-blog',
            html: '<p>Who we are.</p>',
            status: 'published',
            type: 'page',
            visibility: 'public',
            published_at: '2021-01-02T03:04:05.000Z',
            created_at: '2021-01-01T00:00:00.000Z',
            updated_at: '2021-01-02T03:04:05.000Z',
          },
        ],
        tags: [{ id: 't1', name: 'News', slug: 'news' }],
        posts_tags: [{ id: 'pt1', post_id: 'g1', tag_id: 't1', sort_order: 0 }],
        users: [],
        posts_authors: [],
      },
    },
  ],
};

/** Every member of ImportReport (server/src/imports/source.ts). */
const REPORT_KEYS = [
  'comments',
  'drafts',
  'dryRun',
  'images',
  'members',
  'notes',
  'pages',
  'posts',
  'redirects',
  'scheduled',
  'seconds',
  'source',
  'topics',
  'unmappedPrices',
];

describe('the import command', () => {
  let database: TestDatabase;
  let scratch: string;
  let exportFile: string;

  beforeAll(async () => {
    database = await createMigratedTestDatabase();
    scratch = await mkdtemp(join(tmpdir(), 'cohort-import-cli-'));
    exportFile = join(scratch, 'ghost.json');
    await writeFile(exportFile, JSON.stringify(ghostExport));
  });
  afterAll(async () => {
    await database.drop();
    await rm(scratch, { recursive: true, force: true });
  });

  const run = (...args: string[]) =>
    runCommand(main, args, { DATABASE_URL: database.url, UPLOADS_DIR: join(scratch, 'uploads') });

  async function query<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query<T>(text)).rows;
    } finally {
      await client.end();
    }
  }

  it('answers a wrong command with its usage and status 2', async () => {
    const none = await run();
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^usage:\n\s+import <source> <path>/);
    const unknown = await run('blogger', exportFile);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^"blogger" is not a source: one of ghost, wordpress/);
    const option = await run('ghost', exportFile, '--everything');
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/^--everything is not an option of import/);
    const map = await run('ghost', exportFile, '--map', 'news');
    expect(map.code).toBe(2);
    const section = await run('ghost', exportFile, '--section', 'Gardening');
    expect(section.code).toBe(2);
    expect(section.stderr).toMatch(/there is no section "Gardening"/);
    expect(await query(`SELECT 1 FROM "posts"`)).toEqual([]);
  });

  it('imports nothing from a file that is not an export, says why, and ends with status 1', async () => {
    const bad = join(scratch, 'bad.json');
    await writeFile(bad, '{"db": [');
    const result = await run('ghost', bad);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Nothing was imported from .*bad\.json: /);
    expect(await query(`SELECT 1 FROM "posts"`)).toEqual([]);
  });

  it('prints only the report with --json, every field of it, and writes nothing on a dry run', async () => {
    const result = await run('ghost', exportFile, '--json', '--dry-run');
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as ImportReport;
    expect(Object.keys(report).sort()).toEqual(REPORT_KEYS);
    expect(report).toMatchObject({
      source: 'ghost',
      dryRun: true,
      posts: { created: 1, updated: 0, unchanged: 0, skipped: [] },
      pages: { created: 1, updated: 0, unchanged: 0, skipped: [] },
      members: { created: 0, updated: 0, unchanged: 0, skipped: [] },
      topics: 1,
      images: { stored: 0, notFetched: [] },
      unmappedPrices: [],
      comments: { imported: 0, skipped: 0 },
    });
    expect(await query(`SELECT 1 FROM "posts"`)).toEqual([]);
  });

  it('imports the export, ends with a summary, and changes nothing when run again', async () => {
    const first = await run('ghost', exportFile);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('posts: 1 created, 0 updated, 0 unchanged, 0 skipped');
    expect(first.stdout).toContain('pages: 1 created, 0 updated, 0 unchanged, 0 skipped');
    const posts = await query<{ slug: string; visibility: string; fields: { tags?: string[] } }>(
      `SELECT "slug", "visibility", "fields" FROM "posts" ORDER BY "slug"`,
    );
    expect(posts.map((post) => [post.slug, post.visibility])).toEqual([
      ['about-this-blog', 'public'],
      ['hello', 'members'],
    ]);
    expect(posts[1]?.fields.tags).toEqual(['News']);
    const again = await run('ghost', exportFile, '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({
      posts: { created: 0, updated: 0, unchanged: 1 },
      pages: { created: 0, updated: 0, unchanged: 1 },
    });
  });
});

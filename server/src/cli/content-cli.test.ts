import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentFile, writeContentFolder } from '#test/content-folder';
import { buildMember } from '#test/factories';
import { runCommand } from '#test/run-command';
import { createMigratedTestDatabase, type TestDatabase } from '#test/test-database';
import { withSite, type Site as RunningSite } from '#test/with-site';
import { parseUploadUrl, uploadFileNames } from '../../../contract/images.js';
import { contentDir } from '../paths.js';
import { main } from './content.js';

// `npm run content:import` and `npm run content:export`, through the `main` scripts/cli.mjs runs.

/** A site as the commands reach it: its database and the folder of its uploaded images. */
interface Site {
  database: TestDatabase;
  uploadsDir: string;
}

describe('the content commands', () => {
  const databases: TestDatabase[] = [];
  let scratch: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'cohort-export-'));
  });
  afterAll(async () => {
    await Promise.all(databases.map((database) => database.drop()));
    await rm(scratch, { recursive: true, force: true });
  });

  async function newDatabase() {
    const database = await createMigratedTestDatabase();
    databases.push(database);
    return database;
  }

  /** The command on a site's database and its image folder (by default, one of no site's). */
  async function run(site: TestDatabase | Site, ...args: string[]) {
    const { database, uploadsDir } =
      'database' in site ? site : { database: site, uploadsDir: join(scratch, 'no-images') };
    return runCommand(main, args, { DATABASE_URL: database.url, UPLOADS_DIR: uploadsDir });
  }

  /** Every file of a folder, by its path inside it, with its text. */
  async function filesOf(dir: string): Promise<Record<string, string>> {
    const names = (await readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
      .sort();
    return Object.fromEntries(
      await Promise.all(names.map(async (name) => [name, await readFile(join(dir, name), 'utf8')])),
    );
  }

  /** Every post of a database as the desk's JSON would show it, without what a save stamps. */
  async function postsOf(database: TestDatabase) {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT id, kind, slug, title, status, visibility, fields, body, "publishedAt"
          FROM posts ORDER BY id`,
      );
      return rows;
    } finally {
      await client.end();
    }
  }

  it('gives the same posts after import → export → import, file for file', async (context) => {
    const first = await newDatabase();
    if (first.embedded) context.skip('the embedded test database serves one backend');
    const imported = await run(first, 'import', contentDir);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/^.*: \d+ posts created, 0 posts updated\.$/m);

    const exportA = join(scratch, 'a');
    expect((await run(first, 'export', exportA)).code).toBe(0);
    const second = await newDatabase();
    expect((await run(second, 'import', exportA)).code).toBe(0);
    const exportB = join(scratch, 'b');
    expect((await run(second, 'export', exportB)).code).toBe(0);

    const filesA = await filesOf(exportA);
    expect(Object.keys(filesA).length).toBeGreaterThan(40);
    expect(await filesOf(exportB)).toEqual(filesA);
    expect(await postsOf(second)).toEqual(await postsOf(first));
    // Every shipped article is there, with its id, in the export.
    expect(filesA['articles/sleep-debt-reset.md']).toMatch(/^---\nid: 1\nslug: sleep-debt-reset\n/);

    // Importing the export again updates each post in place: nothing new, nothing lost.
    const again = await run(second, 'import', exportA);
    expect(again.stdout).toMatch(
      /: 0 posts created, \d+ posts updated \(each earlier version kept as a revision\)\./,
    );
    expect((await postsOf(second)).length).toBe((await postsOf(first)).length);
  });

  it('imports nothing from a folder with one wrong file, and names each problem on one line', async (context) => {
    const database = await newDatabase();
    if (database.embedded) context.skip('the embedded test database serves one backend');
    const folder = await writeContentFolder({
      'articles/good-one.md': contentFile(
        {
          slug: 'good-one',
          category: 'Health',
          title: 'Good',
          summary: 'Fine.',
          publishedAt: '2026-11-01',
          readingMinutes: 2,
        },
        'A fine body.',
      ),
      'articles/bad-one.md': contentFile(
        {
          slug: 'bad-one',
          category: ' ',
          title: 'Bad',
          summary: 'Wrong.',
          publishedAt: 'soon',
          readingMinutes: 2,
        },
        'A body.',
      ),
    });
    try {
      const refused = await run(database, 'import', folder.dir);
      expect(refused.code).toBe(1);
      expect(refused.stderr).not.toMatch(/\bat \w+ \(/); // no stack trace
      const lines = refused.stderr.trim().split('\n');
      expect(lines[0]).toBe(`Nothing was imported from ${folder.dir}:`);
      expect(lines).toContainEqual(
        expect.stringMatching(/articles\/bad-one\.md: category: must not be empty$/),
      );
      expect(lines).toContainEqual(
        expect.stringMatching(/articles\/bad-one\.md: publishedAt: must be an ISO date/),
      );
      expect(await postsOf(database)).toEqual([]);

      expect((await run(database, 'import')).code).toBe(2);
      expect((await run(database, 'import', join(scratch, 'missing'))).stderr).toMatch(
        /is not a folder/,
      );
    } finally {
      await folder.remove();
    }
  });

  it('keeps a members-only post for members through export and import into a new site, with its images', async (context) => {
    const OWNER = 'owner@example.com';
    const SITE = 'https://restored.example.org';
    // Words that appear in the members' part and nowhere else.
    const SECRET = 'The greenhouse quorum tallies every seed packet';
    const uploadsA = await mkdtemp(join(tmpdir(), 'cohort-images-a-'));
    const uploadsB = await mkdtemp(join(tmpdir(), 'cohort-images-b-'));
    let first: RunningSite | undefined;
    let restored: RunningSite | undefined;
    try {
      first = await withSite({ env: { STAFF_EMAILS: OWNER, UPLOADS_DIR: uploadsA } });
      if (first.testDatabase.embedded) {
        context.skip('the embedded test database serves one backend');
      }
      const site = first;
      const { cookie } = await buildMember(site, { email: OWNER });
      const desk = async (url: string, payload: object) => {
        const response = await site.app.inject({
          method: 'POST',
          url,
          headers: { cookie },
          payload,
        });
        expect(response.statusCode, response.body).toBeLessThan(300);
        return response.json();
      };
      const upload = async (background: { r: number; g: number; b: number }) => {
        const png = await sharp({ create: { width: 640, height: 400, channels: 3, background } })
          .png()
          .toBuffer();
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'photo.png');
        const { image } = await desk('/api/desk/uploads', form);
        return image.url as string;
      };
      const cover = await upload({ r: 200, g: 90, b: 40 });
      const chart = await upload({ r: 30, g: 120, b: 200 });

      const { post } = await desk('/api/desk/posts', {
        kind: 'article',
        slug: 'members-ledger',
        title: 'The Members’ Ledger',
        category: 'Wealth',
        summary: 'How the allotment keeps its books.',
        readingMinutes: 4,
        tags: ['Money'],
        visibility: 'members',
        featureImage: cover,
        featureImageAlt: 'A rust-red card',
        seoTitle: 'The ledger, for members',
        seoDescription: 'How the books are kept, line by line.',
        body: `Everyone reads this opening, and [the plan](/health){target="_blank"}.\n\n<!-- members-only -->\n\n${SECRET}.\n\n![A blue chart](${chart} "The year in one chart")\n`,
      });
      await desk(`/api/desk/posts/${post.id}/publish`, { version: post.version });
      // A post scheduled for a time of day, not midnight: it must not go live earlier.
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      const later = await desk('/api/desk/posts', {
        kind: 'article',
        slug: 'coming-later',
        title: 'Coming Later',
        category: 'Health',
        summary: 'Out tomorrow morning.',
        readingMinutes: 2,
        body: 'Not yet.',
      });
      await desk(`/api/desk/posts/${later.post.id}/publish`, {
        version: later.post.version,
        at: `${tomorrow}T09:30:00.000Z`,
      });

      const folder = join(scratch, 'members');
      const exported = await run(
        { database: site.testDatabase, uploadsDir: uploadsA },
        'export',
        folder,
      );
      expect(exported.code, exported.stderr).toBe(0);
      const database = await newDatabase();
      const imported = await run({ database, uploadsDir: uploadsB }, 'import', folder);
      expect(imported.code, imported.stderr).toBe(0);

      restored = await withSite({
        sharedDatabase: database,
        built: true,
        env: { SITE_URL: SITE, UPLOADS_DIR: uploadsB },
      });
      const app = restored.app;
      const get = (url: string) => app.inject({ method: 'GET', url });

      // A visitor reads the opening and is asked to join: the rest is nowhere public.
      const page = await get('/wealth/members-ledger');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Everyone reads this opening, and ');
      // A link's choice of tab went through the file too (content/FORMAT.md).
      expect(page.body).toContain(
        '<a href="/health" target="_blank" rel="noopener noreferrer">the plan',
      );
      expect(page.body).toContain('The rest is for members');
      expect(page.body).not.toContain(SECRET);
      const locs = [...(await get('/sitemap.xml')).body.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
        (match) => (match[1] ?? '').replace(SITE, '') || '/',
      );
      expect(locs).toContain('/wealth/members-ledger');
      const urls = [
        ...locs.flatMap((path) => [path, `/api/site-data?path=${encodeURIComponent(path)}`]),
        '/rss.xml',
        '/wealth/rss.xml',
        '/topics/money/rss.xml',
        '/sitemap.xml',
        '/api/search?q=greenhouse%20quorum%20seed',
        '/search?q=greenhouse%20quorum%20seed',
      ];
      for (const url of urls) {
        expect((await get(url)).body, url).not.toContain(SECRET);
      }
      expect((await get('/api/search?q=greenhouse%20quorum')).json().results).toEqual([]);

      // Everything the post is came back as it was, the schedule to the minute (a body as a
      // file holds it: without blank lines around it).
      const columns = `kind, slug, status, visibility, title, fields, btrim(body, E' \\n') AS body,
        "publishedAt", "featureImage", "featureImageAlt", "seoTitle", "seoDescription"`;
      const postsIn = async (db: TestDatabase) => {
        const client = new pg.Client({ connectionString: db.url });
        await client.connect();
        try {
          return (await client.query(`SELECT ${columns} FROM posts ORDER BY slug`)).rows;
        } finally {
          await client.end();
        }
      };
      expect(await postsIn(database)).toEqual(await postsIn(site.testDatabase));
      expect((await get('/health/coming-later')).statusCode).toBe(404);

      // Its images answer from the new site, every size and format, byte for byte.
      expect(page.body).toContain(cover);
      for (const url of [cover, chart]) {
        const image = parseUploadUrl(url);
        if (!image) throw new Error(`not an upload: ${url}`);
        for (const name of uploadFileNames(image)) {
          const there = await get(`/uploads/${name}`);
          expect(there.statusCode, name).toBe(200);
          const here = await site.app.inject({ method: 'GET', url: `/uploads/${name}` });
          expect(there.rawPayload.equals(here.rawPayload), name).toBe(true);
        }
      }
    } finally {
      await restored?.close();
      await first?.close();
      await rm(uploadsA, { recursive: true, force: true });
      await rm(uploadsB, { recursive: true, force: true });
    }
    // Two apps, and two images stored in every size: about 13 s on a busy two-core machine.
  }, 60_000);

  it('refuses a file that would make a members-only post public, unless told --allow-public', async (context) => {
    const database = await newDatabase();
    if (database.embedded) context.skip('the embedded test database serves one backend');
    const body = 'Everyone reads this opening.\n\n<!-- members-only -->\n\nThe members’ part.';
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const article = {
      slug: 'members-ledger',
      category: 'Wealth',
      title: 'The Members’ Ledger',
      summary: 'How the allotment keeps its books.',
      publishedAt: '2026-11-01',
      readingMinutes: 4,
    };
    const state = async () =>
      (
        await client.query(
          `SELECT slug, visibility, version,
            (SELECT count(*)::int FROM post_revisions r WHERE r."postId" = p.id) AS revisions
            FROM posts p ORDER BY slug`,
        )
      ).rows;
    // A members-only post, as the desk leaves it.
    await client.query(
      `INSERT INTO posts (id, kind, slug, title, visibility, fields, body, "publishedAt", status, "updatedAt")
        VALUES (40, 'article', $1, $2, 'members', $3, $4, '2026-11-01', 'published', now())`,
      [
        article.slug,
        article.title,
        { category: 'Wealth', summary: article.summary, readingMinutes: 4 },
        body,
      ],
    );
    const folder = await writeContentFolder({
      // The post, from an export that wrote no visibility: it would be public.
      'articles/members-ledger.md': contentFile({ id: 40, ...article }, body),
      // A new post whose file has the divider but does not say it is for members.
      'articles/older-export.md': contentFile({ ...article, slug: 'older-export' }, body),
    });
    const saidSo = await writeContentFolder({
      'articles/said-so.md': contentFile({ ...article, slug: 'said-so', membersOnly: true }, body),
    });
    try {
      const before = await state();
      const refused = await run(database, 'import', folder.dir);
      expect(refused.code, refused.stdout).toBe(1);
      const lines = refused.stderr.trim().split('\n');
      expect(lines[0]).toBe(`Nothing was imported from ${folder.dir}:`);
      expect(lines).toContainEqual(
        expect.stringMatching(
          /articles\/members-ledger\.md: membersOnly: post 40 is for members on this site.*--allow-public/,
        ),
      );
      expect(lines).toContainEqual(
        expect.stringMatching(
          /articles\/older-export\.md: membersOnly: .*members-only divider.*--allow-public/,
        ),
      );
      expect(await state()).toEqual(before);

      const allowed = await run(database, 'import', folder.dir, '--allow-public');
      expect(allowed.code, allowed.stderr).toBe(0);
      // A file that says it is for members needs no flag.
      const members = await run(database, 'import', saidSo.dir);
      expect(members.code, members.stderr).toBe(0);
      expect(await state()).toEqual([
        { slug: 'members-ledger', visibility: 'public', version: 2, revisions: 1 },
        { slug: 'older-export', visibility: 'public', version: 1, revisions: 0 },
        { slug: 'said-so', visibility: 'members', version: 1, revisions: 0 },
      ]);
    } finally {
      await client.end();
      await folder.remove();
      await saidSo.remove();
    }
  }, 60_000);
});

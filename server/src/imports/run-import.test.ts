import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useImportDeps } from '#test/import-posts-target';
import { MIGRATION_SAMPLES } from '#test/migration-samples';
import { runImport, type ImportProgress } from './run-import.js';
import { ImportFileError, type ImportCounts } from './source.js';
import { writeZip } from './test-zip.js';

// A whole import (run-import.ts): the reader, the posts, the report, on a real PostgreSQL. The
// real exports in ../shared/migration-samples are read when they are there (they sit beside the
// repository, never in it: the WordPress ones are GPL); their images are not fetched from the web.

/** Beside the repository (CI puts them there), never in it. */
const SAMPLES = MIGRATION_SAMPLES;

/** A Ghost 5 export of these posts, as text. */
const ghostExport = (posts: Record<string, unknown>[]) =>
  JSON.stringify({
    db: [{ meta: { exported_on: 1_700_000_000_000, version: '5.0.0' }, data: { posts } }],
  });

const ghostPost = (slug: string, title: string, text: string) => ({
  id: slug,
  title,
  slug,
  html: `<p>${text}</p>`,
  status: 'published',
  type: 'post',
  visibility: 'public',
  published_at: '2022-05-06T07:08:09.000Z',
});

const accounted = (counts: ImportCounts) =>
  counts.created + counts.updated + counts.unchanged + counts.skipped.length;

describe('a whole import', () => {
  const { pool, deps } = useImportDeps();
  let scratch: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'cohort-run-import-'));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await pool.query(
      `TRUNCATE "posts", "post_revisions", "post_paths", "import_items", "images" CASCADE`,
    );
    // The tiers an export brought (their plans go with them); the first is the site's own.
    await pool.query(`DELETE FROM "tiers" WHERE "id" <> 1`);
  });

  /** Everything a posts import writes, to compare before and after. */
  async function snapshot() {
    const result: Record<string, unknown[]> = {};
    for (const table of ['posts', 'post_revisions', 'post_paths', 'import_items']) {
      result[table] = (await pool.query(`SELECT * FROM "${table}" ORDER BY 1, 2`)).rows;
    }
    return result;
  }

  it('writes nothing from a file that cannot be imported', async () => {
    const bad = join(scratch, 'bad.json');
    await writeFile(bad, '{"db": [{"meta": {}, "data": {"posts": [');
    await expect(runImport({ source: 'ghost', path: bad }, deps)).rejects.toBeInstanceOf(
      ImportFileError,
    );
    expect((await pool.query(`SELECT count(*)::int AS n FROM "posts"`)).rows[0]).toEqual({ n: 0 });
  });

  it('refuses a Ghost zip whose JSON unpacks to more than the limit, naming both, and writes nothing', async () => {
    const zip = join(scratch, 'large-json.zip');
    const json = ghostExport([ghostPost('big', 'Big', 'x'.repeat(5000))]);
    await writeZip(zip, [{ name: 'site.ghost.json', data: json }]);
    await expect(runImport({ source: 'ghost', path: zip, maxBytes: 4096 }, deps)).rejects.toThrow(
      /^"site\.ghost\.json" in the export is 5\.\d KiB; the largest accepted is 4\.0 KiB$/,
    );
    expect((await pool.query(`SELECT count(*)::int AS n FROM "posts"`)).rows[0]).toEqual({ n: 0 });
  });

  it('keeps no old address that is one of the site’s screens, and says why in the report', async () => {
    const file = join(scratch, 'screens.json');
    await writeFile(
      file,
      ghostExport([
        ghostPost('login', 'Login help', 'How to sign in.'),
        ghostPost('desk', 'Our desk', 'Where we write.'),
        ghostPost('api', 'The API', 'For developers.'),
        ghostPost('write', 'Write', 'Plain.'),
      ]),
    );
    const report = await runImport({ source: 'ghost', path: file }, deps);
    expect(report.posts.created).toBe(4);
    const { rows } = await pool.query(`SELECT "path" FROM "post_paths" ORDER BY "path"`);
    expect(rows).toEqual([{ path: '/write' }]);
    expect(report.redirects).toBe(1);
    expect(report.notes).toEqual(
      expect.arrayContaining([
        '"Login help": old address /login/ not kept: /login is one of the site\'s own screens',
        '"Our desk": old address /desk/ not kept: /desk is one of the site\'s own screens',
        '"The API": old address /api/ not kept: /api is an address the site\'s server answers itself',
      ]),
    );
  });

  it("imports each Substack audience to its readers here, the founding members' to a founding tier, and one it does not know for paying members, reported", async () => {
    const folder = join(scratch, 'substack-audiences');
    await mkdir(join(folder, 'posts'), { recursive: true });
    const posts = [
      ['1.subscribers', 'only_free', 'For subscribers'],
      ['2.paid', 'only_paid', 'For payers'],
      ['3.all', 'everyone', 'For all'],
      ['4.founders', 'founding', 'For founders'],
      ['5.patrons', 'patrons_only', 'For patrons'],
    ];
    await writeFile(
      join(folder, 'posts.csv'),
      'post_id,post_date,is_published,type,audience,title\n' +
        posts
          .map(
            ([id, audience, title], day) =>
              `${id},2024-01-0${day + 1}T00:00:00.000Z,true,newsletter,${audience},${title}`,
          )
          .join('\n'),
    );
    for (const [name] of posts) {
      await writeFile(join(folder, 'posts', `${name}.html`), `<p>The words of ${name}.</p>`);
    }
    const report = await runImport({ source: 'substack', path: folder }, deps);
    expect(report.posts.created).toBe(5);
    const { rows } = await pool.query(
      `SELECT p."slug", p."visibility", ARRAY(SELECT t."slug" FROM "tiers" t
          WHERE t."id" = ANY(p."tierIds")) AS "tiers"
         FROM "posts" p ORDER BY p."slug"`,
    );
    expect(rows).toEqual([
      { slug: 'all', visibility: 'public', tiers: [] },
      { slug: 'founders', visibility: 'tiers', tiers: ['founding'] },
      { slug: 'paid', visibility: 'members', tiers: [] },
      { slug: 'patrons', visibility: 'members', tiers: [] },
      { slug: 'subscribers', visibility: 'registered', tiers: [] },
    ]);
    const { rows: tiers } = await pool.query(
      `SELECT t."slug", t."name", t."visible",
              array_agg(p."enabled" ORDER BY p."id") AS "sold"
         FROM "tiers" t JOIN "plans" p ON p."tierId" = t."id"
        WHERE t."slug" = 'founding' GROUP BY t."id"`,
    );
    // posts.csv gives no prices: the tier is there for its posts, hidden and not sold until priced.
    expect(tiers).toEqual([
      { slug: 'founding', name: 'Founding member', visible: false, sold: [false, false, false] },
    ]);
    expect(report.notes).toContain(
      '"For patrons": for paying members here, failing closed: its Substack audience "patrons_only" is not one Cohort knows',
    );
    expect(report.notes).toContain(
      'tier "Founding member" (founding) made from the export: not sold, and hidden, until you price it in the desk',
    );
    expect(report.notes.filter((note) => note.includes('audience'))).toHaveLength(1);
  });

  it('reports its progress by phase: reading, images, posts', async () => {
    const file = join(scratch, 'one-post.json');
    await writeFile(
      file,
      JSON.stringify({
        db: [
          {
            meta: { exported_on: 1_700_000_000_000, version: '5.0.0' },
            data: {
              posts: [
                {
                  id: 'one',
                  title: 'One post',
                  slug: 'one-post',
                  html: '<p>Just the one.</p>',
                  status: 'published',
                  type: 'post',
                  visibility: 'public',
                  published_at: '2022-05-06T07:08:09.000Z',
                },
              ],
            },
          },
        ],
      }),
    );
    const seen: ImportProgress[] = [];
    const report = await runImport({ source: 'ghost', path: file }, deps, (step) =>
      seen.push(step),
    );
    expect(report.posts.created).toBe(1);
    expect([...new Set(seen.map((step) => step.phase))]).toEqual(['reading', 'images', 'posts']);
    expect(seen.at(-1)).toEqual({ phase: 'posts', done: 1, total: 1 });
  });

  it('takes the Ghost v4 sample’s 7 posts and 4 pages, the paid post for members, /write redirecting, and changes nothing the second time', async (context) => {
    const sample = join(SAMPLES, 'ghost/v4_export.json');
    if (!existsSync(sample))
      context.skip(`${sample} is not here (the samples sit beside the repository)`);
    const report = await runImport({ source: 'ghost', path: sample }, deps);
    expect(accounted(report.posts)).toBe(7);
    expect(accounted(report.pages)).toBe(4);
    expect(report.posts.created).toBe(7);
    const { rows } = await pool.query<{ slug: string; visibility: string }>(
      `SELECT "slug", "visibility" FROM "posts" WHERE "kind" = 'article' AND "visibility" = 'members'`,
    );
    expect(rows).toEqual([{ slug: 'sell', visibility: 'members' }]);
    const { rows: redirect } = await pool.query(
      `SELECT p."slug" FROM "post_paths" o JOIN "posts" p ON p."id" = o."postId" WHERE o."path" = '/write'`,
    );
    expect(redirect).toEqual([{ slug: 'write' }]);
    expect(report.topics).toBeGreaterThan(0);

    const before = await snapshot();
    const again = await runImport({ source: 'ghost', path: sample }, deps);
    expect(again.posts).toMatchObject({ created: 0, updated: 0, unchanged: 7 });
    expect(await snapshot()).toEqual(before);
  });

  it('takes the WordPress theme unit test: the draft a draft, the future post scheduled, old permalinks and ?p= redirecting', async (context) => {
    const sample = join(SAMPLES, 'wordpress/theme-unit-test-data.xml');
    if (!existsSync(sample))
      context.skip(`${sample} is not here (the samples sit beside the repository)`);
    const report = await runImport({ source: 'wordpress', path: sample }, deps);
    expect(report.posts.created).toBeGreaterThan(50);
    expect(report.pages.created).toBeGreaterThan(15);
    // The draft, and the two posts with no text (which come in as drafts).
    expect(report).toMatchObject({
      drafts: 3,
      scheduled: 1,
      comments: { imported: 26, skipped: 7 },
    });
    const { rows: statuses } = await pool.query<{ slug: string; status: string }>(
      `SELECT "slug", "status" FROM "posts" WHERE "status" <> 'published' ORDER BY "slug"`,
    );
    expect(statuses).toEqual([
      { slug: 'draft', status: 'draft' },
      { slug: 'edge-case-no-content', status: 'draft' },
      // "Επίπεδο 3", a page with no text: its slug spelt in Latin letters.
      { slug: 'epipedo-3', status: 'draft' },
      { slug: 'scheduled', status: 'scheduled' },
    ]);
    const { rows: paths } = await pool.query<{ path: string; slug: string }>(
      `SELECT o."path", p."slug" FROM "post_paths" o JOIN "posts" p ON p."id" = o."postId"
        WHERE o."path" IN ('/2013/01/11/markup-html-tags-and-formatting', '/?p=1178')
        ORDER BY o."path"`,
    );
    expect(paths).toEqual([
      {
        path: '/2013/01/11/markup-html-tags-and-formatting',
        slug: 'markup-html-tags-and-formatting',
      },
      { path: '/?p=1178', slug: 'markup-html-tags-and-formatting' },
    ]);

    const before = await snapshot();
    const again = await runImport({ source: 'wordpress', path: sample }, deps);
    expect(again.posts.created + again.posts.updated).toBe(0);
    expect(again.pages.created + again.pages.updated).toBe(0);
    expect(await snapshot()).toEqual(before);
  });

  it('cleans the right-to-left override out of the UTF-8 challenge’s slug', async (context) => {
    const sample = join(SAMPLES, 'wordpress/wxr-utf-8-challenges.xml');
    if (!existsSync(sample))
      context.skip(`${sample} is not here (the samples sit beside the repository)`);
    const report = await runImport({ source: 'wordpress', path: sample }, deps);
    expect(report.posts.created).toBe(1);
    const { rows } = await pool.query(`SELECT "slug" FROM "posts"`);
    expect(rows).toEqual([{ slug: 'hello-world-utf8-test' }]);
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useImportDeps } from '#test/import-posts-target';
import { runImport } from './run-import.js';

// Who may read what an import brings (contract/reading.ts), through a whole import on a real
// PostgreSQL: each platform's words mapped to the site's visibilities, the tiers an export sells
// made before the posts that name them, and what the importer does not know for paying members,
// with a line in the report.

const fixtures = fileURLToPath(new URL('../../../tests/fixtures/imports/ghost/', import.meta.url));

describe('who may read imported posts', () => {
  const { pool, deps } = useImportDeps();
  let scratch: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'cohort-import-readers-'));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await pool.query(`TRUNCATE "posts", "post_revisions", "post_paths", "import_items" CASCADE`);
    await pool.query(`DELETE FROM "tiers" WHERE "id" <> 1`);
  });

  /** Each post's slug, visibility and tiers' slugs. */
  const readers = async () =>
    (
      await pool.query<{ slug: string; visibility: string; tiers: string[] }>(
        `SELECT p."slug", p."visibility",
                ARRAY(SELECT t."slug" FROM "tiers" t WHERE t."id" = ANY(p."tierIds")
                      ORDER BY t."position") AS "tiers"
           FROM "posts" p ORDER BY p."slug"`,
      )
    ).rows;

  /** Each tier an import made, with its words, place and plans (enabled, price), in order. */
  const tiers = async () =>
    (
      await pool.query(
        `SELECT t."slug", t."name", t."description", t."benefits", t."visible", t."position",
                json_object_agg(p."id", json_build_array(p."enabled", p."amountCents", p."currency"))
                  AS "plans"
           FROM "tiers" t JOIN "plans" p ON p."tierId" = t."id"
          WHERE t."id" <> 1 GROUP BY t."id" ORDER BY t."position"`,
      )
    ).rows;

  it("imports the Ghost 4 sample's paid post for paying members and the rest for everyone", async () => {
    const report = await runImport(
      { source: 'ghost', path: join(fixtures, 'v4_export.json') },
      deps,
    );
    expect(report.posts.created).toBe(7);
    const restricted = (await readers()).filter((post) => post.visibility !== 'public');
    expect(restricted).toEqual([{ slug: 'sell', visibility: 'members', tiers: [] }]);
  });

  it("makes a Ghost export's tiers with their words, benefits and prices, before the posts for them", async () => {
    const report = await runImport(
      { source: 'ghost', path: join(fixtures, 'ghost-5-tiers.json') },
      deps,
    );
    expect(report.posts.created).toBe(7);
    expect(await readers()).toEqual([
      { slug: 'founders-letter', visibility: 'tiers', tiers: ['founder'] },
      { slug: 'free-and-founders', visibility: 'tiers', tiers: ['founder'] },
      // Ghost's free tier alone: every signed-in reader, as Ghost's `members` is.
      { slug: 'free-tier-only', visibility: 'registered', tiers: [] },
      { slug: 'insider-notes', visibility: 'tiers', tiers: ['founder', 'insider'] },
      { slug: 'open-letter', visibility: 'public', tiers: [] },
      { slug: 'paid-essay', visibility: 'members', tiers: [] },
      { slug: 'welcome-members', visibility: 'registered', tiers: [] },
    ]);
    // The site's own first tier stands as it was; the plans nobody priced are not sold, at the
    // first tier's price (the test site has no plans yet: the least price a plan may have).
    const [founder, insider, old] = await tiers();
    expect(founder).toEqual({
      slug: 'founder',
      name: 'Founder',
      description: 'For those who were here first',
      benefits: ['A monthly call with the editors', 'Your name in the credits'],
      visible: true,
      position: 1,
      plans: {
        'early-access': [false, 50, 'usd'],
        monthly: [true, 1500, 'usd'],
        yearly: [true, 15000, 'usd'],
      },
    });
    expect(insider).toMatchObject({
      slug: 'insider',
      benefits: ['Every draft as it is written'],
      visible: true,
      position: 2,
      plans: { monthly: [true, 500, 'usd'], yearly: [true, 5000, 'usd'] },
    });
    // Archived on Ghost: made, for its members, and hidden.
    expect(old).toMatchObject({
      slug: 'old-supporters',
      visible: false,
      plans: { monthly: [true, 300, 'usd'], yearly: [true, 3000, 'usd'] },
    });
    expect(report.notes).toEqual(
      expect.arrayContaining([
        'tier "Founder" (founder) made from the export: $15 a month, $150 a year',
        'tier "Insider" (insider) made from the export: $5 a month, $50 a year',
        '"Free and founders": for the tiers founder here: Ghost also let its free members read it (make it "registered" in the desk if every signed-in reader may)',
      ]),
    );

    // Again: the tiers are the site's now, and nothing changes.
    const before = { readers: await readers(), tiers: await tiers() };
    const again = await runImport(
      { source: 'ghost', path: join(fixtures, 'ghost-5-tiers.json') },
      deps,
    );
    expect(again.posts).toMatchObject({ created: 0, updated: 0, unchanged: 7 });
    expect(again.notes.filter((note) => note.startsWith('tier '))).toEqual([]);
    expect({ readers: await readers(), tiers: await tiers() }).toEqual(before);
  });

  it('makes no tier and no post in a dry run, and says what it would make', async () => {
    const report = await runImport(
      { source: 'ghost', path: join(fixtures, 'ghost-5-tiers.json'), dryRun: true },
      deps,
    );
    expect(report.posts.created).toBe(7);
    expect(report.notes).toContain(
      'tier "Founder" (founder) made from the export: $15 a month, $150 a year',
    );
    expect(await readers()).toEqual([]);
    expect(await tiers()).toEqual([]);
  });

  it("gives a tier's posts to the site's own tier of that slug, and leaves that tier as it is", async () => {
    await pool.query(
      `INSERT INTO "tiers" ("slug", "name", "description", "position", "updatedAt")
       VALUES ('founder', 'Founding circle', 'Ours', 1, now())`,
    );
    const report = await runImport(
      { source: 'ghost', path: join(fixtures, 'ghost-5-tiers.json') },
      deps,
    );
    expect(report.notes.filter((note) => note.includes('(founder)'))).toEqual([]);
    const { rows } = await pool.query(
      `SELECT "name", "description" FROM "tiers" WHERE "slug" = 'founder'`,
    );
    expect(rows).toEqual([{ name: 'Founding circle', description: 'Ours' }]);
    expect((await readers()).find((post) => post.slug === 'founders-letter')).toEqual({
      slug: 'founders-letter',
      visibility: 'tiers',
      tiers: ['founder'],
    });
  });

  it('imports a post for paying members when its tiers cannot be made here, and says so', async () => {
    // Eleven more tiers: the site has the most it may.
    await pool.query(
      `INSERT INTO "tiers" ("slug", "name", "position", "updatedAt")
       SELECT 'tier-' || n, 'Tier ' || n, n, now() FROM generate_series(1, 11) AS n`,
    );
    const report = await runImport(
      { source: 'ghost', path: join(fixtures, 'ghost-5-tiers.json') },
      deps,
    );
    expect((await readers()).find((post) => post.slug === 'founders-letter')).toEqual({
      slug: 'founders-letter',
      visibility: 'members',
      tiers: [],
    });
    expect(report.notes).toEqual(
      expect.arrayContaining([
        'tier "Founder" not made: a site has at most 12 tiers, so its posts are for every paying member',
        '"A letter to founders": for paying members here, failing closed: none of its tiers (founder) is on the site',
      ]),
    );
  });

  it('does not sell a tier priced in another currency than the site’s, nor at a price it does not take', async () => {
    const file = join(scratch, 'euro-tiers.json');
    await writeFile(
      file,
      JSON.stringify({
        db: [
          {
            meta: { version: '5.0.0' },
            data: {
              posts: [],
              products: [
                {
                  id: 'e1',
                  name: 'Euro',
                  slug: 'euro',
                  type: 'paid',
                  active: true,
                  visibility: 'public',
                  currency: 'eur',
                  monthly_price: 500,
                  yearly_price: 5000,
                },
                {
                  id: 'e2',
                  name: 'Pennies',
                  slug: 'pennies',
                  type: 'paid',
                  active: true,
                  visibility: 'public',
                  currency: 'usd',
                  monthly_price: 10,
                  yearly_price: 2000,
                },
              ],
            },
          },
        ],
      }),
    );
    const report = await runImport({ source: 'ghost', path: file }, deps);
    const [euro, pennies] = await tiers();
    expect(euro).toMatchObject({
      slug: 'euro',
      visible: false,
      plans: { monthly: [false, 50, 'usd'], yearly: [false, 50, 'usd'] },
    });
    expect(pennies).toMatchObject({
      slug: 'pennies',
      visible: true,
      plans: { monthly: [false, 50, 'usd'], yearly: [true, 2000, 'usd'] },
    });
    expect(report.notes).toEqual(
      expect.arrayContaining([
        'tier "Euro": its prices are in EUR and the site sells in USD, so it is not sold until priced in the desk',
        'tier "Pennies": its monthly price $0.10 is not one the site takes ($0.50 to $10,000), so that plan is not sold',
      ]),
    );
  });
});

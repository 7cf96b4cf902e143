import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { contentFile, writeContentFolder } from '#test/content-folder';
import { runCommand } from '#test/run-command';
import { createMigratedTestDatabase, type TestDatabase } from '#test/test-database';
import { main } from '../cli/content.js';

// Who may read a post, through `npm run content:export` and `content:import` (post-files.ts,
// post-import.ts): a file says `membersOnly` for a public or members' post, as files always did,
// and `visibility` (with `tiers`) for the others; an import takes either, refuses a tier the site
// does not have, and never lets more readers in than a post has without --allow-public.

const BODY = 'Everyone reads this opening.\n\n<!-- members-only -->\n\nThe rest, for its readers.';

const ARTICLE = {
  category: 'Wealth',
  summary: 'How the allotment keeps its books.',
  publishedAt: '2026-11-01',
  readingMinutes: 4,
};

describe('who may read a post, in content files', () => {
  const databases: TestDatabase[] = [];
  const clients: pg.Client[] = [];
  let scratch: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'cohort-readers-files-'));
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end()));
    await Promise.all(databases.map((database) => database.drop()));
    await rm(scratch, { recursive: true, force: true });
  });

  /** A fresh site's database, with a client on it, and (`founder`) the tier `founder` as id 2. */
  async function newSite(options: { founder: boolean }) {
    const database = await createMigratedTestDatabase();
    databases.push(database);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    clients.push(client);
    if (options.founder) {
      await client.query(
        `INSERT INTO "tiers" ("id", "slug", "name", "position", "updatedAt")
         VALUES (2, 'founder', 'Founder', 1, now())`,
      );
    }
    return { database, client };
  }

  const run = (database: TestDatabase, ...args: string[]) =>
    runCommand(main, args, { DATABASE_URL: database.url, UPLOADS_DIR: join(scratch, 'images') });

  async function insertPost(
    client: pg.Client,
    post: { id: number; slug: string; visibility: string; tierIds?: number[] },
  ) {
    await client.query(
      `INSERT INTO "posts" ("id", "kind", "slug", "title", "visibility", "tierIds", "fields",
                            "body", "publishedAt", "status", "updatedAt")
       VALUES ($1, 'article', $2, $3, $4, $5, $6, $7, '2026-11-01', 'published', now())`,
      [
        post.id,
        post.slug,
        `Notes ${post.id}`,
        post.visibility,
        post.tierIds ?? [],
        { category: ARTICLE.category, summary: ARTICLE.summary, readingMinutes: 4 },
        BODY,
      ],
    );
  }

  const readersOf = async (client: pg.Client) =>
    (
      await client.query<{ slug: string; visibility: string; tiers: string[]; version: number }>(
        `SELECT p."slug", p."visibility", p."version",
                ARRAY(SELECT t."slug" FROM "tiers" t WHERE t."id" = ANY(p."tierIds")) AS "tiers"
           FROM "posts" p ORDER BY p."id"`,
      )
    ).rows;

  /**
   * A site with the founder tier (id 2) and post `id`, "founders-notes", for its members; the
   * test is skipped on the embedded database, which serves one backend.
   */
  async function siteWithFoundersPost(context: TestContext, id: number) {
    const site = await newSite({ founder: true });
    if (site.database.embedded) context.skip('the embedded test database serves one backend');
    await insertPost(site.client, {
      id,
      slug: 'founders-notes',
      visibility: 'tiers',
      tierIds: [2],
    });
    return site;
  }

  it('exports a tier’s post as visibility: tiers with its tiers, and imports it back for that tier', async (context) => {
    const from = await siteWithFoundersPost(context, 50);
    await insertPost(from.client, { id: 51, slug: 'signed-in-notes', visibility: 'registered' });
    await insertPost(from.client, { id: 52, slug: 'members-notes', visibility: 'members' });
    await insertPost(from.client, { id: 53, slug: 'open-notes', visibility: 'public' });
    const folder = join(scratch, 'export');
    const exported = await run(from.database, 'export', folder);
    expect(exported.code, exported.stderr).toBe(0);
    const file = (slug: string) => readFile(join(folder, 'articles', `${slug}.md`), 'utf8');
    expect(await file('founders-notes')).toContain('\nvisibility: tiers\ntiers:\n  - founder\n');
    expect(await file('signed-in-notes')).toContain('\nvisibility: registered\n');
    expect(await file('signed-in-notes')).not.toContain('membersOnly');
    expect(await file('members-notes')).toContain('\nmembersOnly: true\n');
    expect(await file('open-notes')).toContain('\nmembersOnly: false\n');

    // A site without the tier: the file names one it does not have, and nothing is imported.
    const bare = await newSite({ founder: false });
    const refused = await run(bare.database, 'import', folder);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'articles/founders-notes.md: tiers: this site has no "founder" tier (its tiers are supporter)',
    );
    expect(await readersOf(bare.client)).toEqual([]);

    const to = await newSite({ founder: true });
    const imported = await run(to.database, 'import', folder);
    expect(imported.code, imported.stderr).toBe(0);
    expect(await readersOf(to.client)).toEqual(await readersOf(from.client));
    expect((await readersOf(to.client))[0]).toMatchObject({
      slug: 'founders-notes',
      visibility: 'tiers',
      tiers: ['founder'],
    });
  });

  it('refuses a file that lets more readers into a post than it has, unless told --allow-public; one that lets fewer needs no flag', async (context) => {
    const site = await siteWithFoundersPost(context, 60);
    await insertPost(site.client, { id: 61, slug: 'members-notes', visibility: 'members' });
    const wider = await writeContentFolder({
      // For every paying member: more than the founders it is for.
      'articles/founders-notes.md': contentFile(
        { id: 60, slug: 'founders-notes', title: 'Notes 60', ...ARTICLE, membersOnly: true },
        BODY,
      ),
    });
    const narrower = await writeContentFolder({
      'articles/members-notes.md': contentFile(
        {
          id: 61,
          slug: 'members-notes',
          title: 'Notes 61',
          ...ARTICLE,
          visibility: 'tiers',
          tiers: ['founder'],
        },
        BODY,
      ),
    });
    try {
      const before = await readersOf(site.client);
      const refused = await run(site.database, 'import', wider.dir);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        'articles/founders-notes.md: membersOnly: post 60 is for members of founder on this site, ' +
          'and this file would let members read it: add `visibility: tiers` with `tiers: [founder]` ' +
          'to keep it as it is, or import with --allow-public to open it to them',
      );
      expect(await readersOf(site.client)).toEqual(before);

      const allowed = await run(site.database, 'import', wider.dir, '--allow-public');
      expect(allowed.code, allowed.stderr).toBe(0);
      const narrowed = await run(site.database, 'import', narrower.dir);
      expect(narrowed.code, narrowed.stderr).toBe(0);
      expect(await readersOf(site.client)).toEqual([
        { slug: 'founders-notes', visibility: 'members', tiers: [], version: 2 },
        { slug: 'members-notes', visibility: 'tiers', tiers: ['founder'], version: 2 },
      ]);
    } finally {
      await wider.remove();
      await narrower.remove();
    }
  });

  it('refuses a file whose readers do not hold together, even with --allow-public', async (context) => {
    const site = await newSite({ founder: true });
    if (site.database.embedded) context.skip('the embedded test database serves one backend');
    const folder = await writeContentFolder({
      'articles/both.md': contentFile(
        { slug: 'both', title: 'Both', ...ARTICLE, membersOnly: true, visibility: 'registered' },
        BODY,
      ),
      'articles/no-tiers.md': contentFile(
        { slug: 'no-tiers', title: 'No tiers', ...ARTICLE, visibility: 'tiers' },
        BODY,
      ),
      'articles/stray-tiers.md': contentFile(
        { slug: 'stray-tiers', title: 'Stray', ...ARTICLE, tiers: ['founder'] },
        BODY,
      ),
    });
    try {
      const refused = await run(site.database, 'import', folder.dir, '--allow-public');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        'articles/both.md: membersOnly: true says members, and visibility says registered: keep one of them',
      );
      expect(refused.stderr).toContain(
        'articles/no-tiers.md: tiers: must name the tiers whose members may read it (visibility: tiers)',
      );
      expect(refused.stderr).toContain(
        'articles/stray-tiers.md: tiers: a post names tiers only with visibility: tiers (this one says public)',
      );
      expect(await readersOf(site.client)).toEqual([]);
    } finally {
      await folder.remove();
    }
  });
});

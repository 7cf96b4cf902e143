import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentFile, writeContentFolder } from '#test/content-folder';
import { createMigratedTestDatabase, type TestDatabase } from '#test/test-database';
import { contentDir, projectRoot } from '../paths.js';

/** `npm run content:import` and `npm run content:export`, run as an operator runs them. */
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

  async function run(database: TestDatabase, ...args: string[]) {
    try {
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        [join(projectRoot, 'scripts/cli.mjs'), 'content', ...args],
        {
          cwd: projectRoot,
          encoding: 'utf8',
          env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.url },
        },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
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
    if (first.embedded) context.skip('the embedded test database serves this process only');
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
    // Five runs of the real command, each a Node process of its own: about 28 s on a busy
    // two-core machine, too close to the default 30 s.
  }, 90_000);

  it('imports nothing from a folder with one wrong file, and names each problem on one line', async (context) => {
    const database = await newDatabase();
    if (database.embedded) context.skip('the embedded test database serves this process only');
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
          category: 'Fitness',
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
        expect.stringMatching(/articles\/bad-one\.md: category: must be one of Health, Wealth$/),
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
    // Runs of the real command, each a Node process of its own: about 14 s on a quiet machine.
  }, 60_000);
});

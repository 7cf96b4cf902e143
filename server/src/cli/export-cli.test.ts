import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPost, buildStaff } from '#test/factories';
import { runCommand } from '#test/run-command';
import { withSite, type Site } from '#test/with-site';
import { main } from './export.js';

// `npm run export -- ghost <file>`, through the `main` scripts/cli.mjs runs, on a site's database.

const SITE = 'https://leaving.example.org';
const OWNER = 'owner@example.com';

describe('the export command', () => {
  let t: Site;
  let scratch: string;
  const run = (...args: string[]) =>
    runCommand(main, args, {
      DATABASE_URL: t.testDatabase.url,
      SITE_URL: SITE,
      STAFF_EMAILS: OWNER,
    });

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'cohort-export-command-'));
    t = await withSite({ env: { SITE_URL: SITE, STAFF_EMAILS: OWNER } });
    await buildStaff(t, 'owner');
    await buildPost(t, {
      status: 'draft',
      slug: 'tenants-organise',
      title: 'Tenants Organise the Block',
      category: 'Wealth',
      summary: 'How forty households wrote one letter.',
      readingMinutes: 3,
      body: 'Forty flats wrote one letter.\n',
    });
  });
  afterAll(async () => {
    await t?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('writes the site as a Ghost export to the file and says what it holds', async () => {
    const file = join(scratch, 'site.json');
    const result = await run('ghost', file);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `${file}: 1 post, 0 pages and 1 member written as a Ghost export`,
    );
    const exported = JSON.parse(await readFile(file, 'utf8'));
    expect(exported.db[0].meta.version).toBe('5.x');
    expect(exported.db[0].data.posts).toEqual([
      expect.objectContaining({
        slug: 'tenants-organise',
        status: 'draft',
        html: '<p>Forty flats wrote one letter.</p>',
      }),
    ]);
    expect(exported.db[0].data.users).toEqual([expect.objectContaining({ email: OWNER })]);
    expect(existsSync(`${file}.partial`)).toBe(false);
  });

  it('refuses a wrong command (2) and a folder that does not exist (1), writing nothing', async () => {
    expect((await run('wordpress', join(scratch, 'a.xml'))).code).toBe(2);
    expect((await run('ghost')).code).toBe(2);
    const missing = await run('ghost', join(scratch, 'no-such-folder', 'site.json'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('is not a folder');
  });
});

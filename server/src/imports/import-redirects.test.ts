import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildStaff, type Member } from '#test/factories';
import { useSite } from '#test/with-site';
import type { DeskImport } from '../../../contract/desk-api.js';
import { zipBytes } from './test-zip.js';

// A Ghost export zip that carries the publisher's redirects (content/data/redirects.yaml, where
// Ghost keeps them) brings them in through the desk's Import page: held to the Redirects page's
// rules, added after the site's own, audited as the importing owner's, said in the report, and
// followed. An invalid file is said in the report and the rest of the import goes on.

const EXPORT = readFileSync(
  new URL('../../../tests/fixtures/imports/ghost/desk-upload.json', import.meta.url),
);
const REDIRECTS = `301:
  /2019/05/tenants-organise/: /tenants-organise-the-block/
  ^/tag/([a-z-]+)/?$: /topics/$1
302:
  /donate/: /join
`;

describe('redirects that come with a Ghost import', () => {
  const t = useSite({ built: true, listen: true, env: { STAFF_EMAILS: 'owner@example.com' } });
  let owner: Member;
  beforeAll(async () => {
    [owner] = await buildStaff(t, 'owner');
  });

  async function importZip(files: { name: string; data: string | Buffer }[]) {
    const form = new FormData();
    form.append('source', 'ghost');
    const zip = zipBytes(files);
    form.append('file', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), 'ghost.zip');
    const started = await fetch(`${t.url}/api/desk/imports`, {
      method: 'POST',
      headers: { cookie: owner.cookie },
      body: form,
    });
    expect(started.status, await started.clone().text()).toBe(202);
    const { import: job } = (await started.json()) as { import: { id: string } };
    const deadline = Date.now() + 60_000;
    for (;;) {
      const answer = await fetch(`${t.url}/api/desk/imports/${job.id}`, {
        headers: { cookie: owner.cookie },
      });
      const { import: now } = (await answer.json()) as { import: DeskImport };
      if (now.status === 'done' || now.status === 'failed') return now;
      if (Date.now() > deadline) throw new Error(`import still ${now.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const redirectAudits = async () =>
    (
      await t.database.pool.query<{ actorEmail: string; after: { redirects: unknown[] } }>(
        `SELECT "actorEmail", after FROM audit_log WHERE action = 'redirects_change' ORDER BY id`,
      )
    ).rows;

  it('imports the export’s redirects.yaml beside its posts, reported, audited and followed', async () => {
    const job = await importZip([
      { name: 'ghost-export/site.ghost.2025-03-20.json', data: EXPORT },
      { name: 'ghost-export/content/data/redirects.yaml', data: REDIRECTS },
    ]);
    expect(job.status, job.error ?? '').toBe('done');
    expect(job.report?.posts.created).toBe(2);
    expect(job.report?.notes).toContain(
      "ghost-export/content/data/redirects.yaml: 3 redirects added to the site's",
    );

    const moved = await fetch(`${t.url}/2019/05/tenants-organise/`, { redirect: 'manual' });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/tenants-organise-the-block/');
    const tag = await fetch(`${t.url}/tag/rent/`, { redirect: 'manual' });
    expect(tag.status).toBe(301);
    expect(tag.headers.get('location')).toBe('/topics/rent');
    const donate = await fetch(`${t.url}/donate`, { redirect: 'manual' });
    expect(donate.status).toBe(302);

    // The file as the export had it, since the site had none of its own.
    const stored = await t.database.pool.query(`SELECT "format", "file" FROM "custom_redirects"`);
    expect(stored.rows).toEqual([{ format: 'yaml', file: REDIRECTS }]);
    const audits = await redirectAudits();
    expect(audits).toHaveLength(1);
    expect(audits[0]?.actorEmail).toBe('owner@example.com');
    expect(audits[0]?.after.redirects).toHaveLength(3);
  });

  it('adds nothing the second time the same export comes in', async () => {
    const job = await importZip([
      { name: 'site.ghost.json', data: EXPORT },
      { name: 'content/data/redirects.yaml', data: REDIRECTS },
    ]);
    expect(job.status, job.error ?? '').toBe('done');
    expect(job.report?.notes).toContain(
      "content/data/redirects.yaml: 0 redirects added to the site's (3 already there)",
    );
    expect(await redirectAudits()).toHaveLength(1);
  });

  it('reports a redirects file it cannot take, and imports the rest all the same', async () => {
    const before = await t.database.pool.query(`SELECT "file" FROM "custom_redirects"`);
    const job = await importZip([
      { name: 'site.ghost.json', data: EXPORT },
      {
        name: 'redirects.json',
        data: JSON.stringify([
          { from: '/new-one/', to: '/fine', permanent: true },
          { from: '/away/', to: '//evil.example', permanent: true },
        ]),
      },
    ]);
    expect(job.status, job.error ?? '').toBe('done');
    expect(job.report?.posts.unchanged).toBe(2);
    expect(job.report?.notes).toContainEqual(
      expect.stringMatching(
        /^redirects\.json: not imported, redirect 2: `to` \/\/evil\.example is neither a path/,
      ),
    );
    expect((await t.database.pool.query(`SELECT "file" FROM "custom_redirects"`)).rows).toEqual(
      before.rows,
    );
    expect((await fetch(`${t.url}/new-one`, { redirect: 'manual' })).status).toBe(404);
  });
});

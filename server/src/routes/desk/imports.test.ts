import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember, buildStaff, type Member } from '#test/factories';
import { withSite, type Site } from '#test/with-site';
import type { DeskImport } from '../../../../contract/desk-api.js';
import { INTERRUPTED_MESSAGE, STALE_AFTER_MS } from '../../imports/import-jobs.js';

// The desk's imports through the real app on a real port (multipart as a browser sends it): who
// may import, what is refused and when (before the file is read, or as it streams), one import at
// a time, the import run in the background to its report, and an import a stopped server left
// behind marked failed.

const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';
const WRITER = 'writer@example.com';
const FIXTURE = readFileSync(
  new URL('../../../../tests/fixtures/imports/ghost/desk-upload.json', import.meta.url),
);

describe('the desk’s imports', () => {
  let t: Site;
  let base: string;
  let owner: Member;
  let editor: Member;
  let writer: Member;
  let reader: Member;
  /** The uploads' temporary folders go here while this file runs, to be counted. */
  let temporary: string;
  let tmpBefore: string | undefined;

  const upload = (
    who: Member | null,
    fields: Record<string, string>,
    file: { bytes: Buffer; name: string } | null = { bytes: FIXTURE, name: 'export.json' },
  ) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    if (file) {
      form.append(
        'file',
        new Blob([new Uint8Array(file.bytes)], { type: 'application/json' }),
        file.name,
      );
    }
    return fetch(`${base}/api/desk/imports`, {
      method: 'POST',
      headers: who ? { cookie: who.cookie } : {},
      body: form,
    });
  };
  const get = (who: Member | null, path: string) =>
    fetch(`${base}${path}`, { headers: who ? { cookie: who.cookie } : {} });
  const importsRunning = async () =>
    Number(
      (await t.database.pool.query(`SELECT count(*) FROM imports WHERE status = 'running'`)).rows[0]
        .count,
    );
  const uploadFolders = async () =>
    (await readdir(temporary)).filter((name) => name.startsWith('cohort-import-'));

  /** Polls an import until it is over, as the Import page does. */
  async function finished(id: string): Promise<DeskImport> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const response = await get(owner, `/api/desk/imports/${id}`);
      expect(response.status).toBe(200);
      const { import: job } = (await response.json()) as { import: DeskImport };
      if (job.status === 'done' || job.status === 'failed') return job;
      if (Date.now() > deadline) throw new Error(`import ${id} still ${job.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  beforeAll(async () => {
    temporary = await mkdtemp(join(tmpdir(), 'cohort-imports-test-'));
    // os.tmpdir() reads TMPDIR each time: the route's folders land here, where they are counted.
    tmpBefore = process.env.TMPDIR;
    process.env.TMPDIR = temporary;
    t = await withSite({
      env: {
        STAFF_EMAILS: OWNER,
        EDITOR_EMAILS: EDITOR,
        WRITER_EMAILS: WRITER,
        IMPORT_MAX_MB: '1',
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    base = `http://127.0.0.1:${address.port}`;
    [owner, editor, writer] = await buildStaff(t, 'owner', 'editor', 'writer');
    reader = await buildMember(t);
  });
  afterAll(async () => {
    if (tmpBefore === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpBefore;
    await t?.close();
    if (temporary) await rm(temporary, { recursive: true, force: true });
  });

  it('imports an owner’s Ghost export in the background: 202, its progress, then done with a report, the posts and members written, the upload deleted and an audit entry', async () => {
    const response = await upload(owner, { source: 'ghost', section: 'Wealth' });
    expect(response.status, await response.clone().text()).toBe(202);
    const { import: started } = (await response.json()) as { import: { id: string } };
    expect(started.id).toMatch(/^[0-9a-f-]{36}$/);

    const job = await finished(started.id);
    expect(job, job.error ?? '').toMatchObject({
      status: 'done',
      source: 'ghost',
      section: 'Wealth',
      fileName: 'export.json',
      error: null,
    });
    expect(job.finishedAt).not.toBeNull();
    // Its last progress, with when it was said (the heartbeat).
    expect(job.progress).toMatchObject({ phase: expect.any(String), at: expect.any(String) });
    expect(job.report).toMatchObject({
      source: 'ghost',
      dryRun: false,
      posts: { created: 2 },
      pages: { created: 1 },
      members: { created: 1 },
    });
    // The notes the command line prints reach the desk too: where the posts were placed.
    expect(job.report?.notes).toContainEqual(expect.stringMatching(/^2 posts placed in /));

    const posts = await t.database.pool.query<{ slug: string; kind: string }>(
      `SELECT slug, kind FROM posts WHERE slug IN ('tenants-organise-the-block', 'the-rent-ledger-explained') ORDER BY slug`,
    );
    expect(posts.rows).toEqual([
      { slug: 'tenants-organise-the-block', kind: 'article' },
      { slug: 'the-rent-ledger-explained', kind: 'article' },
    ]);
    const member = await t.database.pool.query(`SELECT name FROM users WHERE email = $1`, [
      'neighbour@elmcourt.example',
    ]);
    expect(member.rows).toEqual([{ name: 'Sam Neighbour' }]);
    expect(await uploadFolders()).toEqual([]);

    const audit = await t.database.pool.query<{
      action: string;
      actorEmail: string;
      after: Record<string, unknown>;
    }>(`SELECT action, "actorEmail", after FROM audit_log WHERE action = 'import'`);
    expect(audit.rows).toEqual([
      expect.objectContaining({
        action: 'import',
        actorEmail: OWNER,
        after: expect.objectContaining({
          import: started.id,
          posts: expect.objectContaining({ created: 2 }),
          members: expect.objectContaining({ created: 1 }),
        }),
      }),
    ]);

    const list = await get(owner, '/api/desk/imports');
    expect(list.status).toBe(200);
    const { imports } = (await list.json()) as { imports: DeskImport[] };
    expect(imports[0]).toMatchObject({ id: started.id, status: 'done' });
  });

  it('keeps imports and the export from editors and writers (403) and from everyone else (404)', async () => {
    for (const [who, status] of [
      [editor, 403],
      [writer, 403],
      [reader, 404],
      [null, 404],
    ] as const) {
      const posted = await upload(who, { source: 'ghost' });
      expect(posted.status, `${who?.email ?? 'visitor'} POST`).toBe(status);
      expect((await get(who, '/api/desk/imports')).status).toBe(status);
      expect((await get(who, `/api/desk/imports/${randomUUID()}`)).status).toBe(status);
      expect((await get(who, '/api/desk/exports/ghost')).status).toBe(status);
    }
    expect(await importsRunning()).toBe(0);
    expect(await uploadFolders()).toEqual([]);
  });

  it('offers the sections the owner keeps in the desk: a section added there takes an import', async () => {
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/desk/sections',
      headers: { cookie: owner.cookie },
      payload: { name: 'Culture', slug: 'culture', inMenu: true },
    });
    expect(added.statusCode, added.body).toBe(201);
    const response = await upload(owner, { source: 'ghost', section: 'culture' });
    expect(response.status, await response.clone().text()).toBe(202);
    const { import: started } = (await response.json()) as { import: { id: string } };
    const job = await finished(started.id);
    expect(job, job.error ?? '').toMatchObject({ status: 'done', section: 'Culture' });
  });

  it('answers 400 with a message for a missing or unknown source, an unknown section, a missing or empty file', async () => {
    const cases = [
      [{}, undefined, /Choose what the file comes from/],
      [{ source: 'blogger' }, undefined, /Choose what the file comes from: ghost, wordpress/],
      [{ source: 'ghost', section: 'Sport' }, undefined, /no section "Sport"/],
      [{ source: 'ghost' }, null, /Choose the file to import/],
      [{ source: 'ghost' }, { bytes: Buffer.alloc(0), name: 'empty.json' }, /The file is empty/],
    ] as const;
    for (const [fields, file, message] of cases) {
      const response = await upload(owner, fields, file === undefined ? undefined : file);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.message).toMatch(message);
    }
    expect(await importsRunning()).toBe(0);
    expect(await uploadFolders()).toEqual([]);
  });

  it('refuses a file over IMPORT_MAX_MB with 413: by its Content-Length before reading it, and sent without one, once the stream passes the limit', async () => {
    // Headers alone, saying 600 MB: the answer comes before a byte of the body is sent.
    const declared = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(`${base}/api/desk/imports`, {
        method: 'POST',
        headers: {
          cookie: owner.cookie,
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(600 * 1024 * 1024),
        },
      });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, body });
          request.destroy();
        });
      });
      request.on('error', reject);
      request.flushHeaders();
    });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toMatchObject({
      error: { code: 'file_too_large', message: expect.stringContaining('1 MB') },
    });

    // Chunked, with no Content-Length: the reader stops at the limit.
    const form = new FormData();
    form.append('source', 'ghost');
    form.append('file', new Blob([new Uint8Array(3 * 1024 * 1024)]), 'big.json');
    const encoded = new Response(form);
    const streamed = await fetch(`${base}/api/desk/imports`, {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': encoded.headers.get('content-type') ?? '' },
      body: encoded.body,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toMatchObject({ error: { code: 'file_too_large' } });
    expect(await importsRunning()).toBe(0);
    expect(await uploadFolders()).toEqual([]);
  });

  it('refuses a second import with 409 while one runs (here, on another app server), and takes one again when it is over', async () => {
    const other = randomUUID();
    await t.database.pool.query(
      `INSERT INTO imports (id, source, "fileName", status, progress)
       VALUES ($1, 'wordpress', 'site.xml', 'running', jsonb_build_object('phase', 'posts', 'at', now()))`,
      [other],
    );
    const refused = await upload(owner, { source: 'ghost' });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      error: { code: 'import_running', message: expect.stringContaining('site.xml') },
    });
    expect(await uploadFolders()).toEqual([]);

    await t.database.pool.query(`UPDATE imports SET status = 'done' WHERE id = $1`, [other]);
    const accepted = await upload(owner, { source: 'ghost' });
    expect(accepted.status).toBe(202);
    const { import: job } = (await accepted.json()) as { import: { id: string } };
    // The same file again: nothing new (an import is safe to run twice).
    expect((await finished(job.id)).report).toMatchObject({
      posts: { created: 0, unchanged: 2 },
      members: { created: 0 },
    });
  });

  it('fails an import whose file cannot be imported, saying why in the reader’s words, and writes nothing', async () => {
    const posts = async () =>
      Number((await t.database.pool.query('SELECT count(*) FROM posts')).rows[0].count);
    const before = await posts();
    const response = await upload(
      owner,
      { source: 'ghost' },
      {
        bytes: Buffer.from('{"db": [{"meta": {"version": "5.0.0"}, "data": {"posts": [{'),
        name: 'cut.json',
      },
    );
    expect(response.status).toBe(202);
    const { import: started } = (await response.json()) as { import: { id: string } };
    const job = await finished(started.id);
    expect(job).toMatchObject({ status: 'failed', report: null });
    expect(job.error).toEqual(expect.any(String));
    expect(job.error).not.toMatch(/logged/);
    expect(await posts()).toBe(before);
    expect(await uploadFolders()).toEqual([]);
    const audit = await t.database.pool.query<{ after: { error: string } }>(
      `SELECT after FROM audit_log WHERE action = 'import' AND after->>'import' = $1`,
      [started.id],
    );
    expect(audit.rows).toEqual([{ after: expect.objectContaining({ error: job.error }) }]);
  });

  it('answers 404 for an import that does not exist', async () => {
    for (const id of [randomUUID(), 'not-an-id']) {
      const response = await get(owner, `/api/desk/imports/${id}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
    }
  });

  it('marks failed, when an app starts, an import left running by a server that stopped, and leaves one another server is still running', async () => {
    const stopped = randomUUID();
    const alive = randomUUID();
    const old = new Date(Date.now() - STALE_AFTER_MS - 5_000).toISOString();
    await t.database.pool.query(
      `INSERT INTO imports (id, source, "fileName", status, progress, "createdAt") VALUES
         ($1, 'ghost', 'old.json', 'running', jsonb_build_object('phase', 'posts', 'at', $3::text), $3::timestamptz),
         ($2, 'ghost', 'live.json', 'running', jsonb_build_object('phase', 'posts', 'at', now()), now())`,
      [stopped, alive, old],
    );
    // A second app server starting on the same database, as after a restart.
    const restarted = await withSite({
      sharedDatabase: t.testDatabase,
      env: { STAFF_EMAILS: OWNER },
    });
    try {
      const rows = await t.database.pool.query<{
        id: string;
        status: string;
        error: string | null;
      }>(
        `SELECT id, status, error FROM imports WHERE id = ANY($1::uuid[]) ORDER BY "fileName" DESC`,
        [[stopped, alive]],
      );
      expect(rows.rows).toEqual([
        { id: stopped, status: 'failed', error: INTERRUPTED_MESSAGE },
        { id: alive, status: 'running', error: null },
      ]);
      const response = await get(owner, `/api/desk/imports/${stopped}`);
      expect(await response.json()).toMatchObject({
        import: {
          status: 'failed',
          error:
            'The server stopped during the import; run it again: an import is safe to run twice.',
        },
      });
    } finally {
      await restarted.close();
      await t.database.pool.query(`UPDATE imports SET status = 'done' WHERE id = $1`, [alive]);
    }
  });
});

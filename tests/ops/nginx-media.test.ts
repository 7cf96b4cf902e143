import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember, buildPost, type Member } from '#test/factories';
import { findNginx, startNginxStack, type NginxStack } from '#test/nginx';
import { createMigratedTestDatabase, type TestDatabase } from '#test/test-database';
import { withSite, type Site } from '#test/with-site';

/**
 * Audio and video through the shipped nginx.conf, run by the real nginx in front of a real app
 * process (the built server): a player's ranges pass through both ways, a large upload reaches
 * the app, and a members-only file is never sent from nginx's own copy of the uploads volume nor
 * kept by a shared cache. An app in the test (the same database) makes the accounts and posts.
 */

const OWNER = 'owner@example.com';

const nginxBinary = findNginx();
const title = nginxBinary
  ? 'audio and video through nginx.conf'
  : 'audio and video through nginx.conf (SKIPPED: no nginx binary; install Debian’s nginx or set NGINX_PATH)';

describe.skipIf(!nginxBinary)(title, () => {
  let database: TestDatabase;
  let stack: NginxStack | undefined;
  let t: Site;
  let site: string;
  let appUploads: string;
  let owner: Member;
  let member: Member;
  let mp3: Buffer;

  const uploadThroughNginx = async (bytes: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'audio/mpeg' }), 'episode.mp3');
    const response = await fetch(`${site}/api/desk/uploads`, {
      method: 'POST',
      headers: { cookie: owner.cookie },
      body: form,
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as { url: string; duration: number; kind: string };
  };
  /** Polls until the app behind nginx has the post a test just published (it learns by NOTIFY). */
  const statusOnceLive = async (url: string, headers: Record<string, string> = {}) => {
    let status = 0;
    await expect
      .poll(
        async () => {
          const response = await fetch(`${site}${url}`, { headers });
          await response.arrayBuffer();
          status = response.status;
          return status;
        },
        { timeout: 10_000 },
      )
      .not.toBe(404);
    return status;
  };

  beforeAll(async () => {
    appUploads = await mkdtemp(join(tmpdir(), 'cohort-nginx-media-'));
    database = await createMigratedTestDatabase();
    const env = { STAFF_EMAILS: OWNER, UPLOADS_DIR: appUploads };
    stack = await startNginxStack({ env: { DATABASE_URL: database.url, ...env }, apps: 1 });
    site = stack.url;
    t = await withSite({ env, sharedDatabase: database });
    [owner, member, mp3] = await Promise.all([
      buildMember(t, { role: 'owner' }),
      buildMember(t, { paid: true }),
      readFile(new URL('../fixtures/media/tone-3s.mp3', import.meta.url)),
    ]);
  });
  afterAll(async () => {
    await t?.close();
    await stack?.stop();
    await database?.drop();
    if (appUploads) await rm(appUploads, { recursive: true, force: true });
  });

  it('takes an MP3 through nginx and passes a player’s ranges through, exactly', async () => {
    const { url, duration, kind } = await uploadThroughNginx(mp3);
    expect({ duration, kind }).toEqual({ duration: 3, kind: 'audio' });
    await buildPost(t, { by: owner, body: `![Episode](${url})\n` });
    expect(await statusOnceLive(url)).toBe(200);

    const part = await fetch(`${site}${url}`, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${mp3.length}`);
    expect(part.headers.get('content-length')).toBe('100');
    expect(part.headers.get('accept-ranges')).toBe('bytes');
    expect(part.headers.get('content-type')).toBe('audio/mpeg');
    expect(part.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await part.arrayBuffer())).toEqual(mp3.subarray(100, 200));

    const whole = await fetch(`${site}${url}`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(whole.headers.get('content-length')).toBe(String(mp3.length));
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(mp3);

    const past = await fetch(`${site}${url}`, { headers: { range: `bytes=${mp3.length}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${mp3.length}`);
  });

  it('sends a members-only file to members alone, privately, though nginx has the volume too', async () => {
    if (!stack) throw new Error('no stack');
    const bytes = Buffer.concat([mp3, Buffer.from([7])]);
    const { url } = await uploadThroughNginx(bytes);
    // As in compose, where nginx mounts the same volume: the file is on its side too.
    await writeFile(join(stack.uploadsDir, url.slice('/uploads/'.length)), bytes);
    await buildPost(t, {
      by: owner,
      visibility: 'members',
      body: `For members.\n\n<!-- members-only -->\n\n![Episode](${url})\n`,
    });
    expect(await statusOnceLive(url)).toBe(403);

    const visitor = await fetch(`${site}${url}`, { headers: { range: 'bytes=0-99' } });
    expect(visitor.status).toBe(403);
    expect(visitor.headers.get('cache-control')).toBe('private, no-store');
    expect(await visitor.json()).toMatchObject({ error: { code: 'members_only' } });

    const asMember = await fetch(`${site}${url}`, {
      headers: { cookie: member.cookie, range: 'bytes=100-199' },
    });
    expect(asMember.status).toBe(206);
    expect(asMember.headers.get('cache-control')).toBe('private, max-age=86400');
    expect(Buffer.from(await asMember.arrayBuffer())).toEqual(bytes.subarray(100, 200));

    // A file still being written beside the uploads is never sent.
    const partial = `.${url.slice('/uploads/'.length)}.1234.5678`;
    await writeFile(join(stack.uploadsDir, partial), bytes);
    expect((await fetch(`${site}/uploads/${partial}`)).status).toBe(404);
  });

  it('lets an upload larger than images take reach the app, which judges its length', async () => {
    // Past the 500 MB the app takes of any kind (VIDEO_MAX_MB), under what nginx passes: the app's
    // own answer, given as soon as it reads the length, before the body is sent.
    const answer = await declaredUpload(600 * 1024 * 1024);
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({
      error: { code: 'file_too_large', message: 'Upload a file of at most 500 MB.' },
    });
    // Past what nginx lets through at all: nginx's own answer.
    const huge = await declaredUpload(3 * 1024 * 1024 * 1024);
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  /** A multipart upload that says `length` bytes and sends its first few: the answer. */
  function declaredUpload(length: number): Promise<{ status: number; body: unknown }> {
    return new Promise((resolve, reject) => {
      const outgoing = request(
        `${site}/api/desk/uploads`,
        {
          method: 'POST',
          headers: {
            cookie: owner.cookie,
            'content-type': 'multipart/form-data; boundary=cohort',
            'content-length': String(length),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            outgoing.destroy();
            const text = Buffer.concat(chunks).toString();
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown });
          });
          response.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.write(
        '--cohort\r\nContent-Disposition: form-data; name="file"; filename="big.mp4"\r\n' +
          'Content-Type: video/mp4\r\n\r\n',
      );
    });
  }
});

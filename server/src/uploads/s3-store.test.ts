import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember, buildPost } from '#test/factories';
import { withSite, type Site } from '#test/with-site';
import { imageSizes, formatsOf, uploadUrl } from '../../../contract/images.js';

// Images in an S3-compatible bucket, so that app servers on different machines share them: two
// app servers on one database and one bucket, served by s3rver (an S3 server that checks AWS
// Signature V4), run in the test. One takes the upload; the other serves every copy of it.

const OWNER = 'owner@example.com';
const BUCKET = 'cohort-images';
/**
 * s3rver's own key: a request naming another is refused (403). s3rver does not check Signature V4
 * itself (its authentication says so), so a wrong secret would pass here; aws4fetch's signing is
 * what AWS, MinIO and the others check.
 */
const KEY = 'S3RVER';

describe('images in an S3-compatible bucket', () => {
  let s3: S3rver;
  let s3Dir: string;
  let endpoint: string;
  let first: Site;
  let second: Site;
  let cookie: string;

  const s3Env = (accessKeyId = KEY) => ({
    S3_ENDPOINT: endpoint,
    S3_BUCKET: BUCKET,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: accessKeyId,
    S3_SECRET_ACCESS_KEY: KEY,
    STAFF_EMAILS: OWNER,
    // No folder: if the app fell back to one, nothing would be found there.
    UPLOADS_DIR: '/nonexistent-uploads-dir',
  });

  async function upload(t: Site, bytes: Buffer) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'chart.png');
    const encoded = new Response(form);
    return t.app.inject({
      method: 'POST',
      url: '/api/desk/uploads',
      headers: {
        cookie,
        'content-type': encoded.headers.get('content-type') ?? '',
      },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
  }

  beforeAll(async () => {
    s3Dir = await mkdtemp(join(tmpdir(), 'cohort-s3-'));
    s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const address = (await s3.run()) as AddressInfo;
    endpoint = `http://127.0.0.1:${address.port}`;
    first = await withSite({ env: s3Env() });
    second = await withSite({ env: s3Env(), sharedDatabase: first.testDatabase });
    ({ cookie } = await buildMember(first, { role: 'owner' }));
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await s3?.close();
    if (s3Dir) await rm(s3Dir, { recursive: true, force: true });
  });

  it('stores every copy in the bucket through one server and serves them from the other', async () => {
    const png = await sharp({
      create: { width: 1200, height: 800, channels: 3, background: '#2a6f4e' },
    })
      .png()
      .toBuffer();
    const response = await upload(first, png);
    expect(response.statusCode, response.body).toBe(201);
    const { image } = response.json() as {
      image: { id: string; url: string; width: number; height: number };
    };
    expect(image).toMatchObject({ width: 1200, height: 800 });

    // In the bucket, under the names the pages use.
    const stored = (await readdir(join(s3Dir, BUCKET), { recursive: true })).join('\n');
    for (const size of imageSizes(image)) {
      for (const format of formatsOf(size)) {
        const url = uploadUrl(image.id, size, format);
        expect(stored).toContain(url.slice('/uploads/'.length));
        const served = await second.app.inject({ method: 'GET', url });
        expect(served.statusCode, url).toBe(200);
        expect(served.headers['content-type']).toBe(`image/${format}`);
        expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        const metadata = await sharp(served.rawPayload).metadata();
        expect(metadata).toMatchObject({
          width: size.width,
          height: size.height,
          format: format === 'avif' ? 'heif' : 'webp',
        });
      }
    }
    const missing = await second.app.inject({
      method: 'GET',
      url: `/uploads/${'0'.repeat(20)}-480x320.webp`,
    });
    expect(missing.statusCode).toBe(404);
  });

  it('streams audio into the bucket through one server and serves its ranges from the other', async () => {
    const mp3 = await readFile(
      new URL('../../../tests/fixtures/media/tone-3s.mp3', import.meta.url),
    );
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(mp3)], { type: 'audio/mpeg' }), 'tone.mp3');
    const encoded = new Response(form);
    const response = await first.app.inject({
      method: 'POST',
      url: '/api/desk/uploads',
      headers: { cookie, 'content-type': encoded.headers.get('content-type') ?? '' },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    expect(response.statusCode, response.body).toBe(201);
    const { url, duration } = response.json<{ url: string; duration: number }>();
    expect(duration).toBe(3);
    const name = url.slice('/uploads/'.length);
    const stored = await readdir(join(s3Dir, BUCKET), { recursive: true });
    expect(stored.join('\n')).toContain(name);
    await buildPost(first, { body: `![Tone](${url})\n` });
    await second.app.siteContent.refresh();

    const part = await second.app.inject({
      method: 'GET',
      url,
      headers: { range: 'bytes=100-199' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${mp3.length}`);
    expect(part.headers['content-type']).toBe('audio/mpeg');
    expect(part.rawPayload).toEqual(mp3.subarray(100, 200));
    const whole = await second.app.inject({ method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload).toEqual(mp3);
    const past = await second.app.inject({
      method: 'GET',
      url,
      headers: { range: `bytes=${mp3.length}-` },
    });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${mp3.length}`);
  });

  it('answers 503 and keeps no image when the bucket refuses the keys', async () => {
    const wrong = await withSite({
      env: s3Env('NOT-A-KEY'),
      sharedDatabase: first.testDatabase,
    });
    try {
      const before = await first.database.pool.query('SELECT count(*)::int AS n FROM "images"');
      const png = await sharp({
        create: { width: 300, height: 300, channels: 3, background: '#aa3300' },
      })
        .png()
        .toBuffer();
      const response = await upload(wrong, png);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ error: { code: 'image_store_unavailable' } });
      const after = await first.database.pool.query('SELECT count(*)::int AS n FROM "images"');
      expect(after.rows[0].n).toBe(before.rows[0].n);
    } finally {
      await wrong.close();
    }
  });

  it('refuses to start with only some of the S3 settings', async () => {
    await expect(
      withSite({ env: { S3_ENDPOINT: 'http://127.0.0.1:1', S3_BUCKET: BUCKET } }),
    ).rejects.toThrow(/S3_ACCESS_KEY_ID: is required when any S3_ setting is set/);
  });
});

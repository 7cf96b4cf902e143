import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildMember, buildPost, type Member } from '#test/factories';
import { uploadToDesk, useUploadsSite } from '#test/desk-uploads';
import { parseMediaUrl } from '../../../../contract/media.js';
import { makeFeedToken } from '../../podcasts/feed-tokens.js';

// Audio and video uploads through the real app on a real port (multipart as a browser sends it),
// with real files made by ffmpeg (tests/fixtures/media): what is taken, what is refused, how a
// player gets its ranges, and who may fetch a file in a members-only post.

const fixture = (name: string) =>
  readFile(new URL(`../../../../tests/fixtures/media/${name}`, import.meta.url));

const WRITER = 'writer@example.com';

describe('audio and video uploads', () => {
  const t = useUploadsSite({
    STAFF_EMAILS: 'owner@example.com',
    WRITER_EMAILS: WRITER,
    AUDIO_MAX_MB: '1',
  });
  let writer: Member;
  let member: Member;
  let mp3: Buffer;

  const upload = (
    bytes: Uint8Array,
    { name = 'episode.mp3', type = 'audio/mpeg', cookie = writer.cookie } = {},
  ) => uploadToDesk(t.base, cookie, { bytes, name, type });
  /** An upload the test needs to have been taken: its answer's media. */
  const uploaded = async (bytes: Uint8Array, name = 'episode.mp3') => {
    const response = await upload(bytes, { name });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as {
      url: string;
      kind: string;
      duration: number | null;
      media: { url: string; kind: string; mime: string; width: number | null };
    };
  };
  /** The MP3 with one more byte: another file (another id) that plays the same. */
  const anotherMp3 = (n: number) => Buffer.concat([mp3, Buffer.from([n])]);
  const get = (url: string, headers: Record<string, string> = {}) =>
    fetch(`${t.base}${url}`, { headers });

  beforeAll(async () => {
    [writer, member, mp3] = await Promise.all([
      buildMember(t, { role: 'writer' }),
      buildMember(t, { paid: true }),
      fixture('tone-3s.mp3'),
    ]);
  });

  it('takes an MP3 by its bytes, reads its duration and keeps it under an address that says it', async () => {
    // Named and typed as something else: its bytes decide.
    const answer = await uploaded(mp3, 'notes.txt');
    expect(answer).toMatchObject({
      kind: 'audio',
      duration: 3,
      media: { kind: 'audio', mime: 'audio/mpeg', duration: 3, width: null, height: null },
    });
    expect(answer.url).toMatch(/^\/uploads\/[a-z0-9]{20}-3s\.mp3$/);
    expect(answer.media.url).toBe(answer.url);
    expect(parseMediaUrl(answer.url)).toMatchObject({ kind: 'audio', duration: 3 });
    const name = answer.url.slice('/uploads/'.length);
    expect(await readFile(join(t.uploadsDir, name))).toEqual(mp3);
    expect(answer).not.toHaveProperty('image');
  });

  it('reads a video’s frame size and duration from MP4 and WebM', async () => {
    const mp4 = await uploaded(await fixture('clip-64x48-2s.mp4'), 'clip.mp4');
    expect(mp4).toMatchObject({
      kind: 'video',
      duration: 2,
      media: { mime: 'video/mp4', width: 64, height: 48 },
    });
    expect(mp4.url).toMatch(/^\/uploads\/[a-z0-9]{20}-64x48-2s\.mp4$/);
    const webm = await uploaded(await fixture('clip-64x48-2s.webm'), 'clip.webm');
    expect(webm).toMatchObject({ kind: 'video', duration: 2, media: { mime: 'video/webm' } });
    expect(webm.url).toMatch(/^\/uploads\/[a-z0-9]{20}-64x48-2s\.webm$/);
  });

  it('serves a published file whole or by the range a player asks for, cached by anyone', async () => {
    const { url } = await uploaded(anotherMp3(1));
    const bytes = anotherMp3(1);
    await buildPost(t, { body: `Listen.\n\n![Episode 1](${url} "The first one")\n` });

    const whole = await get(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/mpeg');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-length')).toBe(String(bytes.length));
    expect(whole.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(bytes);

    const part = await get(url, { range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`);
    expect(part.headers.get('content-length')).toBe('100');
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(100, 200));

    const last = await get(url, { range: 'bytes=-50' });
    expect(last.status).toBe(206);
    expect(Buffer.from(await last.arrayBuffer())).toEqual(bytes.subarray(bytes.length - 50));

    const past = await get(url, { range: `bytes=${bytes.length + 10}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${bytes.length}`);

    // Its length, without the file (as podcast apps ask).
    const head = await fetch(`${t.base}${url}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    expect(head.headers.get('accept-ranges')).toBe('bytes');

    // Two ranges at once are not taken: the whole file, as HTTP allows.
    const two = await get(url, { range: 'bytes=0-9,200-209' });
    expect(two.status).toBe(200);
    expect(two.headers.get('content-length')).toBe(String(bytes.length));
    await two.arrayBuffer();
  });

  it('serves a file after a members-only post’s divider to members and staff alone, and privately', async () => {
    const inOpening = (await uploaded(anotherMp3(2))).url;
    const afterDivider = (await uploaded(anotherMp3(3))).url;
    await buildPost(t, {
      visibility: 'members',
      body: `![Trailer](${inOpening})\n\n<!-- members-only -->\n\n![Episode 2](${afterDivider})\n`,
    });

    const visitor = await get(afterDivider, { range: 'bytes=0-9' });
    expect(visitor.status).toBe(403);
    expect(await visitor.json()).toMatchObject({ error: { code: 'members_only' } });
    expect(visitor.headers.get('cache-control')).toBe('private, no-store');
    // A signed-in reader without a membership is not a member.
    const { cookie: readerCookie } = await buildMember(t);
    expect((await get(afterDivider, { cookie: readerCookie })).status).toBe(403);

    for (const who of [member, writer]) {
      const response = await get(afterDivider, { cookie: who.cookie, range: 'bytes=100-199' });
      expect(response.status, who.email).toBe(206);
      expect(response.headers.get('cache-control'), who.email).toBe('private, max-age=86400');
      expect(Buffer.from(await response.arrayBuffer())).toEqual(anotherMp3(3).subarray(100, 200));
    }

    // A podcast app sends no cookie: a member's private feed token opens the file, another's not.
    const { rows } = await t.database.pool.query<{ id: number }>(
      'SELECT "id" FROM "sections" ORDER BY "id" LIMIT 1',
    );
    const sectionId = rows[0]?.id ?? 0;
    const memberToken = await makeFeedToken(t.database.pool, member.userId, sectionId);
    const lapsed = await buildMember(t);
    const lapsedToken = await makeFeedToken(t.database.pool, lapsed.userId, sectionId);
    const byFeed = await get(`${afterDivider}?feed=${memberToken}`, { range: 'bytes=0-99' });
    expect(byFeed.status).toBe(206);
    expect(Buffer.from(await byFeed.arrayBuffer())).toEqual(anotherMp3(3).subarray(0, 100));
    expect((await get(`${afterDivider}?feed=${lapsedToken}`)).status).toBe(403);
    expect((await get(`${afterDivider}?feed=${'x'.repeat(32)}`)).status).toBe(403);

    // What everyone reads of the post (before the divider) is everyone's.
    const opening = await get(inOpening);
    expect(opening.status).toBe(200);
    expect(opening.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    await opening.arrayBuffer();
  });

  it('serves a file in no published post (a draft’s, or one just uploaded) to staff alone', async () => {
    const inDraft = (await uploaded(anotherMp3(4))).url;
    await buildPost(t, { status: 'draft', body: `![Draft](${inDraft})\n` });
    for (const cookie of ['', member.cookie]) {
      const response = await get(inDraft, cookie ? { cookie } : {});
      expect(response.status).toBe(404);
      expect(response.headers.get('cache-control')).toBe('private, no-store');
    }
    const staff = await get(inDraft, { cookie: writer.cookie });
    expect(staff.status).toBe(200);
    expect(staff.headers.get('cache-control')).toBe('private, max-age=86400');
    expect(Buffer.from(await staff.arrayBuffer())).toEqual(anotherMp3(4));
  });

  it('refuses audio over AUDIO_MAX_MB with 413, by its declared length or once the stream passes it, and keeps nothing', async () => {
    const before = await t.files();
    // An MP3's start, then more than the 1 MB limit.
    const big = Buffer.concat([mp3, Buffer.alloc(1024 * 1024 + 1)]);
    const declared = await upload(big);
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({
      error: { code: 'file_too_large', message: 'Upload an audio file of at most 1 MB.' },
    });

    const streamed = await uploadToDesk(
      t.base,
      writer.cookie,
      { bytes: big, name: 'big.mp3', type: 'audio/mpeg' },
      { streamed: true },
    );
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toMatchObject({ error: { code: 'file_too_large' } });
    expect(await t.files()).toEqual(before);
    expect(await readdir(t.uploadsDir)).toEqual(before);
  });

  it('refuses other sound and other files with 415, and keeps nothing', async () => {
    const before = await t.files();
    // A real WAV: 44-byte header, then a tenth of a second of 8 kHz 8-bit silence.
    const samples = 800;
    const wav = Buffer.alloc(44 + samples, 0x80);
    wav.write('RIFF', 0, 'latin1');
    wav.writeUInt32LE(36 + samples, 4);
    wav.write('WAVEfmt ', 8, 'latin1');
    wav.writeUInt32LE(16, 16);
    wav.writeUInt16LE(1, 20);
    wav.writeUInt16LE(1, 22);
    wav.writeUInt32LE(8000, 24);
    wav.writeUInt32LE(8000, 28);
    wav.writeUInt16LE(1, 32);
    wav.writeUInt16LE(8, 34);
    wav.write('data', 36, 'latin1');
    wav.writeUInt32LE(samples, 40);
    for (const [what, bytes] of [
      ['a WAV named as an MP3', wav],
      ['a PDF', Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n')],
      ['text', Buffer.from('ID3 is not enough to be an MP3\n'.repeat(300))],
    ] as const) {
      const response = await upload(bytes, { name: 'episode.mp3' });
      expect(response.status, what).toBe(415);
      expect(await response.json(), what).toMatchObject({
        error: { code: 'unsupported_file', message: expect.stringContaining('MP3, M4A or Ogg') },
      });
    }
    expect(await t.files()).toEqual(before);
  });

  it('answers an image as before, with its address and kind beside', async () => {
    const png = await sharp({
      create: { width: 40, height: 30, channels: 3, background: '#2a6f4e' },
    })
      .png()
      .toBuffer();
    const response = await upload(png, { name: 'chart.png', type: 'image/png' });
    expect(response.status).toBe(201);
    const answer = (await response.json()) as {
      url: string;
      kind: string;
      duration: null;
      image: { url: string; width: number; height: number };
    };
    expect(answer).toMatchObject({
      kind: 'image',
      duration: null,
      image: { width: 40, height: 30 },
    });
    expect(answer.url).toBe(answer.image.url);
    expect(answer).not.toHaveProperty('media');
  });
});

import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember, type Member } from '#test/factories';
import { SmtpCapture } from '#test/smtp-capture';
import { gradientPhoto } from '#test/test-photos';
import { withSite, type Site } from '#test/with-site';

// An issue mailed from the desk shows its images as JPEG copies the site makes when a mail reader
// first asks for them (Outlook for Windows shows no WebP), and its players as links to the issue's
// page: a mail holds no iframe, script, <audio> or <video>.

const OWNER = 'owner@example.com';

describe('the images and players of a mailed issue', () => {
  let mailbox: SmtpCapture;
  let t: Site;
  let owner: Member;
  let uploadsDir: string;

  async function upload(bytes: Buffer, type: string): Promise<{ id: string; url: string }> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type }), 'picture');
    const response = await fetch(`${t.url}/api/desk/uploads`, {
      method: 'POST',
      headers: { cookie: owner.cookie },
      body: form,
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { image: { id: string; url: string } }).image;
  }

  async function waitFor<T>(find: () => T | undefined, what: string): Promise<T> {
    const until = Date.now() + 15_000;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeAll(async () => {
    mailbox = await new SmtpCapture().start();
    uploadsDir = await mkdtemp(join(tmpdir(), 'cohort-mail-images-'));
    t = await withSite({
      listen: true,
      env: { STAFF_EMAILS: OWNER, SMTP_URL: mailbox.url, UPLOADS_DIR: uploadsDir },
    });
    owner = await buildMember(t, { role: 'owner', email: OWNER });
  });
  afterAll(async () => {
    await t?.close();
    await mailbox?.stop();
    if (uploadsDir) await rm(uploadsDir, { recursive: true, force: true });
  });

  it('mails the photo as a JPEG copy made on first ask, and the video and episode as links to the issue', async () => {
    const photo = await upload(
      await gradientPhoto(3000, 2000, (x, y) => (x * 7 + y * 13) % 256)
        .jpeg({ quality: 85 })
        .toBuffer(),
      'image/jpeg',
    );
    // A picture with a see-through part: the JPEG has none, and shows it on white.
    const logo = await upload(
      await sharp({
        create: {
          width: 400,
          height: 200,
          channels: 4,
          background: { r: 0, g: 0, b: 0, alpha: 0 },
        },
      })
        .png()
        .toBuffer(),
      'image/png',
    );
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/desk/posts',
      headers: { cookie: owner.cookie },
      payload: {
        kind: 'newsletter',
        slug: 'spring-letter',
        title: 'The Spring Letter',
        summary: 'A photo, a video and an episode.',
        body: [
          'What we saw this spring.',
          `![A field in April](${photo.url} "Taken at dawn")`,
          'https://www.youtube.com/watch?v=hmH3XMlms8E',
          '![Episode 12](/uploads/abcdefghij0123456789-725s.mp3)',
          `![A drawing](${logo.url})`,
        ].join('\n\n'),
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { post } = created.json() as { post: { id: number } };
    const test = await t.app.inject({
      method: 'POST',
      url: `/api/desk/posts/${post.id}/newsletter/test`,
      headers: { cookie: owner.cookie },
      payload: {},
    });
    expect(test.statusCode, test.body).toBe(200);
    const mail = await waitFor(
      () => mailbox.mailsTo(OWNER).find((each) => each.subject.includes('The Spring Letter')),
      'the test copy',
    );
    const html = mail.html ?? '';
    expect(html).not.toMatch(/<(iframe|script|audio|video|object|embed)\b/i);

    // Each link as the reader follows it: through the site's click count, to its address.
    const page = `${t.url}/newsletter/spring-letter`;
    const links = [...html.matchAll(/<a href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map(
      ([, href = '', words]) => ({
        to: new URL(href.replaceAll('&#38;', '&')).searchParams.get('u') ?? href,
        words,
      }),
    );
    expect(links).toContainEqual({ to: page, words: '▶︎ Play on YouTube' });
    expect(links).toContainEqual({ to: page, words: '▶︎ Listen (12:05)' });
    expect(mail.text).toContain(`Listen (12:05) - Episode 12: ${page}`);

    expect(html).not.toMatch(/\.(webp|avif)\b/);
    const images = [...html.matchAll(/<img src="([^"]*\/uploads\/[^"]*)"/g)].map(
      (match) => match[1] ?? '',
    );
    expect(images).toEqual([
      `${t.url}/uploads/${photo.id}-2400x1600-mail1200.jpg`,
      `${t.url}/uploads/${logo.id}-400x200-mail1200.jpg`,
    ]);
    // Not made until a mail reader asks; then served as JPEG, and kept.
    expect(await readdir(uploadsDir)).not.toContain(`${photo.id}-2400x1600-mail1200.jpg`);
    for (const [src, size] of [
      [images[0], { width: 1200, height: 800 }],
      [images[1], { width: 400, height: 200 }],
    ] as const) {
      const response = await fetch(src ?? '');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(await sharp(bytes).metadata()).toMatchObject({ format: 'jpeg', ...size });
    }
    const corner = await sharp(Buffer.from(await (await fetch(images[1] ?? '')).arrayBuffer()))
      .extract({ left: 0, top: 0, width: 1, height: 1 })
      .raw()
      .toBuffer();
    expect([...corner].every((channel) => channel > 245)).toBe(true);
    expect(await readdir(uploadsDir)).toContain(`${photo.id}-2400x1600-mail1200.jpg`);

    // Only the widths a mail asks for, and only of images the site has.
    const status = async (name: string) => (await fetch(`${t.url}/uploads/${name}`)).status;
    expect(await status(`${photo.id}-2400x1600-mail600.jpg`)).toBe(200);
    expect(await status(`${photo.id}-2400x1600-mail800.jpg`)).toBe(404);
    expect(await status(`${'a'.repeat(20)}-2400x1600-mail1200.jpg`)).toBe(404);
  });
});

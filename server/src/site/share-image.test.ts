import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPost, buildStaff, type Member } from '#test/factories';
import { gradientPhoto } from '#test/test-photos';
import { withSite, type Site } from '#test/with-site';

// Sharing a post shows its cover: an article with a feature photo names the photo's 1200×630 share
// copy in og:image and twitter:image (with its alt), the copy is served, and the page draws the
// photo as a <picture> with AVIF beside WebP; an article without one keeps the drawn title card.

const OWNER = 'owner@example.com';
const SITE = 'https://members.example.org';

/** A landscape photo of 3000×2000 with some texture, as a JPEG. */
const landscapePhoto = () =>
  gradientPhoto(3000, 2000, (x, y) => (x * 7 + y * 13) % 256)
    .jpeg({ quality: 85 })
    .toBuffer();

/** A meta tag's content in a page's head, by its property or name. */
function metaOf(html: string, key: string): string | undefined {
  const tag = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html);
  return tag?.[1]?.replaceAll('&#39;', "'").replaceAll('&#38;', '&');
}

describe('a shared post’s picture', () => {
  let t: Site;
  let owner: Member;
  let uploadsDir: string;
  let base: string;

  const publish = async (post: object) => (await buildPost(t, { ...post, by: owner })).path;

  async function upload(bytes: Buffer): Promise<{ id: string; url: string }> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'cover.jpg');
    const response = await fetch(`${base}/api/desk/uploads`, {
      method: 'POST',
      headers: { cookie: owner.cookie },
      body: form,
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { image: { id: string; url: string } }).image;
  }

  // Every body is read to its end: an unread one keeps its connection busy, and the app's close
  // would wait for it.
  const fetchImage = async (url: string) => {
    const response = await fetch(`${base}${new URL(url).pathname}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      metadata: response.ok ? await sharp(bytes).metadata() : null,
    };
  };

  beforeAll(async () => {
    uploadsDir = await mkdtemp(join(tmpdir(), 'cohort-share-test-'));
    t = await withSite({
      built: true,
      listen: true,
      env: { SITE_URL: SITE, STAFF_EMAILS: OWNER, UPLOADS_DIR: uploadsDir },
    });
    base = t.url;
    [owner] = await buildStaff(t, 'owner');
  });
  afterAll(async () => {
    await t?.close();
    if (uploadsDir) await rm(uploadsDir, { recursive: true, force: true });
  });

  it('names the feature photo’s 1200×630 share copy in og:image and twitter:image, and serves it', async () => {
    const image = await upload(await landscapePhoto());
    const path = await publish({
      kind: 'article',
      title: 'Rent Day Without Dread',
      category: 'Wealth',
      summary: 'A calm way through the first of the month.',
      readingMinutes: 3,
      body: 'Rent is due. Here is how to meet it.\n',
      featureImage: image.url,
      featureImageAlt: 'Keys on a kitchen table beside a paid rent slip',
    });
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    const ogImage = metaOf(page.body, 'og:image');
    expect(ogImage).toBe(`${SITE}/uploads/${image.id}-2400x1600-share.jpg`);
    expect(metaOf(page.body, 'twitter:image')).toBe(ogImage);
    expect(metaOf(page.body, 'og:image:width')).toBe('1200');
    expect(metaOf(page.body, 'og:image:height')).toBe('630');
    expect(metaOf(page.body, 'og:image:alt')).toBe(
      'Keys on a kitchen table beside a paid rent slip',
    );
    // Search engines are given the same photo as the article's image.
    const ld = /<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/.exec(
      page.body,
    )?.[1];
    expect(JSON.parse(ld ?? '{}')).toMatchObject({ '@type': 'Article', image: ogImage });

    const served = await fetchImage(ogImage ?? '');
    expect(served).toMatchObject({ status: 200, type: 'image/jpeg' });
    expect(served.metadata).toMatchObject({ format: 'jpeg', width: 1200, height: 630 });
    // Made at upload, beside the sizes.
    expect(await readdir(uploadsDir)).toContain(`${image.id}-2400x1600-share.jpg`);

    // The hero: a <picture>, AVIF first in every width it was made in, then the WebP <img>.
    const hero = /<div class="article__hero">([\s\S]*?)<\/div>/.exec(page.body)?.[1] ?? '';
    expect(hero).toMatch(/^<picture class="content-picture"><source type="image\/avif"/);
    expect(hero).toContain(`/uploads/${image.id}-480x320.avif 480w`);
    expect(hero).toContain(`/uploads/${image.id}-1600x1067.avif 1600w`);
    expect(hero).toMatch(/<img[^>]*srcSet="[^"]*\.webp 480w/i);
    const avif = await fetchImage(`${SITE}/uploads/${image.id}-960x640.avif`);
    expect(avif).toMatchObject({ status: 200, type: 'image/avif' });
  });

  it('makes the share copy when first asked for, for a photo stored before copies were made', async () => {
    const image = await upload(
      await sharp(await landscapePhoto())
        .resize(1000, 1000)
        .toBuffer(),
    );
    const name = `${image.id}-1000x1000-share.jpg`;
    await rm(join(uploadsDir, name));
    const served = await fetchImage(`${SITE}/uploads/${name}`);
    expect(served).toMatchObject({ status: 200, type: 'image/jpeg' });
    expect(served.metadata).toMatchObject({ width: 1200, height: 630 });
    expect(await readdir(uploadsDir)).toContain(name);
    // Not an image the store has, nor a name it would give: nothing.
    expect((await fetchImage(`${SITE}/uploads/${'a'.repeat(20)}-1000x1000-share.jpg`)).status).toBe(
      404,
    );
    expect((await fetchImage(`${SITE}/uploads/${image.id}-share.jpg`)).status).toBe(404);
  });

  it('keeps the drawn title card for a post without a feature photo', async () => {
    const path = await publish({
      kind: 'article',
      slug: 'no-photo-here',
      title: 'Words Alone',
      category: 'Health',
      summary: 'An article with no photo.',
      readingMinutes: 2,
      body: 'Only words.\n',
    });
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(metaOf(page.body, 'og:image')).toBe(`${SITE}/og/articles/no-photo-here.png`);
    expect(metaOf(page.body, 'og:image:alt')).toBe('Words Alone');
    const card = await fetchImage(metaOf(page.body, 'og:image') ?? '');
    expect(card).toMatchObject({ status: 200, type: 'image/png' });
    expect(card.metadata).toMatchObject({ width: 1200, height: 630 });
    const hero = /<div class="article__hero">([\s\S]*?)<\/div>/.exec(page.body)?.[1] ?? '';
    expect(hero).toMatch(/^<img /);
  });
});

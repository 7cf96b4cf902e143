import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildMember } from '#test/factories';
import { gradientPhoto } from '#test/test-photos';
import { uploadToDesk, useUploadsSite } from '#test/desk-uploads';
import {
  formatsOf,
  imageSizes,
  srcsetOf,
  uploadUrl,
  UPLOADS_PATH,
} from '../../../../contract/images.js';

// Image uploads through the real app on a real port (multipart as a browser sends it), with real
// image files made by sharp: what is taken, what is refused and when, and what is served.

const WRITER = 'writer@example.com';

/** A photo as a phone takes it: 4000×3000 (12 megapixels), turned a quarter by EXIF, with GPS. */
const phonePhoto = () =>
  // A gradient with texture, so the JPEG is of a realistic size (a few MB), not a flat colour.
  gradientPhoto(4000, 3000, (x, y) => (x * 31 + y * 17) % 256)
    .jpeg({ quality: 92 })
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 12' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 2637/100' },
    })
    .toBuffer();

describe('image uploads', () => {
  const t = useUploadsSite({ WRITER_EMAILS: WRITER, UPLOAD_MAX_MB: '20' });
  let writerCookie: string;
  let readerCookie: string;
  let photo: Buffer;

  const upload = (
    bytes: Buffer,
    { name = 'photo.jpg', type = 'image/jpeg', cookie = writerCookie, field = 'file' } = {},
  ) => uploadToDesk(t.base, cookie, { bytes, name, type, field });
  const imageRows = async () =>
    (await t.database.pool.query<{ id: string }>('SELECT "id" FROM "images"')).rows.length;

  beforeAll(async () => {
    [{ cookie: writerCookie }, { cookie: readerCookie }, photo] = await Promise.all([
      buildMember(t, { role: 'writer' }),
      buildMember(t),
      phonePhoto(),
    ]);
  });

  it('turns a 12-megapixel phone photo upright, strips its EXIF and GPS, and serves it in every width as WebP and AVIF', async () => {
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const response = await upload(photo);
    expect(response.status, await response.clone().text()).toBe(201);
    const { image } = (await response.json()) as {
      image: { id: string; url: string; width: number; height: number };
    };
    // Turned a quarter (EXIF orientation 6): portrait, and no wider than 2400.
    expect(image).toMatchObject({ width: 2400, height: 3200 });
    expect(image.url).toBe(`/uploads/${image.id}-2400x3200.webp`);

    const sizes = imageSizes(image);
    expect(sizes.map((size) => size.width)).toEqual([480, 960, 1600, 2400]);
    for (const size of sizes) {
      for (const format of formatsOf(size)) {
        const served = await fetch(`${t.base}${uploadUrl(image.id, size, format)}`);
        expect(served.status).toBe(200);
        expect(served.headers.get('content-type')).toBe(`image/${format}`);
        expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        const metadata = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
        expect(metadata).toMatchObject({ width: size.width, height: size.height });
        expect(metadata.exif).toBeUndefined();
        expect(metadata.xmp).toBeUndefined();
        expect(metadata.orientation).toBeUndefined();
      }
    }
    expect(srcsetOf(image, 'webp')).toContain(`/uploads/${image.id}-480x640.webp 480w`);
    // AVIF up to 1600 wide (its encoder's memory), WebP in every width.
    expect(sizes.flatMap((size) => formatsOf(size).map((f) => `${size.width}.${f}`))).toEqual([
      '480.avif',
      '480.webp',
      '960.avif',
      '960.webp',
      '1600.avif',
      '1600.webp',
      '2400.webp',
    ]);
    // And its share copy for link previews (og:image), cropped to 1200×630.
    expect((await t.files()).sort()).toEqual(
      [
        ...sizes.flatMap((size) =>
          formatsOf(size).map((format) =>
            uploadUrl(image.id, size, format).slice(UPLOADS_PATH.length),
          ),
        ),
        `${image.id}-2400x3200-share.jpg`,
      ].sort(),
    );

    const row = await t.database.pool.query(
      'SELECT "width", "height", "sourceFormat", "fileName" FROM "images" WHERE "id" = $1',
      [image.id],
    );
    expect(row.rows).toEqual([
      { width: 2400, height: 3200, sourceFormat: 'jpeg', fileName: 'photo.jpg' },
    ]);

    // The same bytes again are the same image.
    const again = await upload(photo, { name: 'copy.jpg' });
    expect(again.status).toBe(201);
    expect(((await again.json()) as { image: { id: string } }).image.id).toBe(image.id);
    expect(await imageRows()).toBe(1);
  });

  it('keeps a small image at its own size and takes PNG, GIF, WebP and AVIF by their bytes, whatever their name says', async () => {
    const flat = sharp({
      create: { width: 300, height: 200, channels: 4, background: '#3366cc80' },
    });
    for (const [format, bytes] of [
      ['png', await flat.clone().png().toBuffer()],
      ['gif', await flat.clone().gif().toBuffer()],
      ['webp', await flat.clone().webp().toBuffer()],
      ['avif', await flat.clone().avif().toBuffer()],
    ] as const) {
      const response = await upload(bytes, { name: 'picture.jpg', type: 'image/jpeg' });
      expect(response.status, `${format}: ${await response.clone().text()}`).toBe(201);
      const { image } = (await response.json()) as { image: { width: number; height: number } };
      expect(image, format).toMatchObject({ width: 300, height: 200 });
    }
  });

  it('refuses an SVG or an HTML page named as a photo, and any other file, with 415 and keeps nothing', async () => {
    const before = { rows: await imageRows(), files: (await t.files()).length };
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    const html = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
    const truncated = photo.subarray(0, 2_000);
    for (const [what, bytes] of [
      ['svg', svg],
      ['html', html],
      ['pdf', Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n')],
      ['a cut-off JPEG', truncated],
    ] as const) {
      const response = await upload(bytes, { name: 'holiday.jpg', type: 'image/jpeg' });
      expect(response.status, what).toBe(415);
      expect(await response.json(), what).toMatchObject({
        error: {
          code: what === 'a cut-off JPEG' ? 'unsupported_image' : 'unsupported_file',
          message: expect.stringContaining('JPEG, PNG'),
        },
      });
    }
    expect({ rows: await imageRows(), files: (await t.files()).length }).toEqual(before);
  });

  it('refuses a file over UPLOAD_MAX_MB with 413, by its declared length or, sent without one, once the stream passes the limit', async () => {
    const before = await imageRows();
    const big = Buffer.concat([photo, Buffer.alloc(25 * 1024 * 1024 - photo.length)]);
    const declared = await upload(big);
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({
      error: { code: 'file_too_large', message: 'Upload an image of at most 20 MB.' },
    });

    // Chunked, with no Content-Length: the reader stops at the limit.
    const streamed = await uploadToDesk(
      t.base,
      writerCookie,
      { bytes: big, name: 'big.jpg', type: 'image/jpeg' },
      { streamed: true },
    );
    expect(streamed.status).toBe(413);
    expect(await imageRows()).toBe(before);
  });

  it('answers a body without a file, or with the file in another field, with 400', async () => {
    const wrongField = await upload(photo, { field: 'image' });
    expect(wrongField.status).toBe(400);
    const json = await fetch(`${t.base}/api/desk/uploads`, {
      method: 'POST',
      headers: { cookie: writerCookie, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: { code: 'invalid_upload' } });
  });

  it('is an unknown address to anyone but staff', async () => {
    const before = await imageRows();
    for (const cookie of ['', readerCookie]) {
      const response = await upload(photo, { cookie });
      expect(response.status).toBe(404);
    }
    expect(await imageRows()).toBe(before);
  });

  it('serves no file by any other name', async () => {
    for (const name of [
      '..%2F..%2Fetc%2Fpasswd',
      'abcdefghij0123456789-480x640.png',
      'ABCDEFGHIJ0123456789-480x640.webp',
      'abcdefghij0123456789-480x640.webp',
    ]) {
      expect((await fetch(`${t.base}/uploads/${name}`)).status, name).toBe(404);
    }
  });
});

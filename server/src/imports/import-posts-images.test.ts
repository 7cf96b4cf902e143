import { readdir } from 'node:fs/promises';
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '#test/test-app';
import { parseUploadUrl } from '../../../contract/images.js';
import { refusalOf } from '../embeds/outbound.js';
import { writePosts } from './import-posts.js';
import type { PostsDeps } from './post-planning.js';
import type { SourceFile } from './source.js';
import { bundleOf, sourcePost, useImportTarget } from '#test/import-posts-target';

// The images an import's posts name (post-images.ts, fetch-image.ts): stored as uploads, taken
// from the export itself, refused from private addresses, given up past a size or redirects.

describe('the images of imported posts', () => {
  const target = useImportTarget();
  const { write, postsBySlug } = target;
  let pool: pg.Pool;
  let imageBase: string;
  let png: Buffer;
  let deps: PostsDeps;
  let uploadsDir: string;
  beforeAll(() => ({ pool, imageBase, png, deps, uploadsDir } = target));

  it('stores images from the web as uploads, keeps the ones it cannot fetch at their old address, and still imports the post', async () => {
    const unreachable = 'http://127.0.0.1:9/gone.png';
    const outcome = await write(
      bundleOf([
        sourcePost({
          sourceId: 'img',
          slug: 'with-images',
          html:
            `<p>Before.</p><figure><img src="${imageBase}/photo.png" alt="A red square"></figure>` +
            `<p><img src="${imageBase}/moved.png" alt="Again"></p>` +
            `<p><img src="${unreachable}" alt="Lost"></p>`,
          featureImage: { url: `${imageBase}/photo.png`, alt: 'Feature' },
        }),
      ]),
    );
    expect(outcome.posts.created).toBe(1);
    // The same bytes twice (a redirect to the same file): one image.
    expect(outcome.images.stored).toBe(1);
    expect(outcome.images.notFetched).toEqual([
      { url: unreachable, reason: 'the connection was refused' },
    ]);
    const post = (await postsBySlug()).get('with-images');
    const upload = post?.featureImage ?? '';
    expect(parseUploadUrl(upload)).toMatchObject({ width: 40, height: 30 });
    expect(post?.featureImageAlt).toBe('Feature');
    expect(post?.body).toContain(`![A red square](${upload})`);
    expect(post?.body).toContain(`![Again](${upload})`);
    expect(post?.body).toContain(`![Lost](${unreachable})`);
    expect((await pool.query(`SELECT count(*)::int AS n FROM "images"`)).rows[0]).toEqual({ n: 1 });
    expect((await readdir(uploadsDir)).some((name) => name.endsWith('.webp'))).toBe(true);
  });

  it('takes an image from the export itself when its path is one of its files', async () => {
    const file: SourceFile = {
      path: 'content/images/a.png',
      size: png.length,
      read: async () => png,
    };
    const outcome = await write(
      bundleOf(
        [
          sourcePost({
            sourceId: 'zip',
            html: '<p>Words.</p><p><img src="__GHOST_URL__/content/images/a.png" alt="Zipped"></p>',
          }),
        ],
        { files: new Map([['/content/images/a.png', file]]) },
      ),
    );
    expect(outcome.images).toEqual({ stored: 1, notFetched: [] });
  });

  it('refuses to fetch from 127.0.0.1 and other private addresses unless a test allows it', async () => {
    const outcome = await writePosts(
      { ...deps, allowPrivateAddresses: false },
      bundleOf([
        sourcePost({
          sourceId: 'ssrf',
          html: `<p>Words.</p><p><img src="${imageBase}/photo.png" alt="Inside"></p>`,
        }),
      ]),
      { dryRun: false },
    );
    expect(outcome.posts.created).toBe(1);
    expect(outcome.images.stored).toBe(0);
    expect(outcome.images.notFetched).toEqual([
      {
        url: `${imageBase}/photo.png`,
        reason: '127.0.0.1 is a private, loopback or otherwise local address: not fetched',
      },
    ]);
    for (const address of [
      '10.1.2.3',
      '100.64.0.1',
      '169.254.169.254',
      '::1',
      'fd00::1',
      '::ffff:192.168.0.1',
      '224.0.0.1',
    ]) {
      expect(refusalOf(address), address).not.toBeNull();
    }
    expect(refusalOf('93.184.216.34')).toBeNull();
  });

  it('refuses a host name that resolves to a loopback address', async () => {
    const url = imageBase.replace('127.0.0.1', 'localhost');
    const outcome = await writePosts(
      { ...deps, allowPrivateAddresses: false },
      bundleOf([
        sourcePost({
          sourceId: 'named',
          html: `<p>Words.</p><p><img src="${url}/photo.png" alt="Inside"></p>`,
        }),
      ]),
      { dryRun: false },
    );
    expect(outcome.images.notFetched).toEqual([
      {
        url: `${url}/photo.png`,
        reason: expect.stringMatching(
          /^(127\.0\.0\.1|::1) is a private, loopback or otherwise local address: not fetched$/,
        ) as unknown,
      },
    ]);
  });

  it('gives up on an image past UPLOAD_MAX_MB or more than three redirects away', async () => {
    const outcome = await writePosts(
      { ...deps, config: testConfig({ UPLOADS_DIR: uploadsDir, UPLOAD_MAX_MB: '1' }) },
      bundleOf([
        sourcePost({
          sourceId: 'limits',
          html: ['huge', 'declared', 'loop']
            .map((name) => `<p><img src="${imageBase}/${name}.png" alt="${name}"></p>`)
            .join(''),
        }),
      ]),
      { dryRun: false },
    );
    expect(outcome.posts.created).toBe(1);
    expect(outcome.images.notFetched).toEqual(
      expect.arrayContaining([
        { url: `${imageBase}/huge.png`, reason: 'larger than 1 MB (UPLOAD_MAX_MB)' },
        { url: `${imageBase}/declared.png`, reason: 'larger than 1 MB (UPLOAD_MAX_MB)' },
        { url: `${imageBase}/loop.png`, reason: 'more than 3 redirects' },
      ]),
    );
    expect(outcome.images.notFetched).toHaveLength(3);
  });
});

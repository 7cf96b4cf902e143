import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '#test/run-command';
import { bundleOf, sourcePost, useImportTarget } from '#test/import-posts-target';
import { parseUploadUrl } from '../../../contract/images.js';
import { main } from '../cli/import.js';
import { convertMarkdownToTree, findMarkdownProblems } from '../content/markdown-to-tree.js';
import { createMailer } from '../mail/mailer.js';
import { findMissingImages, retryMissingImages } from './missing-images.js';
import { runImport, type ImportDeps } from './run-import.js';

// Images an import could not fetch (missing-images.ts): kept as images at their old addresses
// with their alt text and captions, counted from the posts, and fetched again later.

describe('images an import could not fetch', () => {
  const target = useImportTarget();
  const { write, postsBySlug } = target;
  /** An image host that answers 404 until `answering` is set, as an old site back online. */
  let later: Server;
  let laterBase: string;
  let answering = false;
  let scratch: string;

  beforeAll(async () => {
    later = createServer((request, response) => {
      if (answering && request.url?.endsWith('.png')) {
        response.writeHead(200, { 'content-type': 'image/png' }).end(target.png);
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => later.listen(0, '127.0.0.1', resolve));
    laterBase = `http://127.0.0.1:${(later.address() as AddressInfo).port}`;
    scratch = await mkdtemp(join(tmpdir(), 'cohort-missing-images-'));
  });
  afterAll(async () => {
    await new Promise((resolve) => later.close(resolve));
    await rm(scratch, { recursive: true, force: true });
  });

  const importDeps = (): ImportDeps => ({
    ...target.deps,
    config: target.deps.config as ImportDeps['config'],
    stripe: null,
    mail: createMailer({ smtpUrl: undefined, from: 'site@example.com', log: { info: () => {} } }),
  });

  it('keeps an unreachable image as an image at its old address, with its alt text and caption', async () => {
    answering = false;
    const refused = 'http://127.0.0.1:9/refused.png';
    const gone = `${laterBase}/gone.png`;
    const outcome = await write(
      bundleOf([
        sourcePost({
          sourceId: 'kept',
          slug: 'kept',
          html:
            '<p>Words first.</p>' +
            `<figure><img src="${refused}" alt="A harbour"><figcaption>The harbour at dawn</figcaption></figure>` +
            `<p><img src="${gone}" alt="A boat"></p>`,
          featureImage: { url: gone, alt: 'The cover' },
        }),
      ]),
    );
    expect(outcome.posts.created).toBe(1);
    expect(outcome.images.notFetched).toEqual(
      expect.arrayContaining([
        { url: refused, reason: 'the connection was refused' },
        { url: gone, reason: expect.stringContaining('404') as unknown },
      ]),
    );
    const post = (await postsBySlug()).get('kept');
    expect(post?.body).toContain(`![A harbour](${refused} "The harbour at dawn")`);
    expect(post?.body).toContain(`![A boat](${gone})`);
    expect(post?.body).not.toMatch(/(^|[^!])\[A (harbour|boat)\]\(/);
    expect(post?.featureImage).toBe(gone);
    expect(post?.featureImageAlt).toBe('The cover');
    // The site takes it and draws it as a figure from there, with its caption.
    expect(findMarkdownProblems(post?.body ?? '')).toEqual([]);
    expect(convertMarkdownToTree(post?.body ?? '').children).toContainEqual({
      type: 'remoteImage',
      src: refused,
      alt: 'A harbour',
      caption: 'The harbour at dawn',
    });
    expect(await findMissingImages(target.pool)).toEqual({
      count: 2,
      posts: [
        { id: post?.id, kind: 'article', slug: 'kept', title: 'Post kept', urls: [gone, refused] },
      ],
    });
  });

  it("keeps a WordPress [caption]'s text on an image it could not fetch", async () => {
    const url = 'http://127.0.0.1:9/dog.jpg';
    await write(
      bundleOf([
        sourcePost({
          sourceId: 'wp',
          slug: 'captioned',
          flavour: 'wordpress',
          html: `Before the dog.\n\n[caption id="attachment_7" align="aligncenter" width="300"]<img src="${url}" alt="A dog" width="300" height="200" /> A dog asleep on the beach[/caption]\n\nAfter it.`,
        }),
      ]),
    );
    const post = (await postsBySlug()).get('captioned');
    expect(post?.body).toContain(`![A dog](${url} "A dog asleep on the beach")`);
    expect(convertMarkdownToTree(post?.body ?? '').children).toContainEqual({
      type: 'remoteImage',
      src: url,
      alt: 'A dog',
      caption: 'A dog asleep on the beach',
    });
  });

  it('reports the images still missing after each run and fetches them again on the next', async () => {
    answering = false;
    const image = `${laterBase}/harbour.png`;
    const cover = `${laterBase}/cover.png`;
    const file = join(scratch, 'ghost.json');
    await writeFile(file, JSON.stringify(ghostExport(image, cover)));
    const first = await runImport({ source: 'ghost', path: file }, importDeps());
    expect(first.posts.created).toBe(1);
    expect(first.images.stored).toBe(0);
    expect(first.images.missing).toMatchObject({
      count: 2,
      posts: [{ slug: 'harbour', title: 'The harbour', urls: [cover, image] }],
    });

    // The old site answers again: the next run, with the file unchanged, fetches what it left.
    answering = true;
    const second = await runImport({ source: 'ghost', path: file }, importDeps());
    expect(second.posts.unchanged).toBe(1);
    expect(second.images.stored).toBe(1);
    expect(second.images.missing).toEqual({ count: 0, posts: [] });
    const post = (await postsBySlug()).get('harbour');
    const upload = post?.featureImage ?? '';
    expect(parseUploadUrl(upload)).toMatchObject({ width: 40, height: 30 });
    expect(post?.body).toContain(`![A harbour](${upload} "The harbour at dawn")`);
    expect(post?.body).not.toContain(laterBase);
    expect(post?.version).toBe(2);
    // The rewrite is no staff member's edit: the next import still updates the post.
    const { rows } = await target.pool.query<{ updatedBy: number | null; revisions: number }>(
      `SELECT "updatedBy", (SELECT count(*)::int FROM "post_revisions" r WHERE r."postId" = p."id")
          AS revisions FROM "posts" p WHERE "slug" = 'harbour'`,
    );
    expect(rows).toEqual([{ updatedBy: null, revisions: 1 }]);
  });

  it('retries on its own: fetches, stores and rewrites every post that showed the image', async () => {
    answering = false;
    const shared = `${laterBase}/shared.png`;
    await write(
      bundleOf([
        sourcePost({ sourceId: 's1', slug: 'one', html: `<p><img src="${shared}" alt="One"></p>` }),
        sourcePost({ sourceId: 's2', slug: 'two', html: `<p><img src="${shared}" alt="Two"></p>` }),
      ]),
    );
    const stillDown = await retryMissingImages(target.deps);
    expect(stillDown).toMatchObject({
      fetched: 0,
      postsUpdated: 0,
      notFetched: [{ url: shared, reason: expect.stringContaining('404') as unknown }],
      missing: { count: 1 },
    });
    expect(stillDown.missing.posts.map((post) => post.slug)).toEqual(['one', 'two']);

    answering = true;
    const retry = await retryMissingImages(target.deps);
    expect(retry).toEqual({
      fetched: 1,
      postsUpdated: 2,
      notFetched: [],
      missing: { count: 0, posts: [] },
    });
    const posts = await postsBySlug();
    const upload = /\((\/uploads\/[^)]+)\)/.exec(posts.get('one')?.body ?? '')?.[1] ?? '';
    expect(parseUploadUrl(upload)).not.toBeNull();
    expect(posts.get('two')?.body).toBe(`![Two](${upload})`);
  });

  it('npm run import -- --retry-images says what it fetched and what is still missing, post by post', async () => {
    // The command never fetches from this machine's own addresses: the image stays missing.
    answering = false;
    const url = `${laterBase}/private.png`;
    await write(
      bundleOf([
        sourcePost({ sourceId: 'c', slug: 'cli', html: `<p><img src="${url}" alt="Here"></p>` }),
      ]),
    );
    const env = {
      DATABASE_URL: (target.pool.options as { connectionString: string }).connectionString,
      UPLOADS_DIR: join(scratch, 'uploads'),
    };
    const result = await runCommand(main, ['--retry-images'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      'images fetched again: 0 stored, 0 posts updated',
      'still not fetched:',
      `  ${url}: 127.0.0.1 is a private, loopback or otherwise local address: not fetched`,
      'images still missing: 1, in 1 post (try again: npm run import -- --retry-images)',
      '  "Post c" (article cli):',
      `    ${url}`,
      '',
    ]);
    const json = await runCommand(main, ['--retry-images', '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ fetched: 0, missing: { count: 1 } });
    for (const wrong of [
      ['--retry-images', 'ghost'],
      ['--retry-images', '--dry-run'],
    ]) {
      expect((await runCommand(main, wrong, env)).code, wrong.join(' ')).toBe(2);
    }
  });
});

/** A Ghost export of one post whose image and feature image are on `image` and `cover`. */
function ghostExport(image: string, cover: string) {
  const at = '2021-01-02T03:04:05.000Z';
  return {
    db: [
      {
        meta: { exported_on: 1_700_000_000_000, version: '4.1.0' },
        data: {
          posts: [
            {
              id: 'h1',
              uuid: '5b6b2a49-0000-4000-8000-0000000000h1',
              title: 'The harbour',
              slug: 'harbour',
              html:
                '<p>At the water.</p>' +
                `<figure class="kg-card kg-image-card kg-card-hascaption"><img src="${image}" class="kg-image" alt="A harbour"><figcaption>The harbour at dawn</figcaption></figure>`,
              feature_image: cover,
              status: 'published',
              type: 'post',
              visibility: 'public',
              published_at: at,
              created_at: at,
              updated_at: at,
            },
          ],
          tags: [],
          posts_tags: [],
          users: [],
          posts_authors: [],
        },
      },
    ],
  };
}

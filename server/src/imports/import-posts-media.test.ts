import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleOf, sourcePost, useImportTarget } from '#test/import-posts-target';
import { haveMigrationSamples, sample } from '#test/migration-samples';
import { testConfig } from '#test/test-app';
import { parseMediaUrl } from '../../../contract/media.js';
import { convertMarkdownToTree } from '../content/markdown-to-tree.js';
import { writePosts } from './import-posts.js';
import { readExport } from './read-export.js';

// The audio and video files an import's posts play (post-media.ts): taken like their images and
// stored as media uploads, the post then playing the upload; one that cannot be had stays a link
// to its old address, and the report says why. The embeds come in as cards.

const TONE = readFileSync(
  fileURLToPath(new URL('../../../tests/fixtures/media/tone-3s.mp3', import.meta.url)),
);

describe('the audio and video of imported posts', () => {
  const target = useImportTarget();
  let files: Server;
  let base: string;
  beforeAll(async () => {
    files = createServer((request, response) => {
      if (request.url === '/tone.mp3') {
        response.writeHead(200, { 'content-type': 'audio/mpeg' }).end(TONE);
      } else if (request.url === '/long.mp3') {
        response.writeHead(200).end(Buffer.concat([TONE, Buffer.alloc(1024 * 1024)]));
      } else if (request.url === '/notes.mp3') {
        response.writeHead(200, { 'content-type': 'audio/mpeg' }).end('Not a recording at all.');
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => files.close(resolve)));

  const episode = () =>
    bundleOf([
      sourcePost({
        sourceId: 'ep',
        slug: 'episode-one',
        flavour: 'wordpress',
        html: [
          'Our first episode.',
          `<!-- wp:audio --><figure class="wp-block-audio"><audio controls src="${base}/tone.mp3"></audio><figcaption>Recorded at the harbour</figcaption></figure><!-- /wp:audio -->`,
          `[audio mp3="${base}/tone.mp3"][/audio]`,
          `[audio mp3="${base}/notes.mp3"][/audio]`,
          `[audio mp3="${base}/gone.mp3"][/audio]`,
          'https://www.youtube.com/watch?v=Xk3mPq9zT2w',
        ].join('\n\n'),
      }),
    ]);

  it('stores a file once, plays the upload with its caption, and links the ones it cannot take', async () => {
    const outcome = await target.write(episode());
    expect(outcome.posts.created).toBe(1);
    const body = (await target.postsBySlug()).get('episode-one')?.body ?? '';
    const uploads = [...body.matchAll(/\]\((\/uploads\/[^ )]+)/g)].map((match) => match[1]);
    expect(uploads).toHaveLength(2);
    expect(new Set(uploads).size).toBe(1);
    expect(parseMediaUrl(uploads[0] ?? '')).toMatchObject({ kind: 'audio', duration: 3 });
    expect(body).toBe(
      [
        'Our first episode.',
        `![tone](${uploads[0]} "Recorded at the harbour")`,
        `![tone](${uploads[0]})`,
        `[notes](${base}/notes.mp3)`,
        `[gone](${base}/gone.mp3)`,
        'https://www.youtube.com/watch?v=Xk3mPq9zT2w',
      ].join('\n\n'),
    );
    expect(outcome.notes).toEqual(
      expect.arrayContaining([
        '1 audio and video file stored',
        `audio or video not stored (its posts link to its old address): ${base}/gone.mp3: the server answered 404`,
        `audio or video not stored (its posts link to its old address): ${base}/notes.mp3: not an MP3, M4A or Ogg audio file, nor an MP4 or WebM video`,
      ]),
    );
    const blocks = convertMarkdownToTree(body).children;
    expect(blocks.map((block) => block.type)).toEqual([
      'paragraph',
      'audio',
      'audio',
      'paragraph',
      'paragraph',
      'embed',
    ]);
    expect(blocks[1]).toMatchObject({ caption: 'Recorded at the harbour', duration: 3 });
    const stored = (await readdir(target.uploadsDir)).filter((name) => name.endsWith('.mp3'));
    expect(stored).toEqual([(uploads[0] ?? '').slice('/uploads/'.length)]);
  });

  it('stores nothing in a dry run, and says the same of what it could not take', async () => {
    const before = await readdir(target.uploadsDir);
    const outcome = await target.write(episode(), { dryRun: true });
    expect(outcome.posts.created).toBe(1);
    expect(await readdir(target.uploadsDir)).toEqual(before);
    expect(outcome.notes).toContain(
      `audio or video not stored (its posts link to its old address): ${base}/gone.mp3: the server answered 404`,
    );
    expect(outcome.notes).not.toContain('1 audio and video file stored');
  });

  it('links an audio file past AUDIO_MAX_MB, saying so', async () => {
    const outcome = await writePosts(
      { ...target.deps, config: testConfig({ UPLOADS_DIR: target.uploadsDir, AUDIO_MAX_MB: '1' }) },
      bundleOf([
        sourcePost({
          sourceId: 'long',
          html: `<p>Long.</p><audio src="${base}/long.mp3"></audio>`,
        }),
      ]),
      { dryRun: false },
    );
    expect(outcome.notes).toContain(
      `audio or video not stored (its posts link to its old address): ${base}/long.mp3: larger than 1 MB (AUDIO_MAX_MB)`,
    );
    const body = (await target.postsBySlug()).get('post-long')?.body;
    expect(body).toBe(`Long.\n\n[long](${base}/long.mp3)`);
  });

  it.skipIf(!haveMigrationSamples)(
    "brings WordPress's theme unit test's YouTube, X, Instagram and audio posts as cards and a linked file (skipped without ../shared/migration-samples)",
    async () => {
      // GPL-licensed: read where it is, never copied into the repository.
      const all = await readExport('wordpress', sample('wordpress/theme-unit-test-data.xml'));
      const slugs = [
        'post-format-video-youtube',
        'media-twitter-embeds',
        'blocks-embeds',
        'post-format-audio',
      ];
      const bundle = { ...all, posts: all.posts.filter((post) => slugs.includes(post.slug)) };
      expect(bundle.posts).toHaveLength(4);
      // The tests reach no host on the internet: the audio file's is not reached.
      const outcome = await writePosts({ ...target.deps, fetchRemoteImages: false }, bundle, {
        dryRun: false,
      });
      expect(outcome.posts.created).toBe(4);
      const posts = await target.postsBySlug();
      const blocksOf = (slug: string) =>
        convertMarkdownToTree(posts.get(slug)?.body ?? '').children;
      const embeds = (slug: string) =>
        blocksOf(slug).flatMap((block) =>
          block.type === 'embed' ? [`${block.provider} ${block.url}`] : [],
        );
      expect(embeds('post-format-video-youtube')).toEqual([
        'youtube https://www.youtube.com/watch?v=SQEQr7c0-dw',
      ]);
      expect(embeds('media-twitter-embeds')).toEqual([
        'x https://twitter.com/nacin/status/319508408669708289',
      ]);
      expect(embeds('blocks-embeds')).toEqual([
        'x https://twitter.com/WordPress/status/1057136472321613824',
        'youtube https://youtu.be/ex8fMxXJDJw',
        'instagram https://www.instagram.com/p/BpmueLLgEn_/',
      ]);
      const song =
        'https://wpthemetestdata.files.wordpress.com/2008/06/originaldixielandjazzbandwithalbernard-stlouisblues.mp3';
      expect(posts.get('post-format-audio')?.body).toContain(
        `[originaldixielandjazzbandwithalbernard stlouisblues](${song})`,
      );
      expect(outcome.notes).toContain(
        `audio or video not stored (its posts link to its old address): ${song}: remote files are not fetched`,
      );
    },
  );
});

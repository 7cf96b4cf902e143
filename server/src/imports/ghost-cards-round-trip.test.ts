import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStaff, type Member } from '#test/factories';
import { withSite, type Site } from '#test/with-site';
import { saveCardReading } from '../embeds/card-store.js';
import { importIntoSite, TOUR_VIDEO, tourVideoReading } from '#test/card-readings';

// A post with a YouTube card, a bookmark card, an episode and a clip leaves in the Ghost export
// (the desk's download) as Ghost's embed, bookmark, audio and video cards, and imported from that
// file into a fresh site (`runImport`, source ghost) comes back with the same Markdown: the same
// addresses alone on their lines, and the files stored again under the same addresses.

const OWNER = 'owner@example.com';
const VIDEO = TOUR_VIDEO;
const ARTICLE = 'https://example.org/a-long-read';
const media = fileURLToPath(new URL('../../../tests/fixtures/media/', import.meta.url));

interface ExportedPost {
  slug: string;
  html: string;
}

describe('cards and players through a Ghost export and back', () => {
  let t: Site;
  let owner: Member;
  let folder: string;
  let body = '';
  let exported: ExportedPost[] = [];
  let raw = '';

  async function upload(file: string, type: string): Promise<{ url: string }> {
    const form = new FormData();
    const bytes = file.endsWith('.png')
      ? await sharp({ create: { width: 480, height: 360, channels: 3, background: '#aa3322' } })
          .png()
          .toBuffer()
      : await readFile(join(media, file));
    form.append('file', new Blob([new Uint8Array(bytes)], { type }), file);
    const response = await fetch(`${t.url}/api/desk/uploads`, {
      method: 'POST',
      headers: { cookie: owner.cookie },
      body: form,
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const answer = (await response.json()) as { url?: string; image?: { url: string } };
    return { url: answer.image?.url ?? answer.url ?? '' };
  }

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'cohort-ghost-cards-'));
    t = await withSite({
      listen: true,
      env: { STAFF_EMAILS: OWNER, UPLOADS_DIR: join(folder, 'uploads') },
    });
    [owner] = await buildStaff(t, 'owner');
    const [thumbnail, episode, clip] = await Promise.all([
      upload('thumbnail.png', 'image/png'),
      upload('tone-3s.mp3', 'audio/mpeg'),
      upload('clip-64x48-2s.mp4', 'video/mp4'),
    ]);
    // What was read of the two addresses, as the card reader keeps it (the tests reach no host on
    // the internet): the video's title and thumbnail, the page's title and description.
    await saveCardReading(
      t.database.pool,
      tourVideoReading({ src: thumbnail.url, width: 480, height: 360 }),
    );
    await saveCardReading(t.database.pool, {
      url: ARTICLE,
      state: 'read',
      card: {
        kind: 'bookmark',
        title: 'A long read',
        description: 'On paying rent without dread.',
        siteName: 'Example Weekly',
        image: null,
      },
    });
    body = [
      'A video, a long read and an episode.',
      VIDEO,
      ARTICLE,
      `![Episode 12](${episode.url})`,
      `![A clip](${clip.url} "At dawn")`,
      'The end.',
    ].join('\n\n');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/desk/posts',
      headers: { cookie: owner.cookie },
      payload: {
        kind: 'article',
        category: 'Wealth',
        readingMinutes: 3,
        slug: 'cards-and-players',
        title: 'Cards and Players',
        summary: 'A video, a long read and an episode.',
        body,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { post } = created.json() as { post: { id: number; version: number } };
    const published = await t.app.inject({
      method: 'POST',
      url: `/api/desk/posts/${post.id}/publish`,
      headers: { cookie: owner.cookie },
      payload: { version: post.version },
    });
    expect(published.statusCode, published.body).toBe(200);

    const response = await t.app.inject({
      method: 'GET',
      url: '/api/desk/exports/ghost?format=json',
      headers: { cookie: owner.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    raw = response.body;
    exported = (JSON.parse(raw) as { db: [{ data: { posts: ExportedPost[] } }] }).db[0].data.posts;
  });
  afterAll(async () => {
    await t?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('exports the cards as Ghost’s, with what was read of their addresses', () => {
    const html = exported.find((post) => post.slug === 'cards-and-players')?.html ?? '';
    expect(html).toContain(
      `<figure class="kg-card kg-embed-card" data-url="${VIDEO}"><iframe width="560" height="315" src="https://www.youtube-nocookie.com/embed/hmH3XMlms8E"`,
    );
    expect(html).toContain('title="A tour of the editor"');
    expect(html).toContain(
      `<figure class="kg-card kg-bookmark-card"><a class="kg-bookmark-container" href="${ARTICLE}"><div class="kg-bookmark-content"><div class="kg-bookmark-title">A long read</div><div class="kg-bookmark-description">On paying rent without dread.</div><div class="kg-bookmark-metadata"><span class="kg-bookmark-author">Example Weekly</span></div></div></a></figure>`,
    );
    expect(html).toMatch(
      new RegExp(
        `<div class="kg-card kg-audio-card">.*<audio src="${t.url}/uploads/[a-z0-9]{20}-3s\\.mp3"`,
      ),
    );
    expect(html).toMatch(
      new RegExp(
        `<figure class="kg-card kg-video-card kg-card-hascaption"><div class="kg-video-container"><video src="${t.url}/uploads/[a-z0-9]{20}-64x48-2s\\.mp4"`,
      ),
    );
  });

  it('imported into a fresh site, gives back the same Markdown, its files stored again', async () => {
    const file = join(folder, 'export.json');
    await writeFile(file, raw);
    const freshUploads = join(folder, 'fresh-uploads');
    const fresh = await withSite({
      env: { SITE_URL: 'https://arriving.example.org', UPLOADS_DIR: freshUploads },
    });
    try {
      const report = await importIntoSite(fresh, file);
      expect(report.posts.created).toBe(1);
      const { rows } = await fresh.database.pool.query<{ body: string }>(
        `SELECT body FROM posts WHERE slug = 'cards-and-players'`,
      );
      expect(rows[0]?.body.trim()).toBe(body);
      const files = (await readdir(freshUploads)).filter((name) => /\.(mp3|mp4)$/.test(name));
      expect(files).toHaveLength(2);
      expect(files.sort()).toEqual(
        [...body.matchAll(/\/uploads\/([^ )]+\.(?:mp3|mp4))/g)].map((match) => match[1]).sort(),
      );
    } finally {
      await fresh.close();
    }
  });
});

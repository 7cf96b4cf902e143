import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { haveMigrationSamples, sample } from '#test/migration-samples';
import { TOUR_VIDEO, tourVideoReading } from '#test/card-readings';
import { postWhere } from '#test/source-bundle';
import type { CardReading } from '../../../contract/embeds.js';
import { htmlOfMarkdown } from './ghost-html.js';
import { readGhostJson } from './ghost.js';
import { renderMobiledoc } from './ghost-cards.js';
import { htmlToMarkdown } from './html-to-markdown.js';

// Cards and players leave as Ghost's cards (htmlOfMarkdown, for the export and Ghost's APIs) and
// come back from Ghost's cards as the lines they are in a post: a provider's or a page's address
// alone on its line, an audio or video file as `![title](address "caption")`.

const SITE = 'https://cohort.example';
const fixtures = fileURLToPath(new URL('../../../tests/fixtures/imports/ghost/', import.meta.url));

const VIDEO = TOUR_VIDEO;
const ARTICLE = 'https://example.org/a-long-read?ref=1&page=2';
const POST_ON_X = 'https://x.com/Ghost/status/1395670367216619520';
const EPISODE = '/uploads/abcdefghij0123456789-725s.mp3';
const CLIP = '/uploads/klmnopqrst0123456789-1280x720-95s.mp4';

const READINGS = new Map<string, CardReading>([
  [VIDEO, tourVideoReading()],
  [
    ARTICLE,
    {
      url: ARTICLE,
      state: 'read',
      card: {
        kind: 'bookmark',
        title: 'A long read',
        description: 'On paying rent <without> dread.',
        siteName: 'Example Weekly',
        image: { src: '/uploads/uvwxyz01234567890abc-1200x630.webp', width: 1200, height: 630 },
      },
    },
  ],
]);

const ghostMarkdownOf = (html: string) =>
  htmlToMarkdown(html, { flavour: 'ghost', siteUrl: 'https://old.example' });

describe('htmlOfMarkdown writes cards and players as Ghost’s cards', () => {
  it('writes a provider’s address as an embed card holding its player, never playing by itself', () => {
    expect(htmlOfMarkdown(`Before.\n\n${VIDEO}\n\nAfter.`, SITE, READINGS)).toBe(
      [
        '<p>Before.</p>',
        `<figure class="kg-card kg-embed-card" data-url="${VIDEO}"><iframe width="560" height="315" src="https://www.youtube-nocookie.com/embed/hmH3XMlms8E" frameborder="0" allow="autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture" allowfullscreen title="A tour of the editor"></iframe></figure>`,
        '<p>After.</p>',
      ].join('\n'),
    );
    // Nothing read of it: the player its address names.
    expect(htmlOfMarkdown('https://vimeo.com/76979871', SITE)).toContain(
      '<iframe width="560" height="315" src="https://player.vimeo.com/video/76979871?dnt=1" ',
    );
  });

  it('writes a post on X as Ghost keeps its embed: the quote linking to it, and X’s script', () => {
    expect(htmlOfMarkdown(POST_ON_X, SITE)).toBe(
      `<figure class="kg-card kg-embed-card" data-url="${POST_ON_X}"><blockquote class="twitter-tweet"><a href="${POST_ON_X}">${POST_ON_X}</a></blockquote><script async src="https://platform.twitter.com/widgets.js" charset="utf-8"></script></figure>`,
    );
  });

  it('writes another page as a bookmark card with its title, description, site and picture', () => {
    const escaped = ARTICLE.replace('&', '&amp;');
    expect(htmlOfMarkdown(ARTICLE, SITE, READINGS)).toBe(
      `<figure class="kg-card kg-bookmark-card"><a class="kg-bookmark-container" href="${escaped}"><div class="kg-bookmark-content"><div class="kg-bookmark-title">A long read</div><div class="kg-bookmark-description">On paying rent &lt;without&gt; dread.</div><div class="kg-bookmark-metadata"><span class="kg-bookmark-author">Example Weekly</span></div></div><div class="kg-bookmark-thumbnail"><img src="${SITE}/uploads/uvwxyz01234567890abc-1200x630.webp" alt=""></div></a></figure>`,
    );
    // A page that could not be read is still a card, titled by its address.
    expect(htmlOfMarkdown('https://example.net/gone', SITE)).toContain(
      '<div class="kg-bookmark-title">https://example.net/gone</div>',
    );
    // A link written as one stays a link.
    expect(htmlOfMarkdown(`<${ARTICLE}>\n\nSee ${ARTICLE} too.`, SITE, READINGS)).not.toContain(
      'kg-bookmark',
    );
  });

  it('writes audio and video as Ghost’s players of the file, at the site’s address', () => {
    const audio = htmlOfMarkdown(`![Episode 12](${EPISODE})`, SITE);
    expect(audio).toMatch(/^<div class="kg-card kg-audio-card">/);
    expect(audio).toContain(
      `<div class="kg-audio-player-container"><audio src="${SITE}${EPISODE}" preload="metadata">`,
    );
    expect(audio).toContain('<div class="kg-audio-title">Episode 12</div>');
    expect(audio).toContain('<span class="kg-audio-duration">12:05</span>');
    const video = htmlOfMarkdown(`![A clip](${CLIP} "At dawn")`, SITE);
    expect(video).toMatch(
      new RegExp(
        `^<figure class="kg-card kg-video-card kg-card-hascaption"><div class="kg-video-container"><video src="${SITE}${CLIP}" width="1280" height="720" playsinline preload="metadata">`,
      ),
    );
    expect(video).toContain('<span class="kg-video-duration">1:35</span>');
    expect(video).toMatch(/<figcaption>At dawn<\/figcaption><\/figure>$/);
  });

  it('reads back as the same lines through the Ghost importer’s converter, its files to fetch', () => {
    const lines = [
      'A video, a page, a post and two files.',
      VIDEO,
      ARTICLE,
      POST_ON_X,
      `![Episode 12](${EPISODE})`,
      `![A clip](${CLIP} "At dawn")`,
    ];
    const converted = ghostMarkdownOf(htmlOfMarkdown(lines.join('\n\n'), SITE, READINGS));
    // The files at the old site's address, for the import to fetch and store again.
    expect(converted.markdown).toBe(
      lines.map((line) => line.replace('(/uploads/', `(${SITE}/uploads/`)).join('\n\n'),
    );
    expect(converted.media).toEqual([
      { url: `${SITE}${EPISODE}`, alt: 'Episode 12' },
      { url: `${SITE}${CLIP}`, alt: 'A clip', caption: 'At dawn' },
    ]);
    expect(converted.images).toEqual([]);
    expect(converted.dropped).toEqual([]);
  });
});

describe('Ghost’s cards read as the lines they stand for', () => {
  it('reads the embed and bookmark cards of Ghost’s own v4 export, from its HTML and its mobiledoc', async () => {
    const file = JSON.parse(await readFile(join(fixtures, 'v4_export.json'), 'utf8')) as {
      db: [{ data: { posts: { slug: string; html: string; mobiledoc: string }[] } }];
    };
    const write = file.db[0].data.posts.find((post) => post.slug === 'write');
    if (!write) throw new Error('no post "write" in the v4 export');
    for (const html of [write.html, renderMobiledoc(write.mobiledoc)]) {
      const lines = ghostMarkdownOf(html).markdown.split('\n');
      expect(lines).toContain('https://www.youtube.com/watch?v=hmH3XMlms8E');
      expect(lines).toContain('https://opensubscriptionplatforms.com/');
      expect(lines.filter((line) => /opensubscriptionplatforms|hmH3XMlms8E/.test(line))).toEqual([
        'https://opensubscriptionplatforms.com/',
        'https://www.youtube.com/watch?v=hmH3XMlms8E',
      ]);
    }
  });

  it.skipIf(!haveMigrationSamples)(
    'reads the bookmark card of Ghost’s v3 export in ../shared/migration-samples (skipped when it is absent)',
    async () => {
      const bundle = readGhostJson(await readFile(sample('ghost/v3_export.json'), 'utf8'));
      const editor = postWhere(bundle, 'slug', 'the-editor');
      const lines = ghostMarkdownOf(editor.html).markdown.split('\n');
      expect(lines).toContain('https://ghost.org/');
      expect(lines.join('\n')).not.toContain('Ghost: The #1 open source headless Node.js CMS');
    },
  );

  it('reads a lexical document’s embed, bookmark, video and audio cards (Ghost 5 and 6)', async () => {
    const bundle = readGhostJson(await readFile(join(fixtures, 'ghost-6-lexical.json'), 'utf8'));
    const converted = ghostMarkdownOf(postWhere(bundle, 'slug', 'lexical-cards').html);
    const lines = converted.markdown.split('\n');
    // The address the writer gave, as the lexical card keeps it, not the player's.
    expect(lines).toContain('https://www.youtube.com/watch?v=abc');
    expect(lines).toContain('https://example.org/article');
    expect(lines).toContain('![clip](https://old.example/content/media/2024/01/clip.mp4 "A clip")');
    expect(lines).toContain('![The talk](https://old.example/content/media/2024/01/talk.mp3)');
    // And an image card keeps its caption.
    expect(lines).toContain(
      '![A photo](https://old.example/content/images/2024/01/photo.jpg "Caption text")',
    );
    expect(converted.media.map((file) => file.url)).toEqual([
      'https://old.example/content/media/2024/01/clip.mp4',
      'https://old.example/content/media/2024/01/talk.mp3',
    ]);
  });

  it('reads Ghost’s audio and video cards as its editor draws them, and an embed holding only its address', () => {
    const html = [
      '<div class="kg-card kg-audio-card"><img src="" alt="audio-thumbnail" class="kg-audio-thumbnail kg-audio-hide"><div class="kg-audio-thumbnail placeholder"><svg width="24" height="24" fill="none"><path d="M7.5 15.33"></path></svg></div><div class="kg-audio-player-container"><audio src="__GHOST_URL__/content/media/2024/02/episode-3.mp3" preload="metadata"></audio><div class="kg-audio-title">Episode 3: Rent</div><div class="kg-audio-player"><button class="kg-audio-play-icon"><svg viewBox="0 0 24 24"><path d="M23.14 10.608"></path></svg></button><span class="kg-audio-current-time">0:00</span><div class="kg-audio-time">/<span class="kg-audio-duration">1834</span></div><input type="range" class="kg-audio-seek-slider" max="100" value="0"></div></div></div>',
      '<figure class="kg-card kg-video-card kg-width-regular kg-card-hascaption" data-kg-thumbnail="__GHOST_URL__/content/media/2024/02/walk_thumb.jpg"><div class="kg-video-container"><video src="__GHOST_URL__/content/media/2024/02/walk.mp4" poster="https://img.spacergif.org/v1/1920x1080/0a/spacer.png" width="1920" height="1080" playsinline preload="metadata" style="background: transparent url(\'__GHOST_URL__/content/media/2024/02/walk_thumb.jpg\') 50% 50% / cover no-repeat;"></video><div class="kg-video-overlay"><button class="kg-video-large-play-icon" aria-label="Play video"><svg viewBox="0 0 24 24"></svg></button></div></div><figcaption>The walk <em>home</em></figcaption></figure>',
      '<figure class="kg-card kg-embed-card"><script src="https://gist.github.com/ghost/0123abcd.js"></script></figure>',
    ].join('');
    const converted = ghostMarkdownOf(html);
    expect(converted.markdown).toBe(
      [
        '![Episode 3: Rent](https://old.example/content/media/2024/02/episode-3.mp3)',
        '![walk](https://old.example/content/media/2024/02/walk.mp4 "The walk home")',
        'https://gist.github.com/ghost/0123abcd',
      ].join('\n\n'),
    );
    expect(converted.dropped).toEqual([]);
  });
});

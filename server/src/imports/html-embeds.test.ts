import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { haveMigrationSamples, sample } from '#test/migration-samples';
import { describe, expect, it } from 'vitest';
import type { BlockNode } from '../../../contract/markdown-tree.js';
import { checkAndConvertMarkdown } from '../content/markdown-to-tree.js';
import { htmlToMarkdown, rewriteImages } from './html-to-markdown.js';
import type { HtmlFlavour } from './source.js';

// Embeds, players and captions in WordPress's and Substack's HTML (html-embeds.ts): a provider's
// player or embed code becomes its page's address alone on its line, which the site shows as a
// card (contract/embeds.ts), and an audio or video file a player once the import has stored it.

const IMAGE_UPLOAD = '/uploads/abcdefghij0123456789-1600x900.webp';
const AUDIO_UPLOAD = '/uploads/abcdefghij0123456789-61s.mp3';
const VIDEO_UPLOAD = '/uploads/abcdefghij0123456789-640x360-9s.mp4';

const convert = (html: string, flavour: HtmlFlavour) =>
  htmlToMarkdown(html, { flavour, siteUrl: 'https://blog.example' });

/** The Markdown once its images and media are uploads: what the site shows, and what it refuses. */
function onTheSite(markdown: string): { blocks: BlockNode[]; problems: string[] } {
  const uploaded = rewriteImages(markdown, (image) => ({
    url: /\.(?:mp3|ogg)\b|\/audio\//.test(image.url)
      ? AUDIO_UPLOAD
      : /\.(?:mp4|mov)\b|\/video\//.test(image.url)
        ? VIDEO_UPLOAD
        : IMAGE_UPLOAD,
    alt: image.alt ?? '',
  }));
  const { tree, problems } = checkAndConvertMarkdown(uploaded);
  return { blocks: tree.children, problems };
}

/** The cards a body shows: each embed's provider and address, each bookmark's address. */
const cardsIn = (blocks: BlockNode[]) =>
  blocks.flatMap((block) =>
    block.type === 'embed'
      ? [`${block.provider} ${block.url}`]
      : // Without what was read of it, an address that is no provider's is a link alone.
        block.type === 'paragraph' &&
          block.children.length === 1 &&
          block.children[0]?.type === 'link' &&
          block.children[0].children[0]?.type === 'text' &&
          block.children[0].children[0].value === block.children[0].url
        ? [`page ${block.children[0].url}`]
        : [],
  );

describe('WordPress embeds come in as cards', () => {
  it('makes [embed] and an address alone on its line in classic content each a card', () => {
    const converted = convert(
      [
        'Our talk:',
        '[embed width="640"]https://www.youtube.com/watch?v=Xk3mPq9zT2w[/embed]',
        'https://twitter.com/someone/status/1234567890123456789',
        'https://youtu.be/Xk3mPq9zT2w',
        'An address in a sentence, https://vimeo.com/76979871, stays words.',
        'https://news.example/2024/05/a-story/',
      ].join('\n\n'),
      'wordpress',
    );
    expect(converted.markdown).toBe(
      [
        'Our talk:',
        'https://www.youtube.com/watch?v=Xk3mPq9zT2w',
        'https://twitter.com/someone/status/1234567890123456789',
        'https://youtu.be/Xk3mPq9zT2w',
        'An address in a sentence, https://vimeo.com/76979871, stays words.',
        'https://news.example/2024/05/a-story/',
      ].join('\n\n'),
    );
    const site = onTheSite(converted.markdown);
    expect(site.problems).toEqual([]);
    expect(cardsIn(site.blocks)).toEqual([
      'youtube https://www.youtube.com/watch?v=Xk3mPq9zT2w',
      'x https://twitter.com/someone/status/1234567890123456789',
      'youtube https://youtu.be/Xk3mPq9zT2w',
      'page https://news.example/2024/05/a-story/',
    ]);
  });

  it("makes the block editor's embed blocks cards, each with its caption after it", () => {
    const converted = convert(
      [
        '<!-- wp:embed {"url":"https://vimeo.com/76979871","type":"video","providerNameSlug":"vimeo"} -->\n<figure class="wp-block-embed is-type-video is-provider-vimeo"><div class="wp-block-embed__wrapper">\nhttps://vimeo.com/76979871\n</div><figcaption>The harbour at <em>dawn</em></figcaption></figure>\n<!-- /wp:embed -->',
        '<!-- wp:core-embed/instagram {"url":"https://www.instagram.com/p/Cx7aB-12_Q/?utm_source=ig_web_copy_link\\u0026igshid=abc"} -->\n<figure class="wp-block-embed-instagram wp-block-embed is-provider-instagram"><div class="wp-block-embed__wrapper">\nhttps://www.instagram.com/p/Cx7aB-12_Q/?utm_source=ig_web_copy_link&amp;igshid=abc\n</div></figure>\n<!-- /wp:core-embed/instagram -->',
        '<!-- wp:embed {"url":"https://news.example/2024/05/a-story/"} -->\n<figure class="wp-block-embed"><div class="wp-block-embed__wrapper">https://news.example/2024/05/a-story/</div></figure>\n<!-- /wp:embed -->',
        '<!-- wp:embed -->\n<figure class="wp-block-embed"><div class="wp-block-embed__wrapper">not an address</div></figure>\n<!-- /wp:embed -->',
      ].join('\n\n'),
      'wordpress',
    );
    expect(converted.markdown).toBe(
      [
        'https://vimeo.com/76979871',
        'The harbour at *dawn*',
        'https://www.instagram.com/p/Cx7aB-12_Q/',
        'https://news.example/2024/05/a-story/',
        'not an address',
      ].join('\n\n'),
    );
    const site = onTheSite(converted.markdown);
    expect(site.problems).toEqual([]);
    expect(cardsIn(site.blocks)).toEqual([
      'vimeo https://vimeo.com/76979871',
      'instagram https://www.instagram.com/p/Cx7aB-12_Q/',
      'page https://news.example/2024/05/a-story/',
    ]);
  });

  it('makes the players of known providers cards, and drops any other frame, naming its host', () => {
    const converted = convert(
      [
        '<p>Watch:</p>',
        '<iframe width="560" height="315" src="https://www.youtube-nocookie.com/embed/Xk3mPq9zT2w?start=30" title="A walk"></iframe>',
        '<iframe src="https://player.vimeo.com/video/76979871?h=8272103f6e&amp;badge=0"></iframe>',
        '<iframe src="https://open.spotify.com/embed/episode/4rOoJ6Egrf8K2IrywzwOMk?utm_source=generator"></iframe>',
        '<iframe src="https://embed.podcasts.apple.com/us/podcast/the-long-walk/id1234567890?i=1000600000000"></iframe>',
        '<iframe src="https://platform.twitter.com/embed/Tweet.html?id=1234567890123456789"></iframe>',
        '<iframe src="https://www.instagram.com/reel/Cx7aB-12_Q/embed/captioned/"></iframe>',
        '<iframe src="https://codepen.io/someone/embed/preview/abcXYZ?default-tab=result"></iframe>',
        '<iframe src="https://embed.bsky.app/embed/did:plc:abc123xyz/app.bsky.feed.post/3kq2wz7abcd"></iframe>',
        '<iframe src="https://w.soundcloud.com/player/?url=https%3A%2F%2Fsoundcloud.com%2Fsomeone%2Fa-song&amp;color=%23ff5500"></iframe>',
        '<iframe src="https://mastodon.social/@someone/111222333444555666/embed" class="mastodon-embed"></iframe>',
        '<iframe src="https://ads.example/frame.html"></iframe>',
      ].join('\n'),
      'wordpress',
    );
    expect(converted.markdown).toBe(
      [
        'Watch:',
        'https://www.youtube.com/watch?v=Xk3mPq9zT2w',
        'https://vimeo.com/76979871',
        'https://open.spotify.com/episode/4rOoJ6Egrf8K2IrywzwOMk',
        'https://podcasts.apple.com/us/podcast/the-long-walk/id1234567890?i=1000600000000',
        'https://twitter.com/i/status/1234567890123456789',
        'https://www.instagram.com/reel/Cx7aB-12_Q/',
        'https://codepen.io/someone/pen/abcXYZ',
        'https://bsky.app/profile/did:plc:abc123xyz/post/3kq2wz7abcd',
        'https://soundcloud.com/someone/a-song',
        'https://mastodon.social/@someone/111222333444555666',
      ].join('\n\n'),
    );
    expect(converted.dropped).toEqual(['iframe (ads.example)']);
    const site = onTheSite(converted.markdown);
    expect(site.problems).toEqual([]);
    expect(cardsIn(site.blocks).map((card) => card.split(' ')[0])).toEqual([
      'youtube',
      'vimeo',
      'spotify',
      'apple-podcasts',
      'x',
      'instagram',
      'codepen',
      'bluesky',
      'soundcloud',
      'mastodon',
    ]);
  });

  it("makes the providers' embed codes (X, Instagram, TikTok, Bluesky) their address alone on its line", () => {
    const converted = convert(
      [
        '<blockquote class="twitter-tweet" data-dnt="true"><p lang="en">Off to the coast.</p>&mdash; Someone (@someone) <a href="https://twitter.com/someone/status/1234567890123456789?ref_src=twsrc%5Etfw">May 2, 2024</a></blockquote><script async src="https://platform.twitter.com/widgets.js"></script>',
        '<blockquote class="instagram-media" data-instgrm-permalink="https://www.instagram.com/p/Cx7aB-12_Q/?utm_source=ig_embed&amp;utm_campaign=loading" data-instgrm-version="14"><div><a href="https://www.instagram.com/p/Cx7aB-12_Q/?utm_source=ig_embed">View this post</a></div></blockquote>',
        '<blockquote class="tiktok-embed" cite="https://www.tiktok.com/@someone/video/7301234567890123456" data-video-id="7301234567890123456"><section><a href="https://www.tiktok.com/@someone">@someone</a> A dance</section></blockquote>',
        '<blockquote class="bluesky-embed" data-bluesky-uri="at://did:plc:abc123xyz/app.bsky.feed.post/3kq2wz7abcd"><p>Hello from the sky</p></blockquote>',
        '<blockquote><p>An ordinary quote stays a quote.</p></blockquote>',
      ].join('\n'),
      'wordpress',
    );
    expect(converted.markdown).toBe(
      [
        'https://twitter.com/someone/status/1234567890123456789',
        'https://www.instagram.com/p/Cx7aB-12_Q/',
        'https://www.tiktok.com/@someone/video/7301234567890123456',
        'https://bsky.app/profile/did:plc:abc123xyz/post/3kq2wz7abcd',
        '> An ordinary quote stays a quote.',
      ].join('\n\n'),
    );
    expect(converted.dropped).toEqual(['script']);
    expect(cardsIn(onTheSite(converted.markdown).blocks).map((card) => card.split(' ')[0])).toEqual(
      ['x', 'instagram', 'tiktok', 'bluesky'],
    );
  });

  it('makes [audio], [video] and the audio and video blocks players of their files, with their captions', () => {
    const converted = convert(
      [
        'Listen:',
        '[audio mp3="https://blog.example/wp-content/uploads/2024/05/sea-shanty.mp3"][/audio]',
        '[video width="640" height="360" mp4="/wp-content/uploads/2024/05/harbour-walk.mp4"][/video]',
        '<!-- wp:audio {"id":12} -->\n<figure class="wp-block-audio"><audio controls src="https://blog.example/wp-content/uploads/2024/05/interview.mp3"></audio><figcaption>Our interview with the <em>harbour master</em></figcaption></figure>\n<!-- /wp:audio -->',
        '<!-- wp:video {"id":13} -->\n<figure class="wp-block-video"><video controls poster="https://blog.example/poster.jpg"><source src="https://blog.example/wp-content/uploads/2024/05/boats.mp4" type="video/mp4"></video></figure>\n<!-- /wp:video -->',
        '<div class="wp-block-cover"><video class="wp-block-cover__video-background" autoplay muted loop src="https://blog.example/waves.mp4"></video><div class="wp-block-cover__inner-container"><p>Over the waves</p></div></div>',
      ].join('\n\n'),
      'wordpress',
    );
    expect(converted.markdown).toBe(
      [
        'Listen:',
        '![sea shanty](https://blog.example/wp-content/uploads/2024/05/sea-shanty.mp3)',
        '![harbour walk](https://blog.example/wp-content/uploads/2024/05/harbour-walk.mp4)',
        '![interview](https://blog.example/wp-content/uploads/2024/05/interview.mp3 "Our interview with the harbour master")',
        '![boats](https://blog.example/wp-content/uploads/2024/05/boats.mp4)',
        'Over the waves',
      ].join('\n\n'),
    );
    expect(converted.images).toEqual([]);
    expect(converted.media).toEqual([
      { url: 'https://blog.example/wp-content/uploads/2024/05/sea-shanty.mp3', alt: 'sea shanty' },
      {
        url: 'https://blog.example/wp-content/uploads/2024/05/harbour-walk.mp4',
        alt: 'harbour walk',
      },
      {
        url: 'https://blog.example/wp-content/uploads/2024/05/interview.mp3',
        alt: 'interview',
        caption: 'Our interview with the harbour master',
      },
      { url: 'https://blog.example/wp-content/uploads/2024/05/boats.mp4', alt: 'boats' },
    ]);
    expect(converted.dropped).toEqual(['background video']);
    const site = onTheSite(converted.markdown);
    expect(site.problems).toEqual([]);
    expect(site.blocks.map((block) => block.type)).toEqual([
      'paragraph',
      'audio',
      'video',
      'audio',
      'video',
      'paragraph',
    ]);
    expect(site.blocks[3]).toMatchObject({
      type: 'audio',
      title: 'interview',
      caption: 'Our interview with the harbour master',
    });
  });

  it('keeps the caption of [caption] as its image’s caption', () => {
    const converted = convert(
      '[caption id="attachment_31" align="aligncenter" width="800"]<a href="https://blog.example/wp-content/uploads/lighthouse.jpg"><img class="size-large wp-image-31" src="https://blog.example/wp-content/uploads/lighthouse-800x600.jpg" alt="The lighthouse" width="800" height="600" /></a> The lighthouse at <a href="https://maps.example/point">Point Reyes</a>, at dusk[/caption]\n\nAfter the picture.',
      'wordpress',
    );
    expect(converted.markdown).toBe(
      '![The lighthouse](https://blog.example/wp-content/uploads/lighthouse-800x600.jpg "The lighthouse at Point Reyes, at dusk")\n\nAfter the picture.',
    );
    expect(converted.images).toEqual([
      {
        url: 'https://blog.example/wp-content/uploads/lighthouse-800x600.jpg',
        alt: 'The lighthouse',
        caption: 'The lighthouse at Point Reyes, at dusk',
      },
    ]);
  });

  it('keeps a card among words as a link to its address', () => {
    const converted = convert(
      '<p>Before <iframe src="https://www.youtube.com/embed/Xk3mPq9zT2w"></iframe> after.</p><h2>See <iframe src="https://player.vimeo.com/video/76979871"></iframe></h2><table><tr><td><iframe src="https://player.vimeo.com/video/76979871"></iframe></td></tr></table>',
      'wordpress',
    );
    expect(converted.markdown).toBe(
      [
        'Before',
        'https://www.youtube.com/watch?v=Xk3mPq9zT2w',
        'after.',
        '## See <https://vimeo.com/76979871>',
        // A table without a header keeps none: its one row follows an empty header row.
        '|                              |\n| ---------------------------- |\n| <https://vimeo.com/76979871> |',
      ].join('\n\n'),
    );
    expect(onTheSite(converted.markdown).problems).toEqual([]);
  });
});

describe('embeds in text that shows no cards', () => {
  it('keeps them links, and media files links too, in a comment', () => {
    const converted = htmlToMarkdown(
      'Have you seen this?\n\nhttps://twitter.com/someone/status/1234567890123456789\n\n<audio src="https://blog.example/song.mp3"></audio>',
      { flavour: 'wordpress', cards: false },
    );
    expect(converted.markdown).toBe(
      'Have you seen this?\n\n<https://twitter.com/someone/status/1234567890123456789>\n\n[song](https://blog.example/song.mp3)',
    );
    expect(converted.media).toEqual([]);
  });
});

describe('Substack embeds come in as cards and players', () => {
  it('makes its video, post, social and podcast embeds cards', () => {
    const attrs = (value: Record<string, unknown>) =>
      JSON.stringify(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    const converted = convert(
      [
        `<div id="youtube2-Xk3mPq9zT2w" class="youtube-wrap" data-attrs="${attrs({ videoId: 'Xk3mPq9zT2w', startTime: null })}" data-component-name="Youtube2ToDOM"><div class="youtube-inner"><iframe src="https://www.youtube-nocookie.com/embed/Xk3mPq9zT2w?rel=0&amp;autoplay=0" frameborder="0"></iframe></div></div>`,
        `<div class="tweet" data-attrs="${attrs({ url: 'https://x.com/someone/status/1234567890123456789?s=20', full_text: 'Off to the coast.', username: 'someone' })}" data-component-name="Twitter2ToDOM"><a class="tweet-link-top" href="https://x.com/someone/status/1234567890123456789" target="_blank"><div class="tweet-header"><span>Someone</span></div></a><div class="tweet-text">Off to the coast.</div></div>`,
        `<iframe class="spotify-wrap podcast" data-attrs="${attrs({ image: 'https://i.scdn.co/image/abc', title: 'Episode 3', url: 'https://open.spotify.com/episode/4rOoJ6Egrf8K2IrywzwOMk?si=9f8e7d' })}" src="https://open.spotify.com/embed/episode/4rOoJ6Egrf8K2IrywzwOMk" frameborder="0"></iframe>`,
        `<div class="apple-podcast-container" data-component-name="ApplePodcastToDom"><iframe class="apple-podcast episode-list" data-attrs="${attrs({ url: 'https://embed.podcasts.apple.com/us/podcast/the-long-walk/id1234567890' })}" src="https://embed.podcasts.apple.com/us/podcast/the-long-walk/id1234567890" frameborder="0"></iframe></div>`,
        `<div class="instagram" data-attrs="${attrs({ instagram_id: 'Cx7aB-12_Q', title: 'A boat', author_name: 'someone' })}" data-component-name="InstagramToDOM"><a class="instagram-image" href="https://instagram.com/p/Cx7aB-12_Q" target="_blank"><img src="https://substackcdn.com/image/fetch/ig.jpg"></a></div>`,
        `<div class="bluesky-wrap outer" data-attrs="${attrs({ postId: '3kq2wz7abcd', authorDid: 'did:plc:abc123xyz', authorName: 'Someone', authorHandle: 'someone.bsky.social', text: 'Hello' })}" data-component-name="BlueskyCreateBlueskyEmbed"><iframe src="https://bsky-embed.substack.com/?postId=3kq2wz7abcd"></iframe></div>`,
        `<div class="digest-post-embed" data-attrs="${attrs({ nodeId: 'a1', title: 'Why the tide turns', canonical_url: 'https://tides.substack.com/p/why-the-tide-turns', publication_name: 'Tides' })}" data-component-name="DigestPostEmbed"></div>`,
        `<div class="embedded-post-wrap" data-attrs="${attrs({ id: 42, url: 'https://tides.substack.com/p/low-water?utm_source=substack&utm_campaign=post_embed', title: 'Low water' })}" data-component-name="EmbeddedPostToDOM"><div class="embedded-post"><div class="embedded-post-title">Low water</div></div></div>`,
        // Some of its exports escape an embed's data twice.
        `<div class="embedded-post-wrap" data-attrs="${attrs({ url: 'https://tides.substack.com/p/high-water', title: 'High water' }).replace(/&/g, '&amp;')}"></div>`,
      ].join('\n'),
      'substack',
    );
    expect(converted.markdown).toBe(
      [
        'https://www.youtube.com/watch?v=Xk3mPq9zT2w',
        'https://x.com/someone/status/1234567890123456789',
        'https://open.spotify.com/episode/4rOoJ6Egrf8K2IrywzwOMk',
        'https://podcasts.apple.com/us/podcast/the-long-walk/id1234567890',
        'https://www.instagram.com/p/Cx7aB-12_Q/',
        'https://bsky.app/profile/did:plc:abc123xyz/post/3kq2wz7abcd',
        'https://tides.substack.com/p/why-the-tide-turns',
        'https://tides.substack.com/p/low-water',
        'https://tides.substack.com/p/high-water',
      ].join('\n\n'),
    );
    expect(converted.dropped).toEqual([]);
    const site = onTheSite(converted.markdown);
    expect(site.problems).toEqual([]);
    expect(cardsIn(site.blocks).map((card) => card.split(' ')[0])).toEqual([
      'youtube',
      'x',
      'spotify',
      'apple-podcasts',
      'instagram',
      'bluesky',
      'page',
      'page',
      'page',
    ]);
  });

  it('makes its own audio and video, and any <audio>, players of their files', () => {
    const attrs = (value: Record<string, unknown>) => JSON.stringify(value).replace(/"/g, '&quot;');
    const converted = convert(
      [
        `<div class="native-audio-embed" data-component-name="AudioPlaceholder" data-attrs="${attrs({ label: 'The harbour, read aloud', mediaUploadId: 'c910213c-5c5b-4bcc-98c8-d51ad9807872', duration: 881.2 })}"></div>`,
        `<div class="native-video-embed" data-component-name="VideoPlaceholder" data-attrs="${attrs({ mediaUploadId: 'f045684f-cc9d-41f9-b56c-dc10eb284358', duration: null })}"></div>`,
        `<div class="native-audio-embed" data-attrs="${attrs({ mediaUploadId: '../../elsewhere' })}"></div>`,
        `<div class="native-audio-embed" data-attrs="${attrs({ url: 'https://tides.substack.com/api/v1/audio/upload/ep1.mp3', label: 'Episode 1' })}"></div>`,
        '<audio controls src="https://cdn.example/episodes/ep2.mp3"></audio>',
      ].join('\n'),
      'substack',
    );
    expect(converted.markdown).toBe(
      [
        '![The harbour, read aloud](https://api.substack.com/api/v1/audio/upload/c910213c-5c5b-4bcc-98c8-d51ad9807872/src)',
        '![Video](https://api.substack.com/api/v1/video/upload/f045684f-cc9d-41f9-b56c-dc10eb284358/src)',
        '![Episode 1](https://tides.substack.com/api/v1/audio/upload/ep1.mp3)',
        '![ep2](https://cdn.example/episodes/ep2.mp3)',
      ].join('\n\n'),
    );
    expect(converted.dropped).toEqual(['Substack audio (its address is not in the export)']);
    expect(converted.media.map((file) => file.alt)).toEqual([
      'The harbour, read aloud',
      'Video',
      'Episode 1',
      'ep2',
    ]);
    expect(onTheSite(converted.markdown).blocks.map((block) => block.type)).toEqual([
      'audio',
      'video',
      'audio',
      'audio',
    ]);
  });
});

describe.skipIf(!haveMigrationSamples)(
  "WordPress's theme unit test in ../shared/migration-samples (skipped when it is absent)",
  () => {
    // GPL-licensed: read where it is, never copied into the repository.
    const bodies = (() => {
      if (!haveMigrationSamples) return new Map<string, string>();
      const xml = readFileSync(sample('wordpress/theme-unit-test-data.xml'), 'utf8');
      const parsed = new XMLParser({ parseTagValue: false }).parse(xml) as {
        rss: { channel: { item: Record<string, unknown>[] } };
      };
      return new Map(
        parsed.rss.channel.item.map((item) => [
          String(item['wp:post_name']),
          String(item['content:encoded']),
        ]),
      );
    })();
    const converted = (slug: string) =>
      htmlToMarkdown(bodies.get(slug) ?? '', {
        flavour: 'wordpress',
        siteUrl: 'https://wpthemetestdata.wordpress.com',
      });

    it('shows its YouTube, X and Instagram embeds as cards', () => {
      const cards = (slug: string) => cardsIn(onTheSite(converted(slug).markdown).blocks);
      expect(cards('post-format-video-youtube')).toEqual([
        'youtube https://www.youtube.com/watch?v=SQEQr7c0-dw',
      ]);
      expect(cards('media-twitter-embeds')).toEqual([
        'x https://twitter.com/nacin/status/319508408669708289',
      ]);
      expect(cards('blocks-embeds')).toEqual([
        'x https://twitter.com/WordPress/status/1057136472321613824',
        'youtube https://youtu.be/ex8fMxXJDJw',
        'page https://www.facebook.com/6427302910/posts/10156380423617911/',
        'instagram https://www.instagram.com/p/BpmueLLgEn_/',
        'page https://wordpress.tv/2018/10/14/kjell-reigstad-allan-cole-how-we-made-our-first-gutenberg-powered-theme/',
      ]);
    });

    it('plays its audio post’s shortcode and its audio block', () => {
      const song =
        'https://wpthemetestdata.files.wordpress.com/2008/06/originaldixielandjazzbandwithalbernard-stlouisblues.mp3';
      for (const slug of ['post-format-audio', 'block-category-common']) {
        const { media, markdown } = converted(slug);
        expect(media.map((file) => file.url)).toContain(song);
        expect(onTheSite(markdown).blocks.some((block) => block.type === 'audio')).toBe(true);
      }
    });
  },
);

import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { markdownMarkup } from '../test-support/markdown-markup';
import type { EmbedNode } from '../../../contract/markdown-tree';
import { EmbedFrame } from './embed-card';

const render = (embed: EmbedNode) => markdownMarkup([embed]);

const VIDEO: EmbedNode = {
  type: 'embed',
  url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  provider: 'youtube',
  player: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1',
  title: 'Organising a tenants’ union',
  author: 'Housing Now',
  thumbnail: { src: '/uploads/abcdefghij0123456789-1280x720.webp', width: 1280, height: 720 },
  aspect: 16 / 9,
};

/** Every address the markup would make a browser fetch: sources, images, frames. */
const fetchedAddresses = (html: string) =>
  [...html.matchAll(/\s(?:src|srcSet)="([^"]*)"/g)].flatMap((match) =>
    (match[1] ?? '').split(',').map((candidate) => candidate.trim().split(' ')[0] ?? ''),
  );

describe('an embed card as the server draws it', () => {
  it('is a link to the provider’s page holding the stored thumbnail, the title, the author and the provider', () => {
    const html = render(VIDEO);
    expect(html).toMatch(
      /^<figure class="embed" data-provider="youtube"><a href="https:\/\/www\.youtube\.com\/watch\?v=dQw4w9WgXcQ" class="embed__link" target="_blank" rel="noopener noreferrer">/,
    );
    expect(html).toContain('<span class="embed__title">Organising a tenants’ union</span>');
    expect(html).toContain('<span class="embed__source">Housing Now · YouTube</span>');
    const id = '/uploads/abcdefghij0123456789';
    expect(html).toContain(
      `<source type="image/avif" srcSet="${id}-480x270.avif 480w, ${id}-960x540.avif 960w, ${id}-1280x720.avif 1280w"`,
    );
    expect(html).toMatch(/<img src="[^"]+-1280x720\.webp"[^>]* width="1280" height="720" alt=""/);
    expect(html).toContain('style="aspect-ratio:1.7777777777777777"');
  });

  it('asks no other site for anything: no frame, no button that needs the script, only the site’s own uploads', () => {
    const html = render(VIDEO);
    expect(html).not.toContain('<iframe');
    expect(html).not.toContain('<button');
    expect(html).not.toContain('youtube-nocookie');
    const fetched = fetchedAddresses(html);
    expect(fetched.length).toBeGreaterThan(0);
    expect(fetched.every((address) => address.startsWith('/uploads/'))).toBe(true);
  });

  it('without a stored thumbnail, draws a band in the provider’s colour naming it, and still links out', () => {
    const html = render({ ...VIDEO, thumbnail: null, title: null, author: null, aspect: null });
    expect(html).toContain(
      '<span class="embed__media" style="aspect-ratio:1.7777777777777777"><span class="embed__placeholder" aria-hidden="true">YouTube</span></span>',
    );
    expect(html).toContain('<span class="embed__title">YouTube video</span>');
    expect(html).not.toContain('<img');
  });

  it('draws a thumbnail that is not an upload of this site not at all', () => {
    const html = render({
      ...VIDEO,
      thumbnail: {
        src: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg',
        width: 480,
        height: 360,
      },
    });
    expect(html).not.toContain('ytimg');
    expect(html).not.toContain('<img');
  });

  it('draws a Mastodon post, which has no player, as a card that links to it', () => {
    const html = render({
      type: 'embed',
      url: 'https://social.example/@ana/110000000000000001',
      provider: 'mastodon',
      player: null,
      title: null,
      author: 'Ana',
      thumbnail: null,
      aspect: null,
    });
    expect(html).toContain('href="https://social.example/@ana/110000000000000001"');
    expect(html).toContain('<span class="embed__title">Mastodon post</span>');
    expect(html).toContain('<span class="embed__source">Ana · Mastodon</span>');
    expect(html).toContain('style="aspect-ratio:3"');
  });

  it('draws nothing for an address that is not http(s)', () => {
    expect(render({ ...VIDEO, url: 'javascript:alert(1)' })).toBe('');
  });
});

describe('the player an embed card puts in its place', () => {
  it('frames the player with a title, the features it may use, and only the site’s origin as referrer', () => {
    const html = renderToStaticMarkup(
      <EmbedFrame
        provider="youtube"
        player={VIDEO.player ?? ''}
        title="Organising a tenants’ union (YouTube)"
        aspect={null}
      />,
    );
    expect(html).toBe(
      '<iframe class="embed__frame" src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1" ' +
        'title="Organising a tenants’ union (YouTube)" style="aspect-ratio:1.7777777777777777" ' +
        'allow="autoplay; encrypted-media; picture-in-picture; fullscreen" allowFullScreen="" ' +
        'referrerPolicy="strict-origin-when-cross-origin"></iframe>',
    );
  });

  it('gives a post’s player a height it fits and the width it is made for', () => {
    const html = renderToStaticMarkup(
      <EmbedFrame
        provider="x"
        player="https://platform.twitter.com/embed/Tweet.html?id=1&amp;dnt=true"
        title="A post (X)"
        aspect={null}
      />,
    );
    expect(html).toContain('style="height:560px;max-width:550px"');
  });
});

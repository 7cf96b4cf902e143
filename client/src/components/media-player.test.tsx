import { describe, expect, it } from 'vitest';
import { markdownMarkup } from '../test-support/markdown-markup';
import type { MediaNode } from '../../../contract/markdown-tree';

const render = (media: MediaNode) => markdownMarkup([media]);

const EPISODE: MediaNode = {
  type: 'audio',
  src: '/uploads/abcdefghij0123456789-125s.mp3',
  title: 'Episode 12',
  caption: 'Recorded at the union hall',
  mime: 'audio/mpeg',
  duration: 125,
  width: null,
  height: null,
};

describe('an uploaded recording or video in a post', () => {
  it('draws a recording as a named player that fetches only its first bytes, with its length, its caption and a download for browsers without one', () => {
    expect(render(EPISODE)).toBe(
      '<figure class="media media--audio"><div class="media__head">' +
        '<span class="media__title">Episode 12</span>' +
        '<span class="media__duration"><span class="visually-hidden">Length: </span><time dateTime="PT125S">2:05</time></span></div>' +
        '<audio controls="" preload="metadata" aria-label="Episode 12">' +
        '<source src="/uploads/abcdefghij0123456789-125s.mp3" type="audio/mpeg"/>' +
        '<a href="/uploads/abcdefghij0123456789-125s.mp3" download="">Download Episode 12 (MP3)</a></audio>' +
        '<figcaption>Recorded at the union hall</figcaption></figure>',
    );
  });

  it('sizes a video by its frame, and leaves out a length that could not be read', () => {
    const html = render({
      type: 'video',
      src: '/uploads/abcdefghij0123456789-1920x1080.mp4',
      title: '',
      caption: null,
      mime: 'video/mp4',
      duration: null,
      width: 1920,
      height: 1080,
    });
    expect(html).toContain(
      '<video controls="" preload="metadata" aria-label="Video" width="1920" height="1080">',
    );
    expect(html).toContain('<span class="media__title">Video</span>');
    expect(html).not.toContain('media__duration');
    expect(html).not.toContain('figcaption');
  });

  it('writes an hour-long recording’s length with its hours', () => {
    expect(
      render({ ...EPISODE, src: '/uploads/abcdefghij0123456789-3729s.mp3', duration: 3729 }),
    ).toContain('<time dateTime="PT3729S">1:02:09</time>');
  });

  it('draws no player for a file that is not an upload of this site', () => {
    expect(render({ ...EPISODE, src: 'https://cdn.example/episode.mp3' })).toBe('');
  });
});

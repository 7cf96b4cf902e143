import { describe, expect, it } from 'vitest';
import {
  EMBED_FRAME_HOSTS,
  cardAddressOf,
  embedProviderOf,
  isAllowedPlayer,
  playerOf,
} from '../../contract/embeds.js';
import { formatDuration, mediaUrl, parseMediaUrl } from '../../contract/media.js';

describe('which addresses are embed cards, and what their players are', () => {
  it.each([
    [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'youtube',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1',
    ],
    [
      'https://youtu.be/dQw4w9WgXcQ',
      'youtube',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1',
    ],
    [
      'https://vimeo.com/76979871',
      'vimeo',
      'https://player.vimeo.com/video/76979871?autoplay=1&dnt=1',
    ],
    [
      'https://x.com/nasa/status/1234567890',
      'x',
      'https://platform.twitter.com/embed/Tweet.html?id=1234567890&dnt=true',
    ],
    [
      'https://twitter.com/nasa/status/1234567890',
      'x',
      'https://platform.twitter.com/embed/Tweet.html?id=1234567890&dnt=true',
    ],
    [
      'https://bsky.app/profile/did:plc:abc123/post/3kxyz',
      'bluesky',
      'https://embed.bsky.app/embed/did:plc:abc123/app.bsky.feed.post/3kxyz',
    ],
    ['https://bsky.app/profile/someone.bsky.social/post/3kxyz', 'bluesky', null],
    ['https://mastodon.social/@Gargron/109318882478298612', 'mastodon', null],
    [
      'https://www.instagram.com/p/CxYz123/',
      'instagram',
      'https://www.instagram.com/p/CxYz123/embed/',
    ],
    [
      'https://www.tiktok.com/@someone/video/7234567890123456789',
      'tiktok',
      'https://www.tiktok.com/embed/v2/7234567890123456789',
    ],
    [
      'https://open.spotify.com/episode/4rOoJ6Egrf8K2IrywzwOMk',
      'spotify',
      'https://open.spotify.com/embed/episode/4rOoJ6Egrf8K2IrywzwOMk',
    ],
    [
      'https://soundcloud.com/artist/track-name',
      'soundcloud',
      'https://w.soundcloud.com/player/?url=https%3A%2F%2Fsoundcloud.com%2Fartist%2Ftrack-name&auto_play=true',
    ],
    [
      'https://podcasts.apple.com/us/podcast/the-show/id123456789',
      'apple-podcasts',
      'https://embed.podcasts.apple.com/us/podcast/the-show/id123456789',
    ],
    [
      'https://codepen.io/someone/pen/abcDEF',
      'codepen',
      'https://codepen.io/someone/embed/abcDEF?default-tab=result',
    ],
    ['https://gist.github.com/someone/0123abcd', 'gist', null],
  ] as const)('%s is %s', (address, provider, player) => {
    expect(embedProviderOf(address)).toBe(provider);
    expect(playerOf(provider, address)).toBe(player);
    if (player) expect(isAllowedPlayer(provider, player)).toBe(true);
  });

  it('leaves every other address to be a bookmark or a link', () => {
    for (const address of [
      'https://example.com/an-article',
      'https://www.youtube.com/@channel',
      'https://x.com/nasa',
      'ftp://example.com/file',
      'not an address',
    ]) {
      expect(embedProviderOf(address)).toBeNull();
    }
  });

  it('frames only https players on their own provider’s hosts', () => {
    expect(isAllowedPlayer('youtube', 'https://www.youtube-nocookie.com/embed/x')).toBe(true);
    expect(isAllowedPlayer('youtube', 'http://www.youtube-nocookie.com/embed/x')).toBe(false);
    expect(isAllowedPlayer('youtube', 'https://player.vimeo.com/video/1')).toBe(false);
    expect(isAllowedPlayer('gist', 'https://gist.github.com/a/b.js')).toBe(false);
    expect(EMBED_FRAME_HOSTS).not.toContain('*');
  });

  it('takes an address typed alone on its line, and nothing else', () => {
    expect(cardAddressOf('  https://example.com/post?id=1  ')).toBe(
      'https://example.com/post?id=1',
    );
    expect(cardAddressOf('See https://example.com')).toBeNull();
    expect(cardAddressOf('<https://example.com>')).toBeNull();
    expect(cardAddressOf('[https://example.com](https://example.com)')).toBeNull();
    expect(cardAddressOf('https://localhost')).toBeNull();
    expect(cardAddressOf('javascript:alert(1)')).toBeNull();
  });
});

describe('audio and video addresses', () => {
  it('say the kind, the duration and a video’s size', () => {
    expect(parseMediaUrl('/uploads/abcdefghij0123456789-125s.mp3')).toEqual({
      kind: 'audio',
      id: 'abcdefghij0123456789',
      extension: 'mp3',
      mime: 'audio/mpeg',
      duration: 125,
      width: null,
      height: null,
    });
    expect(parseMediaUrl('/uploads/abcdefghij0123456789-1280x720-61s.webm')).toMatchObject({
      kind: 'video',
      mime: 'video/webm',
      duration: 61,
      width: 1280,
      height: 720,
    });
    expect(parseMediaUrl('/uploads/abcdefghij0123456789.ogg')).toMatchObject({ duration: null });
  });

  it('refuses images, other files and an audio file with a size', () => {
    expect(parseMediaUrl('/uploads/abcdefghij0123456789-1280x720.webp')).toBeNull();
    expect(parseMediaUrl('/uploads/abcdefghij0123456789-1280x720-5s.mp3')).toBeNull();
    expect(parseMediaUrl('/uploads/../etc/passwd-5s.mp3')).toBeNull();
    expect(parseMediaUrl('https://example.com/abcdefghij0123456789-5s.mp3')).toBeNull();
  });

  it('writes back the address it reads', () => {
    const address = '/uploads/abcdefghij0123456789-640x360-3725s.mp4';
    const media = parseMediaUrl(address);
    expect(media && mediaUrl(media)).toBe(address);
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDuration(65)).toBe('1:05');
  });
});

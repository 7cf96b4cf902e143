/*
 * The players a post may embed that the site shows as a link to their own page: videos
 * (YouTube, Vimeo) and podcasts (Spotify, Apple Podcasts). Any other embedded frame is dropped.
 */

/** The page an embedded player's address shows, or null for a player the site does not know. */
export function embedPageOf(src: string): string | null {
  let url: URL;
  try {
    url = new URL(src.startsWith('//') ? `https:${src}` : src);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const path = url.pathname;

  if (/^(?:youtube\.com|youtube-nocookie\.com|m\.youtube\.com)$/.test(host)) {
    const embedded = /^\/(?:embed|v|shorts|live)\/([\w-]{6,})/.exec(path);
    const id = embedded?.[1] ?? (path === '/watch' ? url.searchParams.get('v') : null);
    return id && /^[\w-]+$/.test(id) ? `https://www.youtube.com/watch?v=${id}` : null;
  }
  if (host === 'youtu.be') {
    const id = /^\/([\w-]{6,})/.exec(path)?.[1];
    return id ? `https://www.youtube.com/watch?v=${id}` : null;
  }
  if (host === 'player.vimeo.com' || host === 'vimeo.com') {
    const id = /^\/(?:video\/)?(\d+)/.exec(path)?.[1];
    return id ? `https://vimeo.com/${id}` : null;
  }
  if (host === 'open.spotify.com') {
    const item = /^\/(?:embed(?:-podcast)?\/)?(episode|show|track|album|playlist)\/(\w+)/.exec(
      path,
    );
    return item ? `https://open.spotify.com/${item[1]}/${item[2]}` : null;
  }
  if (host === 'embed.podcasts.apple.com' || host === 'podcasts.apple.com') {
    return `https://podcasts.apple.com${path}${url.search}`;
  }
  return null;
}

/** The host an address names, for the `dropped` list (`iframe (evil.example)`). */
export function hostOf(src: string): string {
  try {
    return new URL(src.startsWith('//') ? `https:${src}` : src).hostname || 'no address';
  } catch {
    return 'no address';
  }
}

import { cardAddressOf, embedProviderOf, youtubeId } from '../../../contract/embeds.js';

/*
 * The addresses an import's embeds come to (contract/embeds.ts): a player's frame, a provider's
 * embed code or a platform's embed block all become the address of the page they show, which the
 * post then holds alone on its line as a card.
 */

/** Query parameters that only say where a link was shared from, on any page and on a provider's. */
const TRACKING = /^(?:utm_\w+|igshid|igsh|ref_src|ref_url|fbclid|gclid)$/i;
const PROVIDER_TRACKING = /^(?:si|feature)$/i;

/** Providers whose post addresses mean nothing by their query: it is all tracking. */
const NO_QUERY = new Set(['x', 'instagram', 'tiktok', 'bluesky', 'mastodon']);

/** An address as a URL, or null: http(s) only, `//host/…` read as https. */
function urlOf(src: string): URL | null {
  try {
    const url = new URL(src.trim().startsWith('//') ? `https:${src.trim()}` : src.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

const hostOfUrl = (url: URL) => url.hostname.toLowerCase().replace(/^www\./, '');

/**
 * The page a player's frame shows, for the providers the site embeds (contract/embeds.ts), or null
 * for a frame that is not one of theirs: `youtube.com/embed/ID` → `youtube.com/watch?v=ID`,
 * `player.vimeo.com/video/ID` → `vimeo.com/ID`, and so on. A provider's page address is itself.
 */
export function embedPageOf(src: string): string | null {
  const url = urlOf(src);
  if (!url) return null;
  const host = hostOfUrl(url);
  const path = url.pathname;
  const page = (address: string) => cleanEmbedAddress(address);

  if (/^(?:m\.)?youtube(?:-nocookie)?\.com$/.test(host) && /^\/(?:embed|v)\//.test(path)) {
    const id = youtubeId(url);
    return id ? page(`https://www.youtube.com/watch?v=${id}`) : null;
  }
  if (host === 'player.vimeo.com') {
    const id = /^\/video\/(\d+)/.exec(path)?.[1];
    return id ? page(`https://vimeo.com/${id}`) : null;
  }
  if (host === 'open.spotify.com') {
    const item = /^\/(?:embed(?:-podcast)?\/)?(episode|show|track|album|playlist)\/(\w+)/.exec(
      path,
    );
    return item ? page(`https://open.spotify.com/${item[1]}/${item[2]}`) : null;
  }
  if (host === 'embed.podcasts.apple.com') {
    return page(`https://podcasts.apple.com${path}${url.search}`);
  }
  if (host === 'platform.twitter.com') {
    const id = url.searchParams.get('id');
    return id && /^\d+$/.test(id) ? page(`https://twitter.com/i/status/${id}`) : null;
  }
  if (host === 'instagram.com') {
    const post = /^\/(?:[^/]+\/)?(p|reel|tv)\/([\w-]+)/.exec(path);
    return post ? page(`https://www.instagram.com/${post[1]}/${post[2]}/`) : null;
  }
  if (host === 'codepen.io') {
    const pen = /^\/([^/]+)\/(?:embed|pen)\/(?:preview\/)?(\w+)/.exec(path);
    return pen ? page(`https://codepen.io/${pen[1]}/pen/${pen[2]}`) : null;
  }
  if (host === 'embed.bsky.app') {
    const post = /^\/embed\/(did:[a-z]+:[\w.:%-]+)\/app\.bsky\.feed\.post\/(\w+)/.exec(path);
    return post ? page(`https://bsky.app/profile/${post[1]}/post/${post[2]}`) : null;
  }
  if (host === 'w.soundcloud.com') {
    // The player names what it plays; only a page on soundcloud.com is an address a card can read.
    const played = urlOf(url.searchParams.get('url') ?? '');
    return played && hostOfUrl(played) === 'soundcloud.com' ? page(played.href) : null;
  }
  // A Mastodon post's frame is the post's own address with `/embed` after it.
  const mastodon = /^(\/@[\w.]+(?:@[\w.-]+)?\/\d+)\/embed\/?$/.exec(path);
  if (mastodon) return page(`${url.origin}${mastodon[1]}`);
  return embedProviderOf(url.href) ? page(url.href) : null;
}

/**
 * An address a post embeds, as a card keeps it: absolute, without what only tracks where it was
 * shared from (`utm_…`, `igshid`, a tweet's `?s=20`), and fit to stand alone on its line
 * (contract cardAddressOf); null when it is not such an address.
 */
export function cleanEmbedAddress(address: string): string | null {
  const url = urlOf(address);
  if (!url) return null;
  const provider = embedProviderOf(url.href);
  if (provider && NO_QUERY.has(provider)) {
    url.search = '';
  } else {
    for (const name of [...url.searchParams.keys()]) {
      if (TRACKING.test(name) || (provider && PROVIDER_TRACKING.test(name))) {
        url.searchParams.delete(name);
      }
    }
  }
  url.hash = provider ? '' : url.hash;
  return cardAddressOf(url.href);
}

/** The host an address names, for the `dropped` list (`iframe (evil.example)`). */
export function hostOf(src: string): string {
  try {
    return new URL(src.startsWith('//') ? `https:${src}` : src).hostname || 'no address';
  } catch {
    return 'no address';
  }
}

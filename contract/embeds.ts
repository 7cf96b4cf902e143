// Cards: a link on a line of its own that a post shows as more than a link (decision note 0029).
// A link to one of the providers below is an embed card: its thumbnail and title, and the
// provider's player only once the reader asks for it. A link to any other page is a bookmark card
// (title, description, site name, image) when its page could be read. The Markdown keeps only the
// address; what was read of it is kept by the server (`embed_cards`) and put into the tree.

/**
 * The providers a post may embed, and the hosts their players load from: the page's
 * Content-Security-Policy allows these frames and no others. A provider without a frame host is
 * shown as a card that links to the post on its own site (Mastodon's servers are too many to list,
 * and a Gist's embed is a script).
 */
export const EMBED_PROVIDERS = {
  youtube: { name: 'YouTube', frameHosts: ['www.youtube-nocookie.com'] },
  vimeo: { name: 'Vimeo', frameHosts: ['player.vimeo.com'] },
  x: { name: 'X', frameHosts: ['platform.twitter.com'] },
  bluesky: { name: 'Bluesky', frameHosts: ['embed.bsky.app'] },
  mastodon: { name: 'Mastodon', frameHosts: [] },
  instagram: { name: 'Instagram', frameHosts: ['www.instagram.com'] },
  tiktok: { name: 'TikTok', frameHosts: ['www.tiktok.com'] },
  spotify: { name: 'Spotify', frameHosts: ['open.spotify.com'] },
  soundcloud: { name: 'SoundCloud', frameHosts: ['w.soundcloud.com'] },
  'apple-podcasts': { name: 'Apple Podcasts', frameHosts: ['embed.podcasts.apple.com'] },
  codepen: { name: 'CodePen', frameHosts: ['codepen.io'] },
  gist: { name: 'GitHub Gist', frameHosts: [] },
} as const satisfies Record<string, { name: string; frameHosts: readonly string[] }>;

export type EmbedProvider = keyof typeof EMBED_PROVIDERS;

/** Every host a player may load from: the CSP's `frame-src`. */
export const EMBED_FRAME_HOSTS: readonly string[] = Object.values(EMBED_PROVIDERS).flatMap(
  (provider) => provider.frameHosts,
);

/** An image a card shows: an upload of this site (contract/images.ts), with its size. */
export interface CardImage {
  src: string;
  width: number;
  height: number;
}

/** What was read of an embed's address: the provider's oEmbed answer or the page's tags. */
export interface EmbedCard {
  kind: 'embed';
  provider: EmbedProvider;
  /** The player loaded when the reader asks for it: https, on one of the provider's frame hosts. */
  player: string | null;
  title: string | null;
  /** The author's name, as the provider gives it. */
  author: string | null;
  /** The provider's thumbnail, stored as an upload of this site. */
  thumbnail: CardImage | null;
  /** The player's width over its height (16/9 for most video), or null for the provider's own. */
  aspect: number | null;
}

/** What was read of any other page: its title, description, site name and image. */
export interface BookmarkCard {
  kind: 'bookmark';
  title: string;
  description: string | null;
  siteName: string | null;
  image: CardImage | null;
}

export type Card = EmbedCard | BookmarkCard;

/** What the server keeps of an address: the card, or why none could be made. */
export type CardReading =
  | { url: string; state: 'read'; card: Card }
  | { url: string; state: 'unreachable'; reason: string };

/** Embed and bookmark addresses: http(s), with no spaces, up to 2,000 characters. */
const CARD_ADDRESS = /^https?:\/\/[^\s<>"]{1,2000}$/i;

/**
 * The address a paragraph holds when it is a card: an http(s) address alone on its line, as
 * typed (not `[text](address)` or `<address>`, which stay links).
 */
export function cardAddressOf(paragraphSource: string): string | null {
  const text = paragraphSource.trim();
  if (!CARD_ADDRESS.test(text)) return null;
  try {
    const url = new URL(text);
    return url.hostname.includes('.') ? text : null;
  } catch {
    return null;
  }
}

/** The host of an address without its `www.`, lower case, or '' when it is not an address. */
function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/^www\./, '');
}

/** The provider an address belongs to, from the address alone; null: not one the site embeds. */
export function embedProviderOf(address: string): EmbedProvider | null {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = hostOf(url);
  const path = url.pathname;
  if (youtubeId(url)) return 'youtube';
  if (host === 'vimeo.com' && /^\/(?:channels\/[^/]+\/|album\/\d+\/video\/)?\d+/.test(path))
    return 'vimeo';
  if (/^(?:mobile\.)?(?:twitter|x)\.com$/.test(host) && /^\/[^/]+\/status\/\d+/.test(path))
    return 'x';
  if (host === 'bsky.app' && /^\/profile\/[^/]+\/post\/[\w]+/.test(path)) return 'bluesky';
  if (host === 'instagram.com' && /^\/(?:[^/]+\/)?(?:p|reel|tv)\/[\w-]+/.test(path))
    return 'instagram';
  if (host === 'tiktok.com' && /^\/@[^/]+\/video\/\d+/.test(path)) return 'tiktok';
  if (host === 'open.spotify.com' && /^\/(?:episode|show|track|album|playlist)\/\w+/.test(path))
    return 'spotify';
  if (host === 'soundcloud.com' && /^\/[^/]+\/[^/]+/.test(path)) return 'soundcloud';
  if (host === 'podcasts.apple.com' && /\/podcast\//.test(path)) return 'apple-podcasts';
  if (host === 'codepen.io' && /^\/[^/]+\/pen\/\w+/.test(path)) return 'codepen';
  if (host === 'gist.github.com' && /^\/[^/]+\/[0-9a-f]+/.test(path)) return 'gist';
  // Mastodon's servers are many: a status address (`/@name/<digits>`) on any host.
  if (/^\/@[\w.]+(?:@[\w.-]+)?\/\d+$/.test(path)) return 'mastodon';
  return null;
}

/** A YouTube video's id, from any of its addresses, or null. */
export function youtubeId(url: URL): string | null {
  const host = hostOf(url);
  const path = url.pathname;
  let id: string | null = null;
  if (host === 'youtu.be') id = /^\/([\w-]{6,})/.exec(path)?.[1] ?? null;
  else if (/^(?:m\.)?youtube(?:-nocookie)?\.com$/.test(host)) {
    id =
      /^\/(?:embed|v|shorts|live)\/([\w-]{6,})/.exec(path)?.[1] ??
      (path === '/watch' ? url.searchParams.get('v') : null);
  }
  return id && /^[\w-]{6,}$/.test(id) ? id : null;
}

/**
 * The player an address loads, when the address alone says it (YouTube, Vimeo, X, Spotify,
 * SoundCloud, CodePen, TikTok, Instagram, Apple Podcasts, and Bluesky when the address names the
 * account by its DID). Others need the provider's oEmbed answer (a Bluesky handle's DID), or have
 * no player.
 */
export function playerOf(provider: EmbedProvider, address: string): string | null {
  const url = new URL(address);
  const path = url.pathname;
  switch (provider) {
    case 'youtube': {
      const id = youtubeId(url);
      return id ? `https://www.youtube-nocookie.com/embed/${id}?autoplay=1` : null;
    }
    case 'vimeo': {
      const id = /(\d+)(?:\/)?$/.exec(path)?.[1] ?? /\/(\d+)/.exec(path)?.[1];
      return id ? `https://player.vimeo.com/video/${id}?autoplay=1&dnt=1` : null;
    }
    case 'x': {
      const id = /\/status\/(\d+)/.exec(path)?.[1];
      return id ? `https://platform.twitter.com/embed/Tweet.html?id=${id}&dnt=true` : null;
    }
    case 'bluesky': {
      const match = /^\/profile\/(did:[a-z]+:[\w.:%-]+)\/post\/(\w+)/.exec(path);
      return match
        ? `https://embed.bsky.app/embed/${match[1]}/app.bsky.feed.post/${match[2]}`
        : null;
    }
    case 'instagram': {
      const match = /\/(p|reel|tv)\/([\w-]+)/.exec(path);
      return match ? `https://www.instagram.com/${match[1]}/${match[2]}/embed/` : null;
    }
    case 'tiktok': {
      const id = /\/video\/(\d+)/.exec(path)?.[1];
      return id ? `https://www.tiktok.com/embed/v2/${id}` : null;
    }
    case 'spotify': {
      const match = /^\/(episode|show|track|album|playlist)\/(\w+)/.exec(path);
      return match ? `https://open.spotify.com/embed/${match[1]}/${match[2]}` : null;
    }
    case 'soundcloud':
      return `https://w.soundcloud.com/player/?url=${encodeURIComponent(`https://soundcloud.com${path}`)}&auto_play=true`;
    case 'apple-podcasts':
      return `https://embed.podcasts.apple.com${path}${url.search}`;
    case 'codepen': {
      const match = /^\/([^/]+)\/pen\/(\w+)/.exec(path);
      return match ? `https://codepen.io/${match[1]}/embed/${match[2]}?default-tab=result` : null;
    }
    case 'mastodon':
    case 'gist':
      return null;
  }
}

/** True when a player's address may be framed: https, on one of its provider's frame hosts. */
export function isAllowedPlayer(provider: EmbedProvider, player: string): boolean {
  try {
    const url = new URL(player);
    const hosts: readonly string[] = EMBED_PROVIDERS[provider].frameHosts;
    return url.protocol === 'https:' && hosts.includes(url.hostname.toLowerCase());
  } catch {
    return false;
  }
}

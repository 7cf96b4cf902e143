import type pg from 'pg';
import {
  embedProviderOf,
  isAllowedPlayer,
  playerOf,
  type BookmarkCard,
  type CardImage,
  type CardReading,
  type EmbedCard,
  type EmbedProvider,
} from '../../../contract/embeds.js';
import { DomainError } from '../domain-error.js';
import type { ImageStore } from '../uploads/image-store.js';
import { ImageStoreError, storeImage } from '../uploads/store-image.js';
import { oembedRequestOf, readOEmbedAnswer, type OEmbedAnswer } from './oembed.js';
import { OutboundError, readOutbound, type OutboundOptions } from './outbound.js';
import {
  attributeIn,
  decodePage,
  firstParagraphOf,
  limit,
  readPageTags,
  TEXT_LIMITS,
  type PageTags,
} from './page-tags.js';

/**
 * What one card's address says (contract/embeds.ts): for a provider's address, its oEmbed answer
 * (the endpoint from the oEmbed project's list), else its page's tags; for any other address, its
 * page's tags as a bookmark. The thumbnail or image is stored as an upload of this site, as the
 * desk's images are, so a reader's browser never asks the provider for it.
 */

/** The largest page or oEmbed answer read: a page's head is at its start. */
export const PAGE_MAX_BYTES = 2 * 1024 * 1024;
const AUTHOR_CHARS = 200;
const REASON_CHARS = 300;

export interface CardSources {
  pool: Pick<pg.Pool, 'query'>;
  imageStore: ImageStore;
  /** The largest image taken (UPLOAD_MAX_MB). */
  maxImageBytes: number;
  outbound: OutboundOptions;
}

interface Reading extends CardSources {
  /** The caller's time for reading cards: past it, nothing is kept of this address. */
  signal?: AbortSignal;
}

/** A page that answered, but with nothing a card can be made of. */
class UnreadableCard extends Error {
  override name = 'UnreadableCard';
}

/**
 * The reading of an address: its card, or why none could be made. Throws the OutboundError that
 * stopped it when `signal` fired first: nothing is known of the address then.
 */
export async function readCard(
  url: string,
  sources: CardSources,
  signal?: AbortSignal,
): Promise<CardReading> {
  const reading: Reading = { ...sources, ...(signal && { signal }) };
  const provider = embedProviderOf(url);
  try {
    const card = provider
      ? await readEmbed(url, provider, reading)
      : await readBookmark(url, reading);
    return { url, state: 'read', card };
  } catch (error) {
    if (error instanceof OutboundError && error.stopped) throw error;
    if (error instanceof OutboundError || error instanceof UnreadableCard) {
      return { url, state: 'unreachable', reason: limit(error.message, REASON_CHARS) as string };
    }
    throw error;
  }
}

async function readEmbed(
  url: string,
  provider: EmbedProvider,
  reading: Reading,
): Promise<EmbedCard> {
  const request = oembedRequestOf(url);
  let problem: string | null = null;
  if (request) {
    try {
      return await embedFromOEmbed(url, provider, await readOEmbed(request, reading), reading);
    } catch (error) {
      if (!(error instanceof OutboundError || error instanceof UnreadableCard)) throw error;
      if (error instanceof OutboundError && error.stopped) throw error;
      problem = `oEmbed: ${error.message}`;
    }
  }
  try {
    return await embedFromPage(url, provider, await readPage(url, reading), reading);
  } catch (error) {
    if (problem === null || !(error instanceof OutboundError || error instanceof UnreadableCard)) {
      throw error;
    }
    if (error instanceof OutboundError && error.stopped) throw error;
    throw new UnreadableCard(`${problem}; page: ${error.message}`);
  }
}

/** An oEmbed answer or a page: at most PAGE_MAX_BYTES of it, refused or cut past that. */
const readText = (url: string, accept: string, overLimit: 'refuse' | 'cut', reading: Reading) =>
  readOutbound(
    url,
    {
      accept,
      maxBytes: PAGE_MAX_BYTES,
      overLimit,
      ...(reading.signal && { signal: reading.signal }),
    },
    reading.outbound,
  );

async function readOEmbed(request: string, reading: Reading): Promise<OEmbedAnswer> {
  const answer = await readText(request, 'application/json', 'refuse', reading);
  let json: unknown;
  try {
    json = JSON.parse(answer.body.toString('utf8'));
  } catch {
    throw new UnreadableCard('the answer is not JSON');
  }
  const oembed = readOEmbedAnswer(json);
  if (!oembed) throw new UnreadableCard('the answer is not an oEmbed document');
  return oembed;
}

async function embedFromOEmbed(
  url: string,
  provider: EmbedProvider,
  oembed: OEmbedAnswer,
  reading: Reading,
): Promise<EmbedCard> {
  // A post quoted as HTML (X, Bluesky, Mastodon) has no title: its first paragraph is its words.
  const title = oembed.title ?? (oembed.html ? firstParagraphOf(oembed.html) : null);
  const player =
    playerOf(provider, url) ?? (oembed.html ? playerInHtml(provider, oembed.html) : null);
  return {
    kind: 'embed',
    provider,
    player: player && isAllowedPlayer(provider, player) ? player : null,
    title: limit(title, TEXT_LIMITS.title),
    author: limit(oembed.authorName, AUTHOR_CHARS),
    thumbnail: oembed.thumbnailUrl ? await storeCardImage(oembed.thumbnailUrl, reading) : null,
    aspect: aspectOf(oembed.width, oembed.height),
  };
}

/**
 * The player an oEmbed answer's HTML names when the address alone does not: a Bluesky post's
 * `at://<did>/app.bsky.feed.post/<rkey>`, whose address names the account by its handle.
 */
function playerInHtml(provider: EmbedProvider, html: string): string | null {
  if (provider !== 'bluesky') return null;
  const uri = attributeIn(html, 'dataBlueskyUri');
  const match = uri && /^at:\/\/(did:[a-z]+:[\w.:%-]+)\/app\.bsky\.feed\.post\/(\w+)$/.exec(uri);
  return match ? `https://embed.bsky.app/embed/${match[1]}/app.bsky.feed.post/${match[2]}` : null;
}

interface Page {
  url: URL;
  tags: PageTags;
}

async function readPage(url: string, reading: Reading): Promise<Page> {
  const answer = await readText(
    url,
    'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
    'cut',
    reading,
  );
  if (
    answer.type !== '' &&
    answer.type !== 'text/html' &&
    answer.type !== 'application/xhtml+xml'
  ) {
    throw new UnreadableCard(`not a web page (${answer.type})`);
  }
  return {
    url: answer.url,
    tags: readPageTags(decodePage(answer.body, answer.charset), answer.url),
  };
}

async function embedFromPage(
  url: string,
  provider: EmbedProvider,
  page: Page,
  reading: Reading,
): Promise<EmbedCard> {
  const { tags } = page;
  // A Mastodon status's page titles itself with its author and describes itself with its words.
  const words = provider === 'mastodon';
  const player = playerOf(provider, url);
  return {
    kind: 'embed',
    provider,
    player: player && isAllowedPlayer(provider, player) ? player : null,
    title: words ? (tags.description ?? tags.title) : tags.title,
    author: words ? limit(tags.title, AUTHOR_CHARS) : null,
    thumbnail: tags.image ? await storeCardImage(tags.image, reading) : null,
    aspect: aspectOf(tags.videoWidth, tags.videoHeight),
  };
}

async function readBookmark(url: string, reading: Reading): Promise<BookmarkCard> {
  const { tags } = await readPage(url, reading);
  if (!tags.title) throw new UnreadableCard('the page has no title');
  return {
    kind: 'bookmark',
    title: tags.title,
    description: tags.description,
    siteName: tags.siteName,
    image: tags.image ? await storeCardImage(tags.image, reading) : null,
  };
}

/**
 * A card's image, stored as an upload (uploads/store-image.ts); null when it cannot be had (the
 * card is still made, without it).
 */
async function storeCardImage(address: string, reading: Reading): Promise<CardImage | null> {
  try {
    const answer = await readOutbound(
      address,
      {
        accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9',
        maxBytes: reading.maxImageBytes,
        overLimit: 'refuse',
        limitName: 'UPLOAD_MAX_MB',
        ...(reading.signal && { signal: reading.signal }),
      },
      reading.outbound,
    );
    const fileName = answer.url.pathname.split('/').pop() || null;
    const stored = await storeImage(reading.pool, reading.imageStore, answer.body, {
      fileName,
      uploadedBy: null,
    });
    return { src: stored.url, width: stored.image.width, height: stored.image.height };
  } catch (error) {
    if (error instanceof OutboundError && error.stopped) throw error;
    if (
      error instanceof OutboundError ||
      error instanceof DomainError ||
      error instanceof ImageStoreError
    ) {
      return null;
    }
    throw error;
  }
}

/** A player's width over its height, kept to three decimals; null when either is unknown. */
function aspectOf(width: number | null, height: number | null): number | null {
  return width && height ? Math.round((width / height) * 1000) / 1000 : null;
}

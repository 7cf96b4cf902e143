import type { Element, Nodes as HastNodes, Properties } from 'hast';
import { toHtml } from 'hast-util-to-html';
import type { Nodes as MdastNodes, Paragraph, Parent as MdastParent } from 'mdast';
import { toHast } from 'mdast-util-to-hast';
import {
  embedProviderOf,
  playerOf,
  youtubeId,
  type Card,
  type EmbedCard,
  type EmbedProvider,
} from '../../../contract/embeds.js';
import { parseMediaUrl } from '../../../contract/media.js';
import { splitAtDivider } from '../../../contract/posts.js';
import {
  cardAddressIn,
  imageAlone,
  parseSiteMarkdown,
  type CardReadings,
} from '../content/markdown-to-tree.js';
import { escapeHtml, renderCard } from './ghost-cards.js';
import { markStructuresForHtml, STRUCTURE_HTML_HANDLERS } from './ghost-structures.js';

// A post's Markdown as the HTML Ghost stores (the export, the Content and Admin APIs): the
// members-only divider as Ghost's, links' choice of tab, this site's paths made absolute, and the
// cards and players as Ghost's cards.

/** A path on this site (an upload, a link to another post) as the absolute address Ghost needs. */
export function absolute(siteUrl: string, url: string): string {
  if (!url.startsWith('/') || url.startsWith('//')) return url;
  return new URL(url, siteUrl).href;
}

/** Ghost's own members-only divider: readers who may not see the rest get what comes before it. */
const GHOST_DIVIDER = '<!--members-only-->';

/**
 * Raw HTML in a body is not shown by the site (markdown-to-tree.ts drops it), so it is not exported
 * either, except the members-only divider, which becomes Ghost's.
 */
function keepOnlyDivider(node: MdastNodes): void {
  if (!('children' in node)) return;
  const parent = node as MdastParent;
  parent.children = parent.children.filter(
    (child) => child.type !== 'html' || splitAtDivider(child.value.trim()).after !== null,
  );
  for (const child of parent.children) {
    if (child.type === 'html') child.value = GHOST_DIVIDER;
    else keepOnlyDivider(child);
  }
}

/**
 * A link's own choice of tab (contract/link-target.ts) as Ghost keeps it, in the link's HTML: a new
 * tab without an opener or referrer, as the site draws it, or the same tab said outright.
 */
function keepLinkTargets(node: MdastNodes): void {
  if ((node.type === 'link' || node.type === 'linkReference') && node.data?.target) {
    const properties: Properties =
      node.data.target === '_blank'
        ? { target: '_blank', rel: ['noopener', 'noreferrer'] }
        : { target: '_self' };
    node.data.hProperties = properties;
  }
  if ('children' in node) for (const child of node.children) keepLinkTargets(child);
}

/** The footnotes' heading, written for screen readers only: a theme without the class shows it. */
const isFootnoteLabel = (node: HastNodes) =>
  node.type === 'element' && node.tagName === 'h2' && node.properties.id === 'footnote-label';

/**
 * How an address on this site is written out: made absolute for a site at another address, or
 * (an export's zip) an upload pointed at its copy inside the zip.
 */
export type AddressOf = (url: string) => string;

/**
 * Links and images to this site's own paths written out (`addressOf`), and the footnotes' hidden
 * heading taken out.
 */
function finishHtmlTree(node: HastNodes, addressOf: AddressOf): void {
  if (node.type === 'element') {
    const element = node as Element;
    for (const name of ['href', 'src'] as const) {
      const value = element.properties[name];
      if (typeof value === 'string') element.properties[name] = addressOf(value);
    }
  }
  if (!('children' in node)) return;
  node.children = node.children.filter((child) => !isFootnoteLabel(child)) as typeof node.children;
  for (const child of node.children) finishHtmlTree(child, addressOf);
}

/**
 * The cards and players of a body (contract/embeds.ts, contract/media.ts) as Ghost's cards: each
 * paragraph that is one becomes the card's HTML, as Ghost's editor writes it, from what was read
 * of its address (`cards`).
 */
function writeGhostCards(
  node: MdastNodes,
  markdown: string,
  addressOf: AddressOf,
  cards: CardReadings,
): void {
  if (!('children' in node)) return;
  const parent = node as MdastParent;
  parent.children = parent.children.map((child) => {
    const html = child.type === 'paragraph' ? ghostCardOf(child, markdown, addressOf, cards) : null;
    if (html === null) writeGhostCards(child, markdown, addressOf, cards);
    return html === null ? child : { type: 'html', value: html };
  }) as MdastParent['children'];
}

/** The Ghost card a paragraph is, as HTML; null for a paragraph that is none. */
function ghostCardOf(
  paragraph: Paragraph,
  markdown: string,
  addressOf: AddressOf,
  cards: CardReadings,
): string | null {
  const image = imageAlone(paragraph);
  const media = image && parseMediaUrl(image.url);
  const caption = image?.title?.trim() ?? '';
  if (image && !media) {
    // Ghost's image card: the caption (the Markdown image's title) in the figure's figcaption.
    return renderCard('image', {
      src: addressOf(image.url),
      alt: image.alt?.trim() ?? '',
      caption: escapeHtml(caption),
    });
  }
  if (image && media) {
    const src = addressOf(image.url);
    const title = image.alt?.trim() ?? '';
    const { duration, width, height } = media;
    if (media.kind === 'video') {
      return renderCard('video', {
        src,
        fileName: title,
        caption: escapeHtml(caption),
        width,
        height,
        duration,
      });
    }
    // Ghost's audio card has a title and no caption: the caption is the paragraph after it.
    const card = renderCard('audio', { src, title, duration });
    return caption ? `${card}<p>${escapeHtml(caption)}</p>` : card;
  }
  const url = cardAddressIn(paragraph, markdown);
  if (!url) return null;
  const reading = cards.get(url);
  const card = reading?.state === 'read' ? reading.card : null;
  const provider = embedProviderOf(url);
  // A gist's embed is a script, which Ghost's editor has no embed for: it keeps a bookmark.
  if (provider && provider !== 'gist') {
    const embed = card?.kind === 'embed' && card.provider === provider ? card : null;
    return renderCard('embed', { url, html: providerHtml(provider, url, embed) });
  }
  return renderCard('bookmark', { url, metadata: bookmarkMetadata(url, card, addressOf) });
}

/**
 * What Ghost's bookmark card shows of a page: what was read of it, else its address alone (a
 * page that could not be read is still the post's card, and comes back as one).
 */
function bookmarkMetadata(url: string, card: Card | null, addressOf: AddressOf) {
  const image = card?.kind === 'bookmark' ? card.image : (card?.thumbnail ?? null);
  return {
    title: card?.title ?? url,
    description: card?.kind === 'bookmark' ? (card.description ?? '') : '',
    publisher: card?.kind === 'bookmark' ? (card.siteName ?? '') : (card?.author ?? ''),
    thumbnail: image ? addressOf(image.src) : '',
  };
}

/** A player's address as a page shows it at once: not playing before the reader asks. */
function withoutAutoplay(player: string): string {
  const url = new URL(player);
  url.searchParams.delete('autoplay');
  url.searchParams.delete('auto_play');
  return url.href;
}

/** The height of a provider's player in Ghost's card, when its width over height is not known. */
const PLAYER_HEIGHTS: Partial<Record<EmbedProvider, number>> = {
  spotify: 152,
  soundcloud: 166,
  'apple-podcasts': 175,
  codepen: 300,
};

/**
 * An embed's HTML as Ghost keeps it in its card (the provider's oEmbed answer): the player's
 * iframe, or for the providers whose embed is a quote of the post and a script (X, Bluesky,
 * Mastodon, Instagram, TikTok) that quote, linking to the post.
 */
function providerHtml(provider: EmbedProvider, url: string, embed: EmbedCard | null): string {
  const title = embed?.title ?? '';
  const author = embed?.author ?? '';
  const link = `<a href="${escapeHtml(url)}">${escapeHtml(title || url)}</a>`;
  const quote = (className: string, script: string) =>
    `<blockquote class="${className}">${title ? `<p>${escapeHtml(title)}</p>` : ''}` +
    `${author ? `&mdash; ${escapeHtml(author)} ` : ''}<a href="${escapeHtml(url)}">${escapeHtml(url)}</a></blockquote>` +
    `<script async src="${script}" charset="utf-8"></script>`;
  switch (provider) {
    case 'x':
      return quote('twitter-tweet', 'https://platform.twitter.com/widgets.js');
    case 'bluesky':
      return quote('bluesky-embed', 'https://embed.bsky.app/static/embed.js');
    case 'mastodon':
      return quote('mastodon-embed', `${new URL(url).origin}/embed.js`);
    case 'instagram':
      return `<blockquote class="instagram-media" data-instgrm-permalink="${escapeHtml(url)}" data-instgrm-version="14">${link}</blockquote><script async src="https://www.instagram.com/embed.js"></script>`;
    case 'tiktok': {
      const id = /\/video\/(\d+)/.exec(new URL(url).pathname)?.[1] ?? '';
      return `<blockquote class="tiktok-embed" cite="${escapeHtml(url)}" data-video-id="${id}"><section>${link}</section></blockquote><script async src="https://www.tiktok.com/embed.js"></script>`;
    }
    default: {
      const player = embed?.player ?? playerOf(provider, url);
      if (!player) return link;
      const aspect = embed?.aspect ?? (youtubeId(new URL(url)) ? 16 / 9 : null);
      const height = aspect ? Math.round(560 / aspect) : (PLAYER_HEIGHTS[provider] ?? 315);
      return `<iframe width="560" height="${height}" src="${escapeHtml(withoutAutoplay(player))}" frameborder="0" allow="autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture" allowfullscreen title="${escapeHtml(title || EMBED_TITLES[provider])}"></iframe>`;
    }
  }
}

/** A player's accessible name when the provider gave no title. */
const EMBED_TITLES: Record<EmbedProvider, string> = {
  youtube: 'YouTube video',
  vimeo: 'Vimeo video',
  x: 'Post on X',
  bluesky: 'Post on Bluesky',
  mastodon: 'Post on Mastodon',
  instagram: 'Instagram post',
  tiktok: 'TikTok video',
  spotify: 'Spotify player',
  soundcloud: 'SoundCloud player',
  'apple-podcasts': 'Apple Podcasts player',
  codepen: 'CodePen',
  gist: 'GitHub Gist',
};

/**
 * A post's Markdown as the HTML Ghost stores, its cards and players as Ghost's cards from what was
 * read of their addresses (`cards`: the server's `embed_cards`; without them, a card says what its
 * address alone does). The site's own addresses are made absolute, unless `addressOf` writes
 * them otherwise.
 */
export function htmlOfMarkdown(
  markdown: string,
  siteUrl: string,
  cards: CardReadings = new Map(),
  addressOf: AddressOf = (url) => absolute(siteUrl, url),
): string {
  const tree = parseSiteMarkdown(markdown);
  keepOnlyDivider(tree);
  keepLinkTargets(tree);
  markStructuresForHtml(tree, markdown);
  writeGhostCards(tree, markdown, addressOf, cards);
  const hast = toHast(tree, { allowDangerousHtml: true, handlers: STRUCTURE_HTML_HANDLERS });
  finishHtmlTree(hast, addressOf);
  return toHtml(hast, { allowDangerousHtml: true });
}

/** Ghost 5's editor document for an HTML body: one HTML card that holds it. */
export function lexicalOfHtml(html: string): string {
  return JSON.stringify({
    root: {
      children: [{ type: 'html', version: 1, html }],
      direction: null,
      format: '',
      indent: 0,
      type: 'root',
      version: 1,
    },
  });
}

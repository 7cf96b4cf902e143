import type { Element, ElementContent } from 'hast';
import { cleanEmbedAddress, embedPageOf, hostOf } from './embed-links.js';
import {
  attribute,
  CARD_TAG,
  classesOf,
  dataAttrs,
  element,
  fileWords,
  find,
  hasClass,
  MEDIA_TAG,
  stringIn,
  text,
  textOf,
  words,
} from './html-nodes.js';
import { note } from './wordpress-html.js';

/*
 * The embeds of a post's HTML, as the site keeps them (decision note 0029): a player, a
 * provider's embed code or a platform's embed block becomes the address of what it shows, alone
 * on its line (a card: CARD_TAG), and an audio or video file becomes a player of that file once
 * the import has stored it (MEDIA_TAG). Called by html-cleanup.ts for each element, while the
 * platforms' classes and data attributes still say what a piece of markup is.
 */

export interface EmbedContext {
  dropped: string[];
  /** A media file's address, absolute or a path on the old site; null when it names none. */
  resolveMedia: (raw: string) => string | null;
}

type MediaKind = 'audio' | 'video';

/** An address that names a sound file (or Substack's audio uploads), not a page about one. */
const AUDIO_FILE = /\.(?:mp3|m4a|ogg|oga|opus|aac|wav)(?:[?#]|$)|\/audio\/upload\//i;

/** Substack's ids of its own uploads, put into an address as they are: nothing else passes. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The embeds, players and media files an element is; undefined for any other element. */
export function rewriteEmbed(
  node: Element,
  classes: readonly string[],
  context: EmbedContext,
): ElementContent[] | undefined {
  const has = (name: string) => classes.includes(name);
  const attrs = dataAttrs(node);

  // WordPress's embed blocks keep the address they embed as their text, and a caption.
  if (has('wp-block-embed')) {
    const wrapper = find(node, (child) => hasClass(child, 'wp-block-embed__wrapper')) ?? node;
    const address = words(textOf(wrapper));
    return cardOf(embedPageOf(address) ?? address, captionOf(node)) ?? undefined;
  }
  if (node.tagName === 'figure') {
    const player = find(node, (child) => child.tagName === 'audio' || child.tagName === 'video');
    if (player) return mediaElement(player, context, { caption: captionText(node) });
  }

  // The providers' own embed codes: a quote of the post, a link to it, and their script.
  if (has('twitter-tweet') || has('tweet')) {
    const status = find(node, (child) =>
      /(?:twitter|x)\.com\/[^/]+\/status\/\d+/i.test(attribute(child, 'href') ?? ''),
    );
    return quoteCard(stringIn(attrs, 'url') ?? (status && attribute(status, 'href')));
  }
  if (has('instagram-media')) {
    const permalink = find(node, (child) =>
      /instagram\.com\//.test(attribute(child, 'href') ?? ''),
    );
    return quoteCard(
      attribute(node, 'dataInstgrmPermalink') ?? (permalink && attribute(permalink, 'href')),
    );
  }
  if (has('tiktok-embed')) return quoteCard(attribute(node, 'cite'));
  if (has('bluesky-embed') || has('mastodon-embed')) {
    const post = find(node, (child) => embedPageOf(attribute(child, 'href') ?? '') !== null);
    return quoteCard(
      attribute(node, 'dataEmbedUrl') ??
        blueskyPostOf(attribute(node, 'dataBlueskyUri')) ??
        (post && attribute(post, 'href')) ??
        attribute(node, 'src'),
    );
  }

  const substack = substackEmbed(node, classes, attrs, context);
  if (substack !== undefined) return substack;

  switch (node.tagName) {
    case 'iframe': {
      const src = attribute(node, 'src') ?? attribute(node, 'dataSrc') ?? '';
      const card = cardOf(embedPageOf(src));
      if (card) return card;
      note(context.dropped, `iframe (${hostOf(src)})`);
      return [];
    }
    case 'audio':
    case 'video':
      return mediaElement(node, context);
    default:
      return undefined;
  }
}

/** Substack's embeds, which say what they show in their `data-attrs`. */
function substackEmbed(
  node: Element,
  classes: readonly string[],
  attrs: Record<string, unknown>,
  context: EmbedContext,
): ElementContent[] | undefined {
  const has = (name: string) => classes.includes(name);
  const videoId = stringIn(attrs, 'videoId');
  if (has('youtube-wrap') && videoId && /^[\w-]+$/.test(videoId)) {
    return cardOf(`https://www.youtube.com/watch?v=${videoId}`) ?? undefined;
  }
  if (has('vimeo-wrap') && videoId && /^\d+$/.test(videoId)) {
    return cardOf(`https://vimeo.com/${videoId}`) ?? undefined;
  }
  if (has('instagram')) {
    const id = stringIn(attrs, 'instagram_id');
    const image = find(node, (child) => hasClass(child, 'instagram-image'));
    const address =
      id && /^[\w-]+$/.test(id)
        ? `https://www.instagram.com/p/${id}/`
        : image && attribute(image, 'href');
    return cardOf(address) ?? undefined;
  }
  if (has('bluesky-wrap')) {
    const did = stringIn(attrs, 'authorDid');
    const postId = stringIn(attrs, 'postId');
    if (did && postId && /^did:[a-z]+:[\w.:%-]+$/.test(did) && /^\w+$/.test(postId)) {
      return cardOf(`https://bsky.app/profile/${did}/post/${postId}`) ?? undefined;
    }
    return undefined;
  }
  if (has('digest-post-embed')) return cardOf(stringIn(attrs, 'canonical_url')) ?? undefined;
  if (has('embedded-post-wrap') || has('embedded-post') || has('embedded-publication-wrap')) {
    return cardOf(stringIn(attrs, 'url') ?? stringIn(attrs, 'base_url')) ?? undefined;
  }
  if (has('native-audio-embed') || has('native-video-embed')) {
    const kind: MediaKind = has('native-video-embed') ? 'video' : 'audio';
    const upload = stringIn(attrs, 'mediaUploadId');
    const src =
      stringIn(attrs, 'url') ??
      stringIn(attrs, 'src') ??
      stringIn(attrs, 'audioUrl') ??
      (upload && UUID.test(upload)
        ? `https://api.substack.com/api/v1/${kind}/upload/${upload}/src`
        : undefined);
    if (!src) {
      note(context.dropped, `Substack ${kind} (its address is not in the export)`);
      return [];
    }
    return mediaOf(
      src,
      kind,
      { title: stringIn(attrs, 'label') ?? stringIn(attrs, 'title') },
      context,
    );
  }
  if (classes.some((name) => /audio|podcast|spotify|soundcloud/.test(name))) {
    // Podcast players: a card of the episode's page, else a player of the file they play.
    const href = stringIn(attrs, 'url') ?? stringIn(attrs, 'src') ?? stringIn(attrs, 'audioUrl');
    if (!href) return undefined;
    const page = embedPageOf(href);
    if (page) return cardOf(page) ?? undefined;
    if (!AUDIO_FILE.test(href)) return cardOf(href) ?? undefined;
    const title = stringIn(attrs, 'title') ?? stringIn(attrs, 'label');
    return mediaOf(href, 'audio', { title }, context);
  }
  return undefined;
}

/** A provider's embed code as its card, or undefined (its quote stays) when it names no post. */
function quoteCard(address: string | undefined): ElementContent[] | undefined {
  if (!address) return undefined;
  return cardOf(embedPageOf(address) ?? address) ?? undefined;
}

/** `at://did:plc:…/app.bsky.feed.post/<id>` as the post's page on bsky.app. */
function blueskyPostOf(uri: string | undefined): string | undefined {
  const match = /^at:\/\/(did:[a-z]+:[\w.:%-]+)\/app\.bsky\.feed\.post\/(\w+)$/.exec(uri ?? '');
  return match ? `https://bsky.app/profile/${match[1]}/post/${match[2]}` : undefined;
}

/**
 * An address alone on its line (a card), with the caption it had as a paragraph after it; null
 * when it is not an address a card can hold.
 */
export function cardOf(
  address: string | null | undefined,
  caption: ElementContent[] = [],
): ElementContent[] | null {
  const clean = address ? cleanEmbedAddress(address) : null;
  if (!clean) return null;
  // In a paragraph of its own, as an image is: among words, html-cleanup.ts unwraps it. Its
  // address is its text too, so the spaces beside it among words are kept.
  const card = element('p', {}, [element(CARD_TAG, { href: clean }, [text(clean)])]);
  return caption.length > 0 ? [card, element('p', {}, caption)] : [card];
}

/** A figure's caption, as the inline content it holds (none when it has no words). */
export function captionOf(node: Element): ElementContent[] {
  const figcaption = find(node, (child) => child.tagName === 'figcaption');
  return figcaption && words(textOf(figcaption)) !== '' ? figcaption.children : [];
}

/** A figure's caption, as words. */
const captionText = (node: Element) => words(captionOf(node).map(textOf).join('')) || undefined;

/**
 * An `<audio>` or `<video>` as the file it plays (its `src`, else its first `<source>`), named by
 * the title given or its own; a video that only moves behind a block (a cover's) is dropped, named.
 */
export function mediaElement(
  node: Element,
  context: EmbedContext,
  about: { title?: string | undefined; caption?: string | undefined } = {},
): ElementContent[] {
  const kind: MediaKind = node.tagName === 'video' ? 'video' : 'audio';
  if (classesOf(node).some((name) => /background/.test(name))) {
    note(context.dropped, 'background video');
    return [];
  }
  const source = find(node, (child) => child.tagName === 'source' && !!attribute(child, 'src'));
  const src = attribute(node, 'src') ?? (source && attribute(source, 'src'));
  const title = about.title ?? attribute(node, 'title');
  return mediaOf(src, kind, { title, caption: about.caption }, context);
}

/**
 * An audio or video file on a line of its own, for the import to store: titled by what the post
 * called it, else by its file's name, else "Audio" or "Video".
 */
function mediaOf(
  src: string | undefined,
  kind: MediaKind,
  about: { title?: string | undefined; caption?: string | undefined },
  context: EmbedContext,
): ElementContent[] {
  const url = src ? context.resolveMedia(src) : null;
  if (!url) {
    note(context.dropped, `${kind} (no address)`);
    return [];
  }
  const named = /\/[^/?#]+\.[a-z0-9]{2,5}(?:[?#]|$)/i.test(url) ? fileWords(url) : '';
  const title = words(about.title ?? '') || named || (kind === 'audio' ? 'Audio' : 'Video');
  const caption = words(about.caption ?? '');
  const properties = { src: url, alt: title, ...(caption ? { title: caption } : {}) };
  const file = element(MEDIA_TAG, properties, [text(title)]);
  return [element('p', {}, [file])];
}

/** WordPress shows an address alone in its paragraph as what it embeds: here, as its card. */
export function bareAddress(node: Element): ElementContent[] | undefined {
  const [only, ...rest] = node.children;
  if (rest.length > 0 || only?.type !== 'text') return undefined;
  const address = only.value.trim();
  if (!/^https?:\/\/\S+$/i.test(address)) return undefined;
  return cardOf(embedPageOf(address) ?? address) ?? undefined;
}

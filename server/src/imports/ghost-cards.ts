// Ghost keeps a post's body as a document (mobiledoc for Ghost 1 to 4, lexical for Ghost 5 and
// 6) and renders it to HTML itself; an export may carry only the document. This renders both to
// the same HTML Ghost's own renderer writes (its `kg-card` figures and comments), so the HTML
// converter sees one shape whether the export kept Ghost's HTML or not. Captions, callout text
// and HTML cards are HTML already and pass through as they are: the converter sanitises.
import type { Root as HastRoot } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFootnoteFromMarkdown } from 'mdast-util-gfm-footnote';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { toHast } from 'mdast-util-to-hast';
import { gfmFootnote } from 'micromark-extension-gfm-footnote';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { formatDuration } from '../../../contract/media.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: Json | undefined): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

function attrs(pairs: Record<string, string | undefined>): string {
  return (
    Object.entries(pairs)
      .filter((pair): pair is [string, string] => pair[1] !== undefined && pair[1] !== '')
      // A mobiledoc markup names its own attributes: only plain names, so none breaks the tag open.
      .filter(([name]) => /^[a-z][a-z0-9-]*$/i.test(name))
      .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
      .join('')
  );
}

function figcaption(caption: string): string {
  return caption ? `<figcaption>${caption}</figcaption>` : '';
}

/** A card's duration in seconds, as a player shows it (`4:05`), or '' when it has none. */
function durationOf(payload: JsonObject): string {
  const seconds = typeof payload.duration === 'number' ? Math.round(payload.duration) : NaN;
  return Number.isFinite(seconds) && seconds >= 0 ? formatDuration(seconds) : '';
}

/** The icons of Ghost's media players, drawn plainly (its themes' script finds them by class). */
const svg = (shape: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">${shape}</svg>`;
const ICONS = {
  play: svg('<path d="M4 2v20l18-10z"/>'),
  pause: svg(
    '<rect x="4" y="2" width="6" height="20" rx="1"/><rect x="14" y="2" width="6" height="20" rx="1"/>',
  ),
  sound: svg('<path d="M3 9v6h4l6 5V4L7 9z"/>'),
  muted: svg(
    '<path d="M3 9v6h4l6 5V4L7 9z"/><path d="M16 9l6 6m0-6-6 6" stroke="currentColor" stroke-width="2"/>',
  ),
  music: svg('<path d="M9 3v12.3A3.5 3.5 0 1 0 11 18V8h8V3z"/>'),
};

/** The controls of Ghost's audio and video players, classed as its themes' script expects. */
function playerControls(kind: 'audio' | 'video', duration: string): string {
  const k = `kg-${kind}`;
  return (
    `<button class="${k}-play-icon" aria-label="Play ${kind}">${ICONS.play}</button>` +
    `<button class="${k}-pause-icon ${k}-hide" aria-label="Pause ${kind}">${ICONS.pause}</button>` +
    `<span class="${k}-current-time">0:00</span>` +
    `<div class="${k}-time">/<span class="${k}-duration">${duration}</span></div>` +
    `<input type="range" class="${k}-seek-slider" max="100" value="0">` +
    `<button class="${k}-playback-rate" aria-label="Adjust playback speed">1&#215;</button>` +
    `<button class="${k}-unmute-icon" aria-label="Unmute">${ICONS.sound}</button>` +
    `<button class="${k}-mute-icon ${k}-hide" aria-label="Mute">${ICONS.muted}</button>` +
    `<input type="range" class="${k}-volume-slider" max="100" value="100">`
  );
}

/** A Markdown card's source as HTML: the same parser the site uses, with GitHub's tables and footnotes. */
export function markdownToHtml(markdown: string): string {
  const tree = fromMarkdown(markdown, {
    extensions: [gfmTable(), gfmFootnote(), gfmStrikethrough()],
    mdastExtensions: [
      gfmTableFromMarkdown(),
      gfmFootnoteFromMarkdown(),
      gfmStrikethroughFromMarkdown(),
    ],
  });
  // Raw HTML inside Markdown is part of what the writer wrote; the converter sanitises it.
  const hast = toHast(tree, { allowDangerousHtml: true }) as HastRoot;
  return toHtml(hast, { allowDangerousHtml: true });
}

/** One card, from mobiledoc or lexical (both name their cards and fields alike). */
export function renderCard(name: string, payload: JsonObject): string {
  switch (name) {
    case 'image': {
      const img = `<img${attrs({ src: str(payload.src), class: 'kg-image', alt: str(payload.alt), title: str(payload.title) })}>`;
      const href = str(payload.href);
      const linked = href ? `<a href="${escapeHtml(href)}">${img}</a>` : img;
      return `<figure class="kg-card kg-image-card">${linked}${figcaption(str(payload.caption))}</figure>`;
    }
    case 'gallery': {
      const images = Array.isArray(payload.images) ? payload.images.filter(isObject) : [];
      const cells = images
        .map(
          (image) =>
            `<div class="kg-gallery-image"><img${attrs({ src: str(image.src), alt: str(image.alt), title: str(image.caption) })}></div>`,
        )
        .join('');
      return `<figure class="kg-card kg-gallery-card"><div class="kg-gallery-container"><div class="kg-gallery-row">${cells}</div></div>${figcaption(str(payload.caption))}</figure>`;
    }
    case 'markdown':
    case 'card-markdown':
      return `<!--kg-card-begin: markdown-->${markdownToHtml(str(payload.markdown))}<!--kg-card-end: markdown-->`;
    case 'html':
      return `<!--kg-card-begin: html-->${str(payload.html)}<!--kg-card-end: html-->`;
    case 'code':
    case 'codeblock': {
      const language = str(payload.language);
      const code = `<pre><code${attrs({ class: language ? `language-${language}` : undefined })}>${escapeHtml(str(payload.code))}</code></pre>`;
      const caption = str(payload.caption);
      return caption
        ? `<figure class="kg-card kg-code-card">${code}${figcaption(caption)}</figure>`
        : code;
    }
    case 'embed': {
      // The address the writer gave is kept beside the provider's HTML: the converter makes the
      // card of it as it was written, rather than of the page the player's address names.
      const url = str(payload.url);
      const html =
        str(payload.html) || (url ? `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>` : '');
      return html
        ? `<figure class="kg-card kg-embed-card"${attrs({ 'data-url': url })}>${html}${figcaption(str(payload.caption))}</figure>`
        : '';
    }
    case 'bookmark': {
      const url = str(payload.url);
      if (!url) return '';
      const meta = isObject(payload.metadata) ? payload.metadata : {};
      const icon = str(meta.icon);
      const thumbnail = str(meta.thumbnail);
      // Ghost's classes for the two names are each other's (kept so for its themes): the site's
      // name is `kg-bookmark-author`, the author's `kg-bookmark-publisher`.
      const publisher = str(meta.publisher);
      const author = str(meta.author);
      return (
        `<figure class="kg-card kg-bookmark-card"><a class="kg-bookmark-container" href="${escapeHtml(url)}">` +
        `<div class="kg-bookmark-content"><div class="kg-bookmark-title">${escapeHtml(str(meta.title) || url)}</div>` +
        `<div class="kg-bookmark-description">${escapeHtml(str(meta.description))}</div>` +
        '<div class="kg-bookmark-metadata">' +
        (icon ? `<img class="kg-bookmark-icon" src="${escapeHtml(icon)}" alt="">` : '') +
        (publisher ? `<span class="kg-bookmark-author">${escapeHtml(publisher)}</span>` : '') +
        (author ? `<span class="kg-bookmark-publisher">${escapeHtml(author)}</span>` : '') +
        '</div></div>' +
        (thumbnail
          ? `<div class="kg-bookmark-thumbnail"><img src="${escapeHtml(thumbnail)}" alt=""></div>`
          : '') +
        `</a>${figcaption(str(payload.caption))}</figure>`
      );
    }
    case 'hr':
    case 'horizontalrule':
      return '<hr>';
    case 'callout': {
      const emoji = str(payload.calloutEmoji);
      return (
        '<div class="kg-card kg-callout-card">' +
        (emoji ? `<div class="kg-callout-emoji">${escapeHtml(emoji)}</div>` : '') +
        `<div class="kg-callout-text">${str(payload.calloutText)}</div></div>`
      );
    }
    case 'toggle':
      return (
        `<div class="kg-card kg-toggle-card"><div class="kg-toggle-heading"><h4 class="kg-toggle-heading-text">${str(payload.heading)}</h4></div>` +
        `<div class="kg-toggle-content">${str(payload.content)}</div></div>`
      );
    case 'button': {
      const url = str(payload.buttonUrl);
      const text = str(payload.buttonText) || url;
      return url
        ? `<div class="kg-card kg-button-card"><a href="${escapeHtml(url)}" class="kg-btn">${escapeHtml(text)}</a></div>`
        : '';
    }
    case 'header': {
      const url = str(payload.buttonUrl);
      return (
        '<div class="kg-card kg-header-card">' +
        (str(payload.header)
          ? `<h2 class="kg-header-card-header">${str(payload.header)}</h2>`
          : '') +
        (str(payload.subheader)
          ? `<h3 class="kg-header-card-subheader">${str(payload.subheader)}</h3>`
          : '') +
        (url
          ? `<a href="${escapeHtml(url)}" class="kg-header-card-button">${escapeHtml(str(payload.buttonText) || url)}</a>`
          : '') +
        '</div>'
      );
    }
    // Media cards as Ghost draws them, for its themes' player script. They keep a plain link
    // inside the element: a reader without players, or a sanitiser that drops <video> or <audio>
    // (keeping the element's children), still has the file's address.
    case 'video': {
      const src = str(payload.src);
      if (!src) return '';
      const size = attrs({ width: str(payload.width), height: str(payload.height) });
      const fallback = `<a href="${escapeHtml(src)}">${escapeHtml(str(payload.fileName) || src)}</a>`;
      const caption = str(payload.caption);
      return (
        `<figure class="kg-card kg-video-card${caption ? ' kg-card-hascaption' : ''}"><div class="kg-video-container">` +
        `<video src="${escapeHtml(src)}"${size} playsinline preload="metadata">${fallback}</video>` +
        `<div class="kg-video-overlay"><button class="kg-video-large-play-icon" aria-label="Play video">${ICONS.play}</button></div>` +
        `<div class="kg-video-player-container"><div class="kg-video-player">${playerControls('video', durationOf(payload))}</div></div>` +
        `</div>${figcaption(caption)}</figure>`
      );
    }
    case 'audio': {
      const src = str(payload.src);
      if (!src) return '';
      const title = str(payload.title) || src;
      const thumbnail = str(payload.thumbnailSrc);
      return (
        '<div class="kg-card kg-audio-card">' +
        `<img${attrs({ src: thumbnail })} alt="audio-thumbnail" class="kg-audio-thumbnail${thumbnail ? '' : ' kg-audio-hide'}">` +
        `<div class="kg-audio-thumbnail placeholder${thumbnail ? ' kg-audio-hide' : ''}">${ICONS.music}</div>` +
        `<div class="kg-audio-player-container"><audio src="${escapeHtml(src)}" preload="metadata"><a href="${escapeHtml(src)}">${escapeHtml(title)}</a></audio>` +
        `<div class="kg-audio-title">${escapeHtml(title)}</div>` +
        `<div class="kg-audio-player">${playerControls('audio', durationOf(payload))}</div></div></div>`
      );
    }
    case 'file': {
      const src = str(payload.src);
      if (!src) return '';
      const title = str(payload.fileTitle) || str(payload.fileName) || src;
      const caption = str(payload.fileCaption);
      return (
        `<div class="kg-card kg-file-card"><a href="${escapeHtml(src)}" download>${escapeHtml(title)}</a>` +
        (caption ? `<p>${escapeHtml(caption)}</p>` : '') +
        '</div>'
      );
    }
    case 'paywall':
      return '<!--members-only-->';
    // Content only for the newsletter (email, email-cta) is not part of the post on the web;
    // anything else unknown (product, signup, collection…) is left out rather than guessed at.
    default:
      return '';
  }
}

// ----- mobiledoc (Ghost 1 to 4) -----

type Markup = { tag: string; attributes: string };

function parseMarkups(raw: Json | undefined): Markup[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((entry) => {
    const list = Array.isArray(entry) ? entry : [];
    const tag = str(list[0]).toLowerCase();
    const pairs = Array.isArray(list[1]) ? list[1] : [];
    const named: Record<string, string> = {};
    for (let index = 0; index + 1 < pairs.length; index += 2)
      named[str(pairs[index])] = str(pairs[index + 1]);
    return { tag: /^[a-z][a-z0-9]*$/.test(tag) ? tag : 'span', attributes: attrs(named) };
  });
}

function renderMarkers(markers: Json | undefined, markups: Markup[], atoms: Json[]): string {
  if (!Array.isArray(markers)) return '';
  const open: Markup[] = [];
  let html = '';
  for (const marker of markers) {
    if (!Array.isArray(marker)) continue;
    // 0.3 markers are [type, opened, closedCount, value]; 0.2 markers have no type.
    const [type, opened, closed, value] = marker.length >= 4 ? marker : [0, ...marker];
    for (const index of Array.isArray(opened) ? opened : []) {
      const markup = markups[typeof index === 'number' ? index : -1];
      if (!markup) continue;
      open.push(markup);
      html += `<${markup.tag}${markup.attributes}>`;
    }
    if (type === 1) {
      const atom = atoms[typeof value === 'number' ? value : -1];
      const [atomName, atomText] = Array.isArray(atom) ? atom : [];
      html += atomName === 'soft-return' ? '<br>' : escapeHtml(str(atomText));
    } else {
      html += escapeHtml(str(value));
    }
    for (
      let count = typeof closed === 'number' ? closed : 0;
      count > 0 && open.length > 0;
      count--
    ) {
      html += `</${(open.pop() as Markup).tag}>`;
    }
  }
  while (open.length > 0) html += `</${(open.pop() as Markup).tag}>`;
  return html;
}

const MARKUP_SECTION_TAGS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'aside',
  'pre',
]);

/** A mobiledoc document (its JSON text or parsed) rendered to HTML. */
export function renderMobiledoc(source: string | JsonObject): string {
  const doc = typeof source === 'string' ? (JSON.parse(source) as Json) : source;
  if (!isObject(doc)) return '';
  const markups = parseMarkups(doc.markups);
  const atoms = Array.isArray(doc.atoms) ? doc.atoms : [];
  const cards = Array.isArray(doc.cards) ? doc.cards : [];
  const sections = Array.isArray(doc.sections) ? doc.sections : [];
  return sections
    .map((section) => {
      if (!Array.isArray(section)) return '';
      const kind = section[0];
      if (kind === 1) {
        const tag = str(section[1]).toLowerCase();
        const safeTag = MARKUP_SECTION_TAGS.has(tag) ? tag : 'p';
        // Ghost's aside is its pull quote: a blockquote with a class.
        if (safeTag === 'aside')
          return `<blockquote class="kg-blockquote-alt">${renderMarkers(section[2], markups, atoms)}</blockquote>`;
        return `<${safeTag}>${renderMarkers(section[2], markups, atoms)}</${safeTag}>`;
      }
      if (kind === 2) return `<img src="${escapeHtml(str(section[1]))}">`;
      if (kind === 3) {
        const tag = str(section[1]).toLowerCase() === 'ol' ? 'ol' : 'ul';
        const items = Array.isArray(section[2]) ? section[2] : [];
        return `<${tag}>${items.map((item) => `<li>${renderMarkers(item, markups, atoms)}</li>`).join('')}</${tag}>`;
      }
      if (kind === 10) {
        const card = cards[typeof section[1] === 'number' ? section[1] : -1];
        if (!Array.isArray(card)) return '';
        return renderCard(str(card[0]), isObject(card[1]) ? card[1] : {});
      }
      return '';
    })
    .join('\n');
}

// ----- lexical (Ghost 5 and 6) -----

const FORMAT_TAGS: [number, string][] = [
  [16, 'code'],
  [1, 'strong'],
  [2, 'em'],
  [4, 's'],
  [8, 'u'],
  [32, 'sub'],
  [64, 'sup'],
];

function renderText(node: JsonObject): string {
  let html = escapeHtml(str(node.text));
  const format = typeof node.format === 'number' ? node.format : 0;
  for (const [bit, tag] of FORMAT_TAGS) if (format & bit) html = `<${tag}>${html}</${tag}>`;
  return html;
}

function renderLexicalChildren(node: JsonObject): string {
  return Array.isArray(node.children)
    ? node.children.filter(isObject).map(renderLexicalNode).join('')
    : '';
}

function renderLexicalNode(node: JsonObject): string {
  const type = str(node.type);
  switch (type) {
    case 'text':
    case 'extended-text':
      return renderText(node);
    case 'linebreak':
      return '<br>';
    case 'tab':
      return '\t';
    case 'paragraph':
      return `<p>${renderLexicalChildren(node)}</p>`;
    case 'heading':
    case 'extended-heading': {
      const tag = /^h[1-6]$/.test(str(node.tag)) ? str(node.tag) : 'h2';
      return `<${tag}>${renderLexicalChildren(node)}</${tag}>`;
    }
    case 'quote':
    case 'extended-quote':
      return `<blockquote>${renderLexicalChildren(node)}</blockquote>`;
    case 'aside':
      return `<blockquote class="kg-blockquote-alt">${renderLexicalChildren(node)}</blockquote>`;
    case 'list': {
      const tag = str(node.listType) === 'number' || str(node.tag) === 'ol' ? 'ol' : 'ul';
      // Lexical nests a list in an item of its own; in HTML it belongs inside the item before it.
      const items: string[] = [];
      for (const item of Array.isArray(node.children) ? node.children.filter(isObject) : []) {
        const children = Array.isArray(item.children) ? item.children.filter(isObject) : [];
        const nested = children.length === 1 && str(children[0]?.type) === 'list';
        if (nested && items.length > 0) items[items.length - 1] += renderLexicalChildren(item);
        else items.push(renderLexicalChildren(item));
      }
      return `<${tag}>${items.map((item) => `<li>${item}</li>`).join('')}</${tag}>`;
    }
    case 'listitem':
      return `<li>${renderLexicalChildren(node)}</li>`;
    case 'link':
    case 'autolink':
      return `<a href="${escapeHtml(str(node.url))}">${renderLexicalChildren(node)}</a>`;
    case 'root':
      return renderLexicalChildren(node);
    default:
      // Every other node is a card, its fields on the node itself.
      return Array.isArray(node.children) ? renderLexicalChildren(node) : renderCard(type, node);
  }
}

/** A lexical document (its JSON text or parsed) rendered to HTML. */
export function renderLexical(source: string | JsonObject): string {
  const doc = typeof source === 'string' ? (JSON.parse(source) as Json) : source;
  if (!isObject(doc) || !isObject(doc.root)) return '';
  return Array.isArray(doc.root.children)
    ? doc.root.children.filter(isObject).map(renderLexicalNode).join('\n')
    : '';
}

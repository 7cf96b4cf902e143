import type { SourceImage } from './source.js';

/*
 * A WordPress post's content as WordPress itself shows it: its shortcodes expanded (or removed)
 * and, for content from the classic editor, its blank lines turned into paragraphs. What comes
 * out is plain HTML for html-to-markdown.ts; nothing here decides what is safe (the sanitiser
 * does that after).
 */

/** Content written in the block editor: WordPress adds no paragraphs to it. */
const BLOCK_EDITOR = /<!--\s*wp:/;

export function prepareWordPressHtml(
  content: string,
  attachments: ReadonlyMap<string, SourceImage>,
  dropped: string[],
): string {
  // The private-use characters below stand in for held text while it is reworked: none of the
  // post's own may pass for one.
  const text = content.replace(/\r\n?/g, '\n').replace(/[\uE000-\uE003]/g, '');
  const expanded = expandShortcodes(text, attachments, dropped);
  return BLOCK_EDITOR.test(content) ? expanded : addParagraphs(expanded);
}

// Tags that start or end a block: text between them needs no paragraph of its own.
const BLOCK =
  'address|article|aside|blockquote|caption|col|colgroup|dd|details|div|dl|dt|fieldset|figcaption|figure|footer|form|h[1-6]|header|hgroup|hr|iframe|legend|li|map|math|menu|nav|object|ol|p|pre|script|section|style|summary|svg|table|tbody|td|tfoot|th|thead|tr|ul|audio|video';
// Blocks that hold other blocks: their text inside gets paragraphs too.
const CONTAINER = 'article|aside|blockquote|details|div|figure|section|ul|ol|table|tbody|thead|tr';

const OPENS_BLOCK = new RegExp(`(<(?:${BLOCK})(?=[\\s/>]))`, 'gi');
const CLOSES_BLOCK = new RegExp(`(</(?:${BLOCK})>)`, 'gi');
const OPENS_CONTAINER = new RegExp(`(<(?:${CONTAINER})(?:\\s[^>]*)?>)`, 'gi');
const CLOSES_CONTAINER = new RegExp(`(</(?:${CONTAINER})>)`, 'gi');
const STARTS_WITH_BLOCK = new RegExp(`^</?(?:${BLOCK})(?=[\\s/>])`, 'i');
const ENDS_WITH_BLOCK = new RegExp(`</?(?:${BLOCK})(?:\\s[^>]*)?/?>$`, 'i');
// Stands in for a <pre>, <script> or <style> while the rest is reworked.
const HELD = /\uE000(\d+)\uE001/g;

/**
 * WordPress's "wpautop", as it runs before showing classic content: a blank line ends a
 * paragraph, a single newline is a line break, and text already inside block tags is left in
 * them. Preformatted text is never touched.
 */
export function addParagraphs(html: string): string {
  if (html.trim() === '') return '';
  const held: string[] = [];
  let text = html.replace(/<(pre|script|style)\b[\s\S]*?<\/\1>/gi, (whole) => {
    held.push(whole);
    return `\n\n\uE000${held.length - 1}\uE001\n\n`;
  });
  text = text
    .replace(OPENS_BLOCK, '\n\n$1')
    .replace(CLOSES_BLOCK, '$1\n\n')
    .replace(OPENS_CONTAINER, '$1\n\n')
    .replace(CLOSES_CONTAINER, '\n\n$1');
  const chunks = text
    .split(/\n[ \t]*\n/)
    .map((chunk) => chunk.trim())
    .filter((chunk) => chunk !== '');
  return chunks
    .map((chunk) => {
      if (/^\uE000\d+\uE001$/.test(chunk)) return chunk;
      const lines = withLineBreaks(chunk);
      return STARTS_WITH_BLOCK.test(chunk) ? lines : `<p>${lines}</p>`;
    })
    .join('\n')
    .replace(HELD, (_, index: string) => held[Number(index)] ?? '');
}

/** Single newlines inside a chunk become <br>, except beside a block tag. */
function withLineBreaks(chunk: string): string {
  const lines = chunk.split('\n').map((line) => line.trim());
  return lines.reduce((joined, line, index) => {
    if (index === 0) return line;
    const previous = lines[index - 1] ?? '';
    const quiet = ENDS_WITH_BLOCK.test(previous) || STARTS_WITH_BLOCK.test(line);
    return `${joined}${quiet ? '\n' : '<br>\n'}${line}`;
  }, '');
}

/** The shortcodes WordPress itself registers: removed even when they carry no attributes. */
const CORE_SHORTCODES = new Set([
  'audio',
  'caption',
  'embed',
  'gallery',
  'playlist',
  'video',
  'wp_caption',
]);

/**
 * `[caption]` becomes a figure with its caption, `[gallery ids]` the attachments it names,
 * `[embed]url[/embed]` its address alone in a paragraph (a card, as WordPress shows an address
 * alone on its line), `[audio]` and `[video]` a player of their file, `[code language="js"]` (and
 * `[sourcecode]`) a code block in its language; any other shortcode
 * loses its brackets and keeps its inner text.
 * A bracketed word with no attributes and no closing tag (`[sic]`, `[citation needed]`) is
 * ordinary text, and `[[caption]]` is WordPress's way of writing the brackets themselves.
 */
export function expandShortcodes(
  content: string,
  attachments: ReadonlyMap<string, SourceImage>,
  dropped: string[],
): string {
  const literal: string[] = [];
  let text = content.replace(/\[(\[[a-zA-Z][\w-]*(?:\s[^\]]*)?\])\]/g, (_, inner: string) => {
    literal.push(inner);
    return `\uE002${literal.length - 1}\uE003`;
  });

  text = text.replace(
    /\[(caption|wp_caption)(\s[^\]]*)?\]([\s\S]*?)\[\/\1\]/gi,
    (_, _name: string, attributes: string | undefined, inner: string) =>
      captionFigure(parseAttributes(attributes ?? ''), inner),
  );
  text = text.replace(/\[gallery(\s[^\]]*)?\]/gi, (_, attributes: string | undefined) =>
    galleryFigures(parseAttributes(attributes ?? ''), attachments, dropped),
  );
  text = text.replace(/\[embed(\s[^\]]*)?\]([\s\S]*?)\[\/embed\]/gi, (_, _a, inner: string) => {
    const url = inner.trim();
    return /^https?:\/\/\S+$/i.test(url) ? `\n\n<p>${escapeHtml(url)}</p>\n\n` : '';
  });

  text = text.replace(
    /\[(audio|video)(\s[^\]]*)?\](?:[\s\S]*?\[\/\1\])?/gi,
    (whole, name: string, attributes: string | undefined) => {
      const found = parseAttributes(attributes ?? '');
      const src =
        ['src', 'mp3', 'm4a', 'ogg', 'wav', 'mp4', 'm4v', 'webm', 'ogv']
          .map((key) => found.get(key))
          .find((value) => value && /^(?:https?:\/\/|\/(?!\/))/i.test(value)) ??
        /(?:^|\s)(https?:\/\/[^\s"']+)/i.exec(attributes ?? '')?.[1];
      if (!src) return whole;
      const tag = name.toLowerCase() === 'audio' ? 'audio' : 'video';
      return `\n\n<${tag} src="${escapeHtml(src)}"></${tag}>\n\n`;
    },
  );

  // SyntaxHighlighter's code shortcodes: a code block in its language, the code as typed (its
  // `<` and `>` are code, not tags; an `&lt;` the visual editor wrote still reads as `<`).
  text = text.replace(
    /\[(code|sourcecode)(\s[^\]]*)?\]([\s\S]*?)\[\/\1\]/gi,
    (_, _name: string, attributes: string | undefined, inner: string) => {
      const found = parseAttributes(attributes ?? '');
      const language = found.get('language') ?? found.get('lang') ?? '';
      const code = inner
        .replace(/^\n+|\s+$/g, '')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;');
      const lang = /^[a-z0-9][\w+#.-]{0,39}$/i.test(language) ? ` lang="${language}"` : '';
      return `\n\n<pre><code${lang}>${code}</code></pre>\n\n`;
    },
  );

  // Paired shortcodes keep what they wrap; repeated so nested ones come apart too. Only names
  // that are closed somewhere are looked for, so a post full of brackets is read once.
  const closed = [...new Set([...text.matchAll(/\[\/([a-zA-Z][\w-]*)\]/g)].map((m) => m[1]))];
  const paired = new RegExp(
    `\\[(${closed.join('|')})(\\s[^\\]]*)?\\]([\\s\\S]*?)\\[\\/\\1\\]`,
    'g',
  );
  for (let pass = 0; closed.length > 0 && pass < 5; pass += 1) {
    const before = text;
    text = text.replace(paired, (_, name: string, _attributes, inner: string) => {
      note(dropped, `shortcode [${name}]`);
      return inner;
    });
    if (text === before) break;
  }
  // Lone shortcodes: with attributes, self-closing, or one of WordPress's own.
  text = text.replace(
    /\[([a-zA-Z][\w-]*)((?:\s[^\]]*)?)\]/g,
    (whole, name: string, attributes: string) => {
      const isShortcode =
        CORE_SHORTCODES.has(name.toLowerCase()) ||
        /=/.test(attributes) ||
        /\/\s*$/.test(attributes);
      if (!isShortcode) return whole;
      note(dropped, `shortcode [${name}]`);
      return '';
    },
  );
  text = text.replace(/\[\/[a-zA-Z][\w-]*\]/g, '');
  return text.replace(/\uE002(\d+)\uE003/g, (_, index: string) => literal[Number(index)] ?? '');
}

function captionFigure(attributes: Map<string, string>, inner: string): string {
  const parts = /^\s*((?:<a\b[^>]*>\s*)?<img\b[^>]*>(?:\s*<\/a>)?)([\s\S]*)$/i.exec(inner);
  if (!parts) return inner;
  const [, image = '', rest = ''] = parts;
  const caption = attributes.get('caption') ?? rest.trim();
  const figcaption = caption ? `<figcaption>${caption}</figcaption>` : '';
  return `\n\n<figure>${image}${figcaption}</figure>\n\n`;
}

function galleryFigures(
  attributes: Map<string, string>,
  attachments: ReadonlyMap<string, SourceImage>,
  dropped: string[],
): string {
  const ids = (attributes.get('ids') ?? attributes.get('include') ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  if (ids.length === 0) {
    note(dropped, 'gallery (it names no images)');
    return '';
  }
  const figures = ids.flatMap((id) => {
    const image = attachments.get(id);
    if (!image) {
      note(dropped, `gallery image ${id} (not in the export)`);
      return [];
    }
    const caption = image.caption ? `<figcaption>${escapeHtml(image.caption)}</figcaption>` : '';
    const alt = escapeHtml(image.alt ?? '');
    return [`<figure><img src="${escapeHtml(image.url)}" alt="${alt}">${caption}</figure>`];
  });
  return `\n\n${figures.join('\n\n')}\n\n`;
}

/** A shortcode's attributes: `name="value"`, `name='value'` or `name=value`. */
function parseAttributes(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of text.matchAll(/([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+))/g)) {
    const [, name = '', double, single, bare] = match;
    attributes.set(name.toLowerCase(), double ?? single ?? bare ?? '');
  }
  return attributes;
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** Adds a name to the `dropped` list once. */
export function note(dropped: string[], what: string): void {
  if (!dropped.includes(what)) dropped.push(what);
}

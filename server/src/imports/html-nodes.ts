import type { Element, ElementContent, Nodes, Root, Text } from 'hast';

/*
 * The small tools the import's HTML clean-ups (html-cleanup.ts, html-footnotes.ts,
 * html-embeds.ts) work with: the elements only they make, building a node, reading a node's
 * classes, attributes, text and descendants, and a file's name as words.
 */

/**
 * Elements only these clean-ups make: the HTML parser lower-cases every tag name it reads, so a
 * post cannot write one of these itself.
 */
export const DIVIDER_TAG = 'cohortDivider';
export const FOOTNOTE_REF_TAG = 'cohortFootnoteRef';
export const FOOTNOTE_TAG = 'cohortFootnote';
export const FOOTNOTE_LABEL_TAG = 'cohortFootnoteLabel';
/** An address a post shows as a card (`href`): written alone on its line (contract/embeds.ts). */
export const CARD_TAG = 'cohortCard';
/** An audio or video file (`src`, `alt` its title, `title` its caption): a player once stored. */
export const MEDIA_TAG = 'cohortMedia';

export function element(
  tagName: string,
  properties: Element['properties'] = {},
  children: ElementContent[] = [],
): Element {
  return { type: 'element', tagName, properties, children };
}

export const text = (value: string): Text => ({ type: 'text', value });

export function classesOf(node: Element): string[] {
  const value: unknown = node.properties.className;
  if (Array.isArray(value)) return value.map(String);
  return typeof value === 'string' ? value.split(/\s+/) : [];
}

export const hasClass = (node: Element, name: string) => classesOf(node).includes(name);

export function attribute(node: Element, name: string): string | undefined {
  const value = node.properties[name];
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return Array.isArray(value) ? value.join(' ') : undefined;
}

/**
 * Elements whose text no reader sees: code, styles, inert templates and what shows only without
 * scripts. Their text is never a post's title, summary or link text.
 */
const UNSEEN = new Set(['script', 'style', 'template', 'noscript']);

/** The text a node holds, as a reader would see it. */
export function textOf(node: Nodes): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element' && node.tagName === 'br') return ' ';
  if (node.type === 'element' && UNSEEN.has(node.tagName)) return '';
  if (node.type === 'element' || node.type === 'root') return node.children.map(textOf).join('');
  return '';
}

export const words = (value: string) => value.replace(/\s+/g, ' ').trim();

export function findAll(node: Root | Element, test: (node: Element) => boolean): Element[] {
  const found: Element[] = [];
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (test(child)) found.push(child);
    found.push(...findAll(child, test));
  }
  return found;
}

export const find = (node: Root | Element, test: (node: Element) => boolean): Element | undefined =>
  findAll(node, test)[0];

/** Substack's `data-attrs`: the JSON its editor keeps on each embed. */
export function dataAttrs(node: Element): Record<string, unknown> {
  const raw = attribute(node, 'dataAttrs');
  if (!raw) return {};
  for (const json of [raw, unescapeOnce(raw)]) {
    try {
      const parsed: unknown = JSON.parse(json);
      if (typeof parsed === 'object' && parsed !== null) return parsed as Record<string, unknown>;
    } catch {
      // Not JSON as it is: some of Substack's embeds escape theirs twice.
    }
  }
  return {};
}

const ENTITIES: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', '#39': "'" };
const unescapeOnce = (text: string) =>
  text.replace(/&(quot|amp|lt|gt|#39);/g, (_, name: string) => ENTITIES[name] ?? '');

export const stringIn = (record: Record<string, unknown>, key: string): string | undefined => {
  const value = record[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

/** `andreas-selter-xSMqGH7gi6o-unsplash.jpg` → `andreas selter xSMqGH7gi6o unsplash`. */
export function fileWords(url: string): string {
  let name = url.split(/[?#]/)[0]?.split('/').pop() ?? '';
  try {
    name = decodeURIComponent(name);
  } catch {
    // A malformed escape: the name as it is.
  }
  const stem = name
    .replace(/\.[a-z0-9]{2,5}$/i, '')
    .replace(/-\d+x\d+$/, '')
    .replace(/[-_+.\s]+/g, ' ')
    .trim();
  return stem || 'Image';
}

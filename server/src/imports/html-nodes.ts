import type { Element, ElementContent, Nodes, Root, Text } from 'hast';

/*
 * The small tools the import's HTML clean-ups (html-cleanup.ts, html-footnotes.ts) work with:
 * the elements only they make, building a node, and reading a node's classes, attributes, text
 * and descendants.
 */

/**
 * Elements only these clean-ups make: the HTML parser lower-cases every tag name it reads, so a
 * post cannot write one of these itself.
 */
export const DIVIDER_TAG = 'cohortDivider';
export const FOOTNOTE_REF_TAG = 'cohortFootnoteRef';
export const FOOTNOTE_TAG = 'cohortFootnote';
export const FOOTNOTE_LABEL_TAG = 'cohortFootnoteLabel';

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
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export const stringIn = (record: Record<string, unknown>, key: string): string | undefined => {
  const value = record[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

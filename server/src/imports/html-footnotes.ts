import type { Element, ElementContent, Root } from 'hast';
import {
  attribute,
  element,
  find,
  findAll,
  FOOTNOTE_LABEL_TAG,
  FOOTNOTE_REF_TAG,
  FOOTNOTE_TAG,
  hasClass,
  text,
  textOf,
} from './html-nodes.js';

/*
 * Footnotes, which every platform writes its own way: found by the links that point at them,
 * numbered in the order they are referred to, and moved to the end of the post (html-cleanup.ts
 * calls this first, before any element is rewritten).
 */

interface Note {
  label: string;
  container: Element;
  content: ElementContent[];
}

/**
 * Footnotes as Ghost (markdown-it), WordPress's footnotes block and Substack write them: a
 * superscript link (or Substack's footnote anchor) to a note with an id. Each becomes a
 * reference element here, and the notes move to the end as footnote elements, numbered in the
 * order they are first referred to.
 */
export function markFootnotes(tree: Root): void {
  const parents = new Map<Element, Root | Element>();
  const byId = new Map<string, Element>();
  const index = (parent: Root | Element) => {
    for (const child of parent.children) {
      if (child.type !== 'element') continue;
      parents.set(child, parent);
      const id = attribute(child, 'id');
      if (id && !byId.has(id)) byId.set(id, child);
      index(child);
    }
  };
  index(tree);

  const notes = new Map<Element, Note>();
  const backrefIds = new Set<string>();
  const references: { node: Element; note: Note }[] = [];
  for (const [node, parent] of parents) {
    const anchor = referenceAnchor(node, parent);
    if (!anchor) continue;
    const target = byId.get(decodeFragment(attribute(anchor, 'href') ?? ''));
    const found = target && noteOf(target, parents);
    if (!found) continue;
    const existing = notes.get(found.container);
    const entry = existing ?? { ...found, label: String(notes.size + 1) };
    notes.set(found.container, entry);
    references.push({ node, note: entry });
    for (const id of [attribute(anchor, 'id'), attribute(node, 'id')]) if (id) backrefIds.add(id);
  }
  if (notes.size === 0) return;

  for (const { node, note: entry } of references) {
    replaceNode(node, parents, [element(FOOTNOTE_REF_TAG, {}, [text(entry.label)])]);
  }
  for (const entry of notes.values()) {
    removeEmptied(entry.container, parents);
    const content = withoutBackrefs(entry.content, backrefIds);
    tree.children.push(
      element(FOOTNOTE_TAG, {}, [element(FOOTNOTE_LABEL_TAG, {}, [text(entry.label)]), ...content]),
    );
  }
  for (const separator of findAll(tree, (node) => hasClass(node, 'footnotes-sep'))) {
    replaceNode(separator, parents, []);
  }
}

/** The link a footnote reference is made of, if the node is one. */
function referenceAnchor(node: Element, parent: Root | Element): Element | undefined {
  const isFragmentLink = (child: ElementContent): child is Element =>
    child.type === 'element' &&
    child.tagName === 'a' &&
    (attribute(child, 'href') ?? '').startsWith('#');
  if (node.tagName === 'sup') {
    const content = node.children.filter(
      (child) => !(child.type === 'text' && child.value.trim() === ''),
    );
    const [only] = content;
    return content.length === 1 && only && isFragmentLink(only) ? only : undefined;
  }
  const inSup = parent.type === 'element' && parent.tagName === 'sup';
  return hasClass(node, 'footnote-anchor') && !inSup && isFragmentLink(node) ? node : undefined;
}

function noteOf(
  target: Element,
  parents: Map<Element, Root | Element>,
): Omit<Note, 'label'> | undefined {
  if (target.tagName === 'li') return { container: target, content: target.children };
  const parent = parents.get(target);
  if (target.tagName === 'a' && parent?.type === 'element' && hasClass(parent, 'footnote')) {
    const body = find(parent, (child) => hasClass(child, 'footnote-content'));
    return {
      container: parent,
      content: body ? body.children : parent.children.filter((child) => child !== target),
    };
  }
  return undefined;
}

function decodeFragment(href: string): string {
  try {
    return decodeURIComponent(href.slice(1));
  } catch {
    return href.slice(1);
  }
}

function replaceNode(
  node: Element,
  parents: Map<Element, Root | Element>,
  replacement: ElementContent[],
): void {
  const parent = parents.get(node);
  if (!parent) return;
  const at = parent.children.indexOf(node);
  if (at >= 0) parent.children.splice(at, 1, ...replacement);
}

/** Removes a note, then the list and the section that held only notes. */
function removeEmptied(node: Element, parents: Map<Element, Root | Element>): void {
  const parent = parents.get(node);
  replaceNode(node, parents, []);
  if (parent?.type !== 'element') return;
  // GitHub-style footnotes head their list with a heading for screen readers only.
  const empty = parent.children.every(
    (child) =>
      child.type === 'comment' ||
      (child.type === 'text' && child.value.trim() === '') ||
      (child.type === 'element' &&
        child.tagName === 'h2' &&
        (attribute(child, 'id') === 'footnote-label' || hasClass(child, 'sr-only'))),
  );
  if (empty) removeEmptied(parent, parents);
}

/** A note without its "back to the text" links (↩︎). */
function withoutBackrefs(content: ElementContent[], backrefIds: Set<string>): ElementContent[] {
  return content.flatMap((child): ElementContent[] => {
    if (child.type !== 'element') return [child];
    if (child.tagName === 'a') {
      const href = attribute(child, 'href') ?? '';
      const isBackref =
        (href.startsWith('#') && backrefIds.has(decodeFragment(href))) ||
        hasClass(child, 'footnote-backref') ||
        /^\s*[↩↑^]/.test(textOf(child));
      if (isBackref) return [];
    }
    return [{ ...child, children: withoutBackrefs(child.children, backrefIds) }];
  });
}

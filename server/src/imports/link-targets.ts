import { defaultHandlers as toMdastHandlers, type Handle } from 'hast-util-to-mdast';
import type { Link } from 'mdast';
import {
  defaultHandlers as toMarkdownHandlers,
  type Handle as WriteHandle,
} from 'mdast-util-to-markdown';
import { writeLinkTarget } from '../../../contract/link-target.js';

/**
 * A link's choice of tab through an import (contract/link-target.ts): an `<a target="_blank">`
 * (or `_self`, which html-cleanup.ts keeps and the sanitiser lets through, and nothing else)
 * read into the link, then written right after it in the Markdown.
 */

/** hast-util-to-mdast's own link, with the tab the HTML chose. */
export const readLinkWithTarget: Handle = (state, node) => {
  const link = toMdastHandlers.a(state, node) as Link;
  const target = node.properties.target;
  if (target === '_blank' || target === '_self') link.data = { ...link.data, target };
  return link;
};

/** mdast-util-to-markdown's own link, followed by its tab when it has one. */
export const writeLinkWithTarget: WriteHandle = (node: Link, parent, state, info) => {
  const written = toMarkdownHandlers.link(node, parent, state, info);
  return node.data?.target ? written + writeLinkTarget(node.data.target) : written;
};

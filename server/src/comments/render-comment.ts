import type { Element, Nodes } from 'hast';
import { sanitize, type Schema } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toHast } from 'mdast-util-to-hast';
import { isSafeHref } from '../../../contract/safe-href.js';

/**
 * A comment's Markdown as the HTML the page shows (docs/comments.md#writing): CommonMark read by
 * the site's Markdown parser (mdast), turned into HTML's tree (hast) without its raw HTML, then
 * sanitised down to paragraphs, line breaks, bold, italic, links, quotes and code. Everything
 * else is dropped with its markup (an image, a heading's `#`, a list's bullets) and keeps only its
 * words: no element, attribute or address a browser could run survives. Links to anything but
 * http(s) lose their address; those kept get `rel="ugc nofollow noopener"`.
 */

const SCHEMA: Schema = {
  tagNames: ['p', 'br', 'strong', 'em', 'a', 'blockquote', 'code', 'pre'],
  attributes: { a: ['href'] },
  protocols: { href: ['http', 'https'] },
  // What is dropped with everything in it, not just its tag.
  strip: ['script', 'style', 'img', 'iframe', 'object', 'embed', 'svg', 'math'],
  clobberPrefix: '',
  ancestors: {},
  required: {},
};

const LINK_REL = 'ugc nofollow noopener';

export function renderCommentHtml(markdown: string): string {
  // No extensions: plain CommonMark. Its autolinks (`<https://…>`) become links, bare addresses
  // stay text, and raw HTML is a node of its own that toHast drops.
  const mdast = fromMarkdown(markdown);
  const hast = sanitize(toHast(mdast), SCHEMA);
  markLinks(hast);
  return toHtml(hast);
}

function markLinks(node: Nodes): void {
  if (node.type === 'element' && node.tagName === 'a') markLink(node);
  if ('children' in node) for (const child of node.children) markLinks(child);
}

function markLink(link: Element): void {
  const href = link.properties.href;
  if (typeof href !== 'string' || !/^https?:/i.test(href) || !isSafeHref(href)) {
    // A link whose address is gone or not a web address reads as its text alone.
    link.tagName = 'span';
    link.properties = {};
    return;
  }
  link.properties = { href, rel: LINK_REL.split(' ') };
}

/** Whether a comment's Markdown carries a link (what a new account's first comment is held for). */
export function hasLink(markdown: string): boolean {
  return /https?:\/\/|www\.|\]\(/i.test(markdown) || /<[a-z]+:/i.test(markdown);
}

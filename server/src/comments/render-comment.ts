import type { Element, ElementContent, Nodes } from 'hast';
import { sanitize, type Schema } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toHast } from 'mdast-util-to-hast';
import { isSafeHref } from '../../../contract/safe-href.js';
import { DomainError } from '../domain-error.js';
import { refuseDeepBlocks, refuseDeepTree } from './comment-nesting.js';

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

/**
 * The HTML of a comment, or a 400 (`comment_too_deep`) for one that nests past the limits
 * (comment-nesting.ts): measured before it is parsed, and its tree before it is walked.
 */
export function renderCommentHtml(markdown: string): string {
  refuseDeepBlocks(markdown);
  // No extensions: plain CommonMark. Its autolinks (`<https://…>`) become links, bare addresses
  // stay text, and raw HTML is a node of its own that toHast drops.
  const mdast = fromMarkdown(markdown);
  refuseDeepTree(mdast);
  const hast = sanitize(toHast(mdast), SCHEMA);
  markLinks(hast);
  return toHtml(hast);
}

/**
 * An imported comment's HTML: as any comment's, or, when it nests too deep to be drawn, its text
 * as it is (paragraphs and lines kept, nothing read as Markdown). An import takes what it was
 * given rather than stop on one comment.
 */
export function renderImportedCommentHtml(markdown: string): string {
  try {
    return renderCommentHtml(markdown);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const lines = (paragraph: string): ElementContent[] =>
      paragraph
        .split(LINE_END)
        .flatMap((line, index) => [
          ...(index > 0 ? [element('br', [])] : []),
          { type: 'text' as const, value: line },
        ]);
    const paragraphs = markdown.split(BLANK_LINES).map((text) => element('p', lines(text)));
    return toHtml({ type: 'root', children: paragraphs });
  }
}

const LINE_END = /\r\n|\r|\n/;
const BLANK_LINES = /(?:\r\n|\r|\n)[ \t]*(?:\r\n|\r|\n)+/;

const element = (tagName: string, children: ElementContent[]): Element => ({
  type: 'element',
  tagName,
  properties: {},
  children,
});

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

import type { MarkdownTree } from '../../../contract/markdown-tree.js';
import { convertMarkdownToTree } from './markdown-to-tree.js';
import type { PublishedPost } from './published-content.js';

/**
 * What a page says the site does, drawn from what it does: a
 * page's body may hold a marker (`{{newsletter-tracking}}`), which the site replaces with the
 * statement that holds for its configuration when it draws the page (the desk's editor keeps the
 * marker).
 * The shipped privacy policy uses them (content/pages/privacy.md, content/FORMAT.md), so it never
 * promises "no tracking pixels" while issues carry one.
 */

/** What the site does that a page may state. */
export interface SiteFacts {
  /** Issues carry an open pixel and links through the site (NEWSLETTER_TRACKING). */
  newsletterTracking: boolean;
}

/** The markers, each with the Markdown it stands for. */
export const CLAIM_MARKERS: Record<string, (facts: SiteFacts) => string> = {
  '{{newsletter-tracking}}': ({ newsletterTracking }) =>
    newsletterTracking
      ? 'Each newsletter issue counts, in this site’s own database, whether it was opened and ' +
        'which of its links were followed: the mail carries a small image that the site counts ' +
        'when your mail program loads it, and its links pass through the site, which counts the ' +
        'click and sends you on at once. We keep, for each issue sent to you, when it was first ' +
        'opened and how often, and how often each link was followed: no IP address, no browser ' +
        'name, no cookie. Mail programs that do not load images send nothing; the plain-text part ' +
        'of each issue has neither the image nor counted links.'
      : 'Newsletters carry **no tracking image and no rewritten links**: we do not know whether ' +
        'you opened one or what you clicked.',
  '{{site-analytics}}': () =>
    'The site counts its page views itself, without cookies and without any outside service. ' +
    'When you open a page, your browser tells the site which page it was and which page linked ' +
    'to it. The site turns your IP address and your browser’s name into a code that only works ' +
    'for that day (mixed with a secret that is thrown away at midnight UTC), so it can count you ' +
    'once a day without knowing who you are or recognising you the next day; your IP address and ' +
    'browser name are not stored with the counts. Each view is kept for 90 days, then only daily ' +
    'totals. A browser that sends Do Not Track or Global Privacy Control reports no view.',
};

const MARKER = /\{\{[a-z-]+\}\}/g;

type Node = { type: string; value?: string; children?: Node[] };

/**
 * A body's tree with each known marker in its text replaced by its statement's words (inline, so
 * a marker may stand in a paragraph or a list item of its own, or end a sentence's line).
 */
export function fillClaims(tree: MarkdownTree, facts: SiteFacts): MarkdownTree {
  return fillNode(tree as unknown as Node, facts) as unknown as MarkdownTree;
}

function fillNode(node: Node, facts: SiteFacts): Node {
  if (!node.children) return node;
  return { ...node, children: node.children.flatMap((child) => fillChild(child, facts)) };
}

function fillChild(node: Node, facts: SiteFacts): Node[] {
  if (node.type !== 'text' || node.value === undefined) return [fillNode(node, facts)];
  const parts: Node[] = [];
  let from = 0;
  for (const found of node.value.matchAll(MARKER)) {
    const claim = CLAIM_MARKERS[found[0]];
    if (!claim) continue;
    if (found.index > from)
      parts.push({ type: 'text', value: node.value.slice(from, found.index) });
    parts.push(...claimNodes(claim(facts)));
    from = found.index + found[0].length;
  }
  if (from === 0) return [node];
  if (from < node.value.length) parts.push({ type: 'text', value: node.value.slice(from) });
  return parts;
}

/** A statement's words as inline nodes (each statement is one paragraph of Markdown). */
function claimNodes(markdown: string): Node[] {
  const tree = convertMarkdownToTree(markdown) as unknown as Node;
  return tree.children?.[0]?.children ?? [];
}

/** The posts with their pages' markers filled (other kinds are left as they are). */
export function fillSiteClaims(posts: readonly PublishedPost[], facts: SiteFacts): PublishedPost[] {
  return posts.map((post) =>
    post.row.kind === 'page' && post.row.body.includes('{{')
      ? {
          ...post,
          body: post.body && fillClaims(post.body, facts),
          ...(post.teaser && { teaser: fillClaims(post.teaser, facts) }),
        }
      : post,
  );
}

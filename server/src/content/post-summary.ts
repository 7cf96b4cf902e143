import { splitAtDivider, type PostVisibility } from '../../../contract/posts.js';
import { joinedParagraphsOf, openingTextOf, plainTextOf } from './markdown-text.js';

/**
 * A post's summary (an article's `summary`, a page's `description`) when its writer gave none:
 * made from what every visitor may read of it, never from its members-only part, because a
 * summary is shown to everyone (the post's page and its meta tags, the lists, the feeds, search,
 * the Content API, webhooks). Every path that writes a post without a summary asks this module:
 * the Admin API (ghost-admin/) and the imports (imports/import-posts.ts).
 */

/** The longest summary the site takes (contract/post-fields.ts: a summary, a description). */
export const SUMMARY_CHARS = 200;

/** Text cut at a word to `max` characters, with an ellipsis when cut. */
export function cutAtWord(text: string, max: number, ellipsis = '…'): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const room = flat.slice(0, max - ellipsis.length + 1);
  const space = room.lastIndexOf(' ');
  const cut = (space > max / 2 ? room.slice(0, space) : room.slice(0, max - ellipsis.length))
    .replace(/[\s,.;:–—-]+$/, '')
    .trimEnd();
  return `${cut}${ellipsis}`;
}

/** What a summary is made of. */
export interface SummarisedPost {
  title: string;
  /** The site's Markdown. */
  body: string;
  visibility: PostVisibility;
}

/**
 * What every visitor may read of a body: a public post's whole body; a members-only post's
 * opening before the divider (contract/posts.ts), else nothing.
 */
export function publicPartOf(post: Pick<SummarisedPost, 'body' | 'visibility'>): string {
  if (post.visibility === 'public') return post.body;
  const { before, after } = splitAtDivider(post.body);
  return after === null ? '' : before;
}

/**
 * A post's summary: the one its writer gave (`given`: an excerpt, the desk's Summary), else the
 * first paragraph of what every visitor may read of it, else its title.
 */
export function summaryOf(post: SummarisedPost, given?: string | null): string {
  return (
    cutAtWord(given ?? '', SUMMARY_CHARS) ||
    cutAtWord(openingTextOf(publicPartOf(post)), SUMMARY_CHARS) ||
    cutAtWord(post.title, SUMMARY_CHARS)
  );
}

/**
 * Whether a stored summary is one the site made from this post rather than one a writer typed:
 * its summary by the rule above, or by the rules before it: every paragraph strung together (of
 * the public part, or of the whole body, members' part and all: the Admin API's opening words),
 * or the whole text (the imports' words before 2026-11-27). A writer
 * who typed exactly those words gets a summary made again, from the public part.
 */
export function isMadeSummary(summary: string, post: SummarisedPost): boolean {
  return (
    summary === summaryOf(post) ||
    summary === cutAtWord(joinedParagraphsOf(publicPartOf(post)), SUMMARY_CHARS) ||
    summary === cutAtWord(joinedParagraphsOf(post.body), SUMMARY_CHARS) ||
    summary === cutAtWord(plainTextOf(post.body), SUMMARY_CHARS)
  );
}

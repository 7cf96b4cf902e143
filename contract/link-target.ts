import { isExternalHref } from './safe-href.js';

/**
 * A link's own choice of tab, kept in a post's Markdown right after the link, in the attribute
 * syntax of Pandoc and kramdown: `[the guide](https://example.org){target="_blank"}` opens in a
 * new tab, `{target="_self"}` in the same one (content/FORMAT.md, docs/publishing.md). Only these
 * two are read, and only straight after a link: any other `{…}` is text, so no other attribute can
 * reach a page. A link without one follows the site's rule: another site's address in a new tab,
 * the site's own pages in the same one.
 */
export type LinkTarget = '_blank' | '_self';

const MARK =
  /^\{:?[ \t]*target[ \t]*=[ \t]*(?:"(_blank|_self)"|'(_blank|_self)'|(_blank|_self))[ \t]*\}/;

/** The choice written at the start of `text` (the text after a link), and how long it is. */
export function readLinkTarget(text: string): { target: LinkTarget; length: number } | null {
  const match = MARK.exec(text);
  if (!match) return null;
  const target = (match[1] ?? match[2] ?? match[3]) as LinkTarget;
  return { target, length: match[0].length };
}

/** The choice as the site writes it after a link. */
export const writeLinkTarget = (target: LinkTarget) => `{target="${target}"}`;

/** Whether a link opens in a new tab: its own choice, else the site's rule. */
export const opensInNewTab = (url: string, target?: LinkTarget | null) =>
  target ? target === '_blank' : isExternalHref(url);

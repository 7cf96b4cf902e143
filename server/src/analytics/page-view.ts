import { DIRECT_SOURCE } from '../../../contract/analytics.js';

/** The longest source name kept: a `ref` is the reader's to write. */
const MAX_SOURCE_LENGTH = 100;

/**
 * A page's path as the site counts it: without its query string and fragment, without a trailing
 * slash (but `/`), percent-escapes decoded where they decode. Null when it is not a path.
 */
export function countedPath(pathAndQuery: string): string | null {
  let url: URL;
  try {
    url = new URL(pathAndQuery, 'http://site.invalid');
  } catch {
    return null;
  }
  if (url.host !== 'site.invalid') return null;
  let path = url.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // Kept as sent: it matches no page.
  }
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
}

/**
 * Where a view came from: the page address's `ref` or `utm_source`, else the referrer's host name
 * (`www.` dropped), else "Direct". Null when the referrer is the site itself: a reader moving
 * from page to page keeps the source they arrived with (docs/analytics.md#what-is-counted).
 */
export function sourceOf(
  pathAndQuery: string,
  referrer: string | undefined,
  ownHosts: ReadonlySet<string>,
): string | null {
  const query = new URL(pathAndQuery, 'http://site.invalid').searchParams;
  const named = (query.get('ref') ?? query.get('utm_source'))?.trim();
  if (named) return named.slice(0, MAX_SOURCE_LENGTH);
  if (!referrer) return DIRECT_SOURCE;
  let host: string;
  try {
    host = new URL(referrer).hostname.toLowerCase();
  } catch {
    return DIRECT_SOURCE;
  }
  if (!host) return DIRECT_SOURCE;
  if (ownHosts.has(host)) return null;
  return host.replace(/^www\./, '').slice(0, MAX_SOURCE_LENGTH);
}

import { DIRECT_SOURCE } from '../../../contract/analytics.js';

/**
 * Where a view counts when what it names as its source is not a name: a `ref`, a `utm_source` and
 * a referrer are the sender's to write, and the desk shows them (docs/analytics.md#limits).
 */
export const OTHER_SOURCE = 'Other';
/** The longest source name kept; a longer one counts as Other. */
const MAX_SOURCE_LENGTH = 64;
/**
 * A campaign's name: letters and digits of any script, with spaces, dots, dashes and underscores
 * between them. No marks, symbols, controls or direction overrides: nothing that draws differently
 * from how it reads.
 */
const CAMPAIGN_NAME = /^[\p{L}\p{N}](?:[\p{L}\p{N} ._-]*[\p{L}\p{N}])?$/u;
/** One label of a host name as URL gives it (lower case, an IDN in punycode). */
const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

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
 * A name or host that is not one (too long, or with characters neither has) is "Other".
 */
export function sourceOf(
  pathAndQuery: string,
  referrer: string | undefined,
  ownHosts: ReadonlySet<string>,
): string | null {
  const query = new URL(pathAndQuery, 'http://site.invalid').searchParams;
  const named = (query.get('ref') ?? query.get('utm_source'))?.normalize('NFC').trim();
  if (named) return campaignSource(named.replace(/\s+/gu, ' '));
  if (!referrer) return DIRECT_SOURCE;
  let host: string;
  try {
    host = new URL(referrer).hostname.toLowerCase();
  } catch {
    return DIRECT_SOURCE;
  }
  if (!host) return DIRECT_SOURCE;
  if (ownHosts.has(host)) return null;
  return hostSource(host.replace(/^www\./, ''));
}

function campaignSource(name: string): string {
  return name.length <= MAX_SOURCE_LENGTH && CAMPAIGN_NAME.test(name) ? name : OTHER_SOURCE;
}

function hostSource(host: string): string {
  const isHost =
    host.length <= MAX_SOURCE_LENGTH && host.split('.').every((label) => HOST_LABEL.test(label));
  return isHost ? host : OTHER_SOURCE;
}

/**
 * The only link targets content may use: http(s) addresses and paths on this site. Anything else
 * (javascript:, data:, protocol-relative //host) is rendered as plain text.
 */
export function isSafeHref(href: string): boolean {
  if (href.startsWith('/')) return !href.startsWith('//') && !href.startsWith('/\\');
  if (href.startsWith('#')) return true;
  try {
    const { protocol } = new URL(href);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** True for links that leave the site (they open in a new tab). */
export function isExternalHref(href: string): boolean {
  return /^https?:/i.test(href);
}

/**
 * A redirect's target as an address on this site. A path that starts with two slashes, or a
 * slash and a backslash (which browsers read as two slashes), names another host: `//evil.example`
 * leaves the site. Whatever the request's path was, the run of slashes and backslashes it starts
 * with becomes one slash, so the browser stays here (and finds this site's 404 if nothing is there).
 */
export function sitePath(target: string): string {
  return `/${target.replace(/^[/\\]+/, '')}`;
}

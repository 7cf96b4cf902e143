/**
 * Where a visitor was when they asked for a sign-in link, so the link's page (opened in this
 * browser) takes them back there. Kept for this tab only; a link opened elsewhere goes to /account.
 */
const KEY = 'cohort-return-path';

export function rememberReturnPath(path: string | null | undefined): void {
  try {
    if (path && path.startsWith('/') && !path.startsWith('//')) sessionStorage.setItem(KEY, path);
  } catch {
    // Storage refused (private mode): the link leads to /account.
  }
}

/** The remembered path, once. */
export function takeReturnPath(): string | null {
  try {
    const path = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return path;
  } catch {
    return null;
  }
}

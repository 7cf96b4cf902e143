import { expect, test } from './fixtures.js';

// Hydration adopts the server's HTML: every element the server sent is still the same DOM node
// once React has taken the page over. A page whose part React throws away and draws again (a
// Suspense boundary that falls back to client rendering) is drawn twice, loses its images' and
// focus's state, and shows no warning: only the DOM's own record of what was removed tells.

const PAGES = [
  { kind: 'home', path: '/' },
  { kind: 'section list', path: '/health' },
  { kind: 'article', path: '/health/sleep-debt-reset' },
  { kind: 'campaigns', path: '/direct-action' },
  { kind: 'boycotts', path: '/collective' },
  { kind: 'resources', path: '/empowerment' },
  { kind: 'early access', path: '/early-access' },
  { kind: 'perks', path: '/perks' },
  { kind: 'policy page', path: '/privacy' },
  { kind: 'newsletter archive', path: '/newsletter' },
  { kind: 'newsletter issue', path: '/newsletter/first-issue' },
  { kind: 'search results', path: '/search?q=student%20loans' },
  { kind: 'topic', path: '/topics/housing' },
  { kind: 'topics', path: '/topics' },
];

interface Watch {
  /** Elements the server sent that something removed from the page, as `tag.class`. */
  removed: string[];
  /** The server's elements under #root, as parsed, before any script ran. */
  served: Element[];
}

/**
 * From the first byte: remembers every element of #root as the parser made it (before the
 * deferred entry script runs, at readyState "interactive"), and every removal of one of them.
 */
function watchServerNodes() {
  const watch: Watch = { removed: [], served: [] };
  (window as unknown as { hydrationWatch: Watch }).hydrationWatch = watch;
  const served = new WeakSet<Node>();
  const describe = (element: Element) =>
    `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className)}` : ''}`;
  document.addEventListener('readystatechange', () => {
    if (document.readyState !== 'interactive') return;
    const root = document.getElementById('root');
    if (!root) return;
    // Not the resource hints React writes beside an image it preloads (`<link rel="preload">`):
    // they are the head's business, not the page's. Nor the navbar's "Account" kept for a
    // signed-in reader until the session is known: the session's arrival removes it, as it should.
    watch.served = [...root.querySelectorAll('*')].filter(
      (element) => element.tagName !== 'LINK' && !element.matches('.navbar__account--hint'),
    );
    for (const element of watch.served) served.add(element);
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.removedNodes) {
          if (served.has(node) && node instanceof Element) watch.removed.push(describe(node));
        }
      }
    }).observe(root, { childList: true, subtree: true });
  });
}

for (const { kind, path } of PAGES) {
  test(`hydration keeps every element the server sent: ${kind} (${path})`, async ({ page }) => {
    await page.addInitScript(watchServerNodes);
    await page.goto(path);
    // Done when React has adopted each element the server sent (it keeps its fiber on a DOM node
    // it hydrated), or one was thrown away.
    await page.waitForFunction(() => {
      const { served } = (window as unknown as { hydrationWatch: Watch }).hydrationWatch;
      return (
        served.length > 0 &&
        served.every(
          (element) =>
            !element.isConnected ||
            Object.keys(element).some((key) => key.startsWith('__reactFiber')),
        )
      );
    });
    await page.waitForLoadState('networkidle');
    const { removed, detached, count } = await page.evaluate(() => {
      const watch = (window as unknown as { hydrationWatch: Watch }).hydrationWatch;
      return {
        removed: watch.removed,
        detached: watch.served.filter((element) => !element.isConnected).length,
        count: watch.served.length,
      };
    });
    expect(count, 'elements the server sent').toBeGreaterThan(20);
    expect(removed, 'server elements removed from the page').toEqual([]);
    expect(detached, 'server elements no longer in the page').toBe(0);
  });
}

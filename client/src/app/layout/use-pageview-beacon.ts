import { useEffect } from 'react';
import type * as Analytics from '../../../../contract/analytics';
import { useLocation } from '../../lib/router';

// The contract's path, checked by its type: importing the module would bring its schemas (and
// TypeBox) into every page's first load.
const EVENTS_PATH: typeof Analytics.EVENTS_PATH = '/api/events';

/**
 * The page last reported, kept for the document's life (the layout is mounted again after a visit
 * to the desk): React's development mode runs an effect twice, and a page is one view.
 */
let lastReported: string | null = null;

/** A browser asking not to be tracked (Do Not Track, or Global Privacy Control). */
function asksNotToBeTracked(): boolean {
  const browser = navigator as Navigator & { globalPrivacyControl?: boolean };
  return browser.doNotTrack === '1' || browser.globalPrivacyControl === true;
}

/**
 * Reports each view of a site page to the site's own analytics (docs/analytics.md): on the first
 * load and on every move to another address (a new path or query; not a `#` within the page),
 * with `navigator.sendBeacon`, which queues the request without holding up the page. The
 * referrer goes with the first view only: later views are moves within the site. No cookie, and
 * nothing at all from a browser that asks not to be tracked.
 */
export function usePageviewBeacon() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    const page = `${pathname}${search}`;
    if (page === lastReported) return;
    const first = lastReported === null;
    lastReported = page;
    if (asksNotToBeTracked() || typeof navigator.sendBeacon !== 'function') return;
    const event: Analytics.PageviewEvent = {
      type: 'pageview',
      path: page,
      ...(first && document.referrer && { referrer: document.referrer }),
    };
    navigator.sendBeacon(
      EVENTS_PATH,
      new Blob([JSON.stringify(event)], { type: 'application/json' }),
    );
  }, [pathname, search]);
}

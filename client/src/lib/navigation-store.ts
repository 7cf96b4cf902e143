import { useSyncExternalStore } from 'react';
import type { SiteNavigation } from '../../../contract/sections';

/**
 * The navigation the browser holds (contract/sections.ts): the one the page came with, replaced
 * by each newer one a GET /api/site-data answer brings, so the navbar, the footer and the routes
 * follow a menu changed in the desk at the reader's next move.
 */
let current: SiteNavigation | null = null;
const listeners = new Set<() => void>();

/** Keeps `navigation` as the one to draw, and redraws what reads it when it changed. */
export function keepNavigation(navigation: SiteNavigation) {
  if (current && JSON.stringify(current) === JSON.stringify(navigation)) return;
  current = navigation;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The navigation kept, or `fallback` (the page's own) before any was. */
export function useKeptNavigation(fallback: SiteNavigation): SiteNavigation {
  const kept = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  return kept ?? fallback;
}

import type { SiteNavigation } from '../../../contract/sections';
import { keptValue } from './kept-value';

/**
 * The navigation the browser holds (contract/sections.ts): the one the page came with, replaced
 * by each newer one a GET /api/site-data answer brings, so the navbar, the footer and the routes
 * follow a menu changed in the desk at the reader's next move.
 */
const navigation = keptValue<SiteNavigation>();

export const keepNavigation = navigation.keep;

/** The navigation kept, or `fallback` (the page's own) before any was. */
export const useKeptNavigation = (fallback: SiteNavigation): SiteNavigation =>
  navigation.useKept() ?? fallback;

import { createContext, use } from 'react';
import { useLocation } from './router';
import {
  SITE_DATA_ELEMENT_ID,
  SITE_DATA_PATH,
  SITE_SETTINGS_ELEMENT_ID,
  type SiteData,
} from '../../../contract/site-data';
import type { PageCopy } from '../../../contract/content-types';
import type { SiteSettings } from '../../../contract/site-settings';
import { apiRequest } from './api-client';
import { keepNavigation } from './navigation-store';
import { keepSiteSettings } from './settings-store';

/**
 * The content each screen shows (contract/site-data.ts), by path. The page the server sent carries
 * its own in a JSON <script>, read before hydration so the first render draws the same HTML; a
 * screen the reader moves to asks the server once, then reads the answer from here.
 */
const byPath = new Map<string, SiteData | Promise<SiteData>>();

/** While the server renders a page it hands the page's data in directly. */
export const SiteDataContext = createContext<SiteData | null>(null);

/**
 * Keeps the data the server wrote into the page for its own path, and its settings (on their own
 * in the pages drawn only in the browser). Once, before hydration.
 */
export function readEmbeddedSiteData(path: string) {
  const text = (id: string) => document.getElementById(id)?.textContent;
  const settings = text(SITE_SETTINGS_ELEMENT_ID);
  if (settings) keepSiteSettings(JSON.parse(settings) as SiteSettings);
  const data = text(SITE_DATA_ELEMENT_ID);
  if (!data) return;
  const parsed = JSON.parse(data) as SiteData;
  byPath.set(path, parsed);
  if (parsed.settings) keepSiteSettings(parsed.settings);
}

function load(path: string): Promise<SiteData> {
  const pending = apiRequest<SiteData>(`${SITE_DATA_PATH}?path=${encodeURIComponent(path)}`).then(
    (data) => {
      byPath.set(path, data);
      if (data.navigation) keepNavigation(data.navigation);
      if (data.settings) keepSiteSettings(data.settings);
      return data;
    },
    (error: unknown) => {
      // The next visit to this path asks again instead of showing the same failure.
      byPath.delete(path);
      throw error;
    },
  );
  byPath.set(path, pending);
  return pending;
}

/**
 * The data of `path` asked for again, not from what was kept: once the reader has become a
 * member, a members-only article's whole body. Kept for the next visit.
 */
export function reloadSiteData(path: string): Promise<SiteData> {
  return load(path);
}

/** This screen's content. Suspends while it loads; a failure reaches the route's error boundary. */
export function useSiteData(): SiteData {
  const rendering = use(SiteDataContext);
  const { pathname } = useLocation();
  if (rendering) return rendering;
  const known = byPath.get(pathname) ?? load(pathname);
  return known instanceof Promise ? use(known) : known;
}

/**
 * A screen's own copy (`home`, `collective`, `empowerment`, `why`): the page as the publisher
 * wrote it, or, when they have taken it off the site, the screen's own title and nothing more.
 */
export function useScreenCopy(slug: string, title: string): PageCopy {
  return (
    useSiteData().pages?.[slug] ?? {
      slug,
      title,
      description: '',
      body: { type: 'root', children: [] },
    }
  );
}

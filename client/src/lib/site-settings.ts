import { use } from 'react';
import { PRERENDER_SITE_NAME, SITE_NAME_META } from '../../../contract/site-name';
import type { SiteSettings } from '../../../contract/site-settings';
import { useKeptSiteSettings } from './settings-store';
import { SiteDataContext } from './site-data';

/** What the site's screens draw of the settings (the server puts the look on the page itself). */
export type ShownSettings = Pick<
  SiteSettings,
  'title' | 'logo' | 'footerText' | 'signupText' | 'socialLinks'
>;

/**
 * The settings of a page that carries none (Vite's dev server serves index.html unfilled): the
 * name in the page's meta tag (PRERENDER_SITE_NAME while the server renders, which it replaces),
 * and nothing of any publication's words.
 */
function noSettings(): ShownSettings {
  let title: string = PRERENDER_SITE_NAME;
  if (typeof document !== 'undefined') {
    const named = document.querySelector<HTMLMetaElement>(
      `meta[name="${SITE_NAME_META}"]`,
    )?.content;
    title = named && named !== PRERENDER_SITE_NAME ? named : 'Cohort';
  }
  return { title, logo: null, footerText: '', signupText: '', socialLinks: [] };
}

let fallback: ShownSettings | undefined;

/**
 * The publication's settings (contract/site-settings.ts): the server's while it renders a page,
 * else those the browser holds (settings-store.ts): the page's own until a screen the reader moves
 * to brings newer ones.
 */
export function useSiteSettings(): ShownSettings {
  const rendering = use(SiteDataContext);
  const kept = useKeptSiteSettings();
  return (rendering ? rendering.settings : kept) ?? (fallback ??= noSettings());
}

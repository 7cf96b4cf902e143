import { accentProperties } from '../../../contract/site-look';
import { CUSTOM_CSS_PATH, type SiteSettings } from '../../../contract/site-settings';

/** A version for the owners' CSS address: a new address for each new text (FNV-1a). */
function versionOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let at = 0; at < text.length; at++) hash = Math.imul(hash ^ text.charCodeAt(at), 16777619);
  return (hash >>> 0).toString(36);
}

/**
 * The settings' look put on the page the reader has open, as the server draws it on every page's
 * <html> (server/src/site/site-look.ts): its language, colour scheme, fonts, accent, theme colour
 * and the owners' stylesheet, which is fetched again only when its text changed.
 */
export function applyLook(next: SiteSettings, previous: SiteSettings) {
  const root = document.documentElement;
  root.lang = next.language;
  root.dataset.colorScheme = next.colorScheme;
  root.dataset.fonts = next.fonts;
  for (const [name, value] of accentProperties(next.accentColor)) {
    root.style.setProperty(name, value);
  }
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', next.accentColor);
  if (next.customCss === previous.customCss) return;
  document.querySelector('link[data-custom-css]')?.remove();
  if (!next.customCss.trim()) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = `${CUSTOM_CSS_PATH}?v=${versionOf(next.customCss)}`;
  link.dataset.customCss = '';
  document.head.append(link);
}

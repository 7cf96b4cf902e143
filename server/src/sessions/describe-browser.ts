import Bowser from 'bowser';

/**
 * Browser names as people say them, where bowser's differ ("Microsoft Edge" is "Edge").
 */
const BROWSER_NAMES: Record<string, string> = {
  'Microsoft Edge': 'Edge',
  'Samsung Internet for Android': 'Samsung Internet',
  'Chrome OS': 'ChromeOS',
};

/**
 * A signed-in browser as a reader or staff tell it apart: "Chrome 131 on macOS", "Safari 17 on
 * iPhone", "Firefox 133 on Linux"; the major version only. Null for a User-Agent nothing can be
 * read from (a script, a made-up string): the caller says "Unknown browser". Without the version
 * ("Chrome on Windows") it names a passkey made in that browser. Parsed with bowser
 * (MIT), which follows new browsers and their tokens (Edge's `Edg/`, Chrome on iOS's `CriOS/`,
 * Samsung Internet...) better than a list of our own would.
 */
export function describeBrowser(
  userAgent: string | null | undefined,
  { withVersion = true }: { withVersion?: boolean } = {},
): string | null {
  if (!userAgent) return null;
  const { browser, os, platform } = Bowser.parse(userAgent);
  const name = browser.name ? (BROWSER_NAMES[browser.name] ?? browser.name) : null;
  const major = browser.version?.split('.')[0];
  // An iPhone or an iPad says more than "iOS"; bowser names the model only for Apple's.
  const system =
    (platform.model === 'iPhone' || platform.model === 'iPad' ? platform.model : null) ??
    (os.name ? (BROWSER_NAMES[os.name] ?? os.name) : null);
  const browserText = name
    ? withVersion && major && /^\d+$/.test(major)
      ? `${name} ${major}`
      : name
    : null;
  if (browserText && system) return `${browserText} on ${system}`;
  return browserText ?? system;
}

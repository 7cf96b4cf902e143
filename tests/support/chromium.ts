import { existsSync } from 'node:fs';

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

/** The system Chromium the browser tests drive: CHROMIUM_PATH, else the usual install places. */
export function findChromium(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv))
      throw new Error(`CHROMIUM_PATH points at ${fromEnv}, which does not exist.`);
    return fromEnv;
  }
  const found = CANDIDATES.find((path) => existsSync(path));
  if (!found) {
    throw new Error(
      'No Chromium found for the browser tests. Install one (Debian/Ubuntu: `apt-get install chromium`) ' +
        'or set CHROMIUM_PATH to its executable. Looked in: ' +
        CANDIDATES.join(', '),
    );
  }
  return found;
}

/**
 * The Chromium the browser tests drive: CHROMIUM_PATH, else Chromium's headless shell where it is
 * installed (Debian's `chromium-headless-shell`, the build Playwright itself runs headless), else
 * the full browser. The shell renders with the same Blink and V8 without the desktop browser's
 * machinery: the browser tests spent about a third less CPU and time in it (docs/performance.md).
 * Lighthouse keeps the full browser (`findChromium`): it measures what a reader's browser does.
 */
export function findBrowserForTests(): string {
  if (process.env.CHROMIUM_PATH) return findChromium();
  return HEADLESS_SHELLS.find((path) => existsSync(path)) ?? findChromium();
}

const HEADLESS_SHELLS = ['/usr/bin/chromium-headless-shell'];

/** Flags for a headless Chromium on a machine with no network beyond localhost. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

// The accent's colours, as the server writes them on a page's <html> (server/src/site/site-look.ts)
// and the browser sets them again when the settings change between screens
// (client/src/lib/site-look.ts): the same three custom properties from the same `#rrggbb`.

/** The WCAG relative luminance of a `#rrggbb` colour. */
function luminance(hex: string): number {
  const [r = 0, g = 0, b = 0] = [1, 3, 5].map((at) => {
    const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Text on the accent: black or white, whichever contrasts more with it (WCAG's ratio). */
export function accentInk(accent: string): '#000000' | '#ffffff' {
  const light = luminance(accent);
  const withBlack = (light + 0.05) / 0.05;
  const withWhite = 1.05 / (light + 0.05);
  return withBlack >= withWhite ? '#000000' : '#ffffff';
}

/** A light tint of the accent (an eighth of it on white): backgrounds of highlighted things. */
export function accentSoft(accent: string): string {
  const mix = [1, 3, 5].map((at) => {
    const channel = parseInt(accent.slice(at, at + 2), 16);
    return Math.round(255 + (channel - 255) * 0.125);
  });
  return `#${mix.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
}

/** The accent's custom properties, as `<html>`'s style carries them. */
export function accentProperties(accentColor: string): [string, string][] {
  const accent = /^#[0-9a-fA-F]{6}$/.test(accentColor) ? accentColor.toLowerCase() : '#000000';
  return [
    ['--accent', accent],
    ['--accent-ink', accentInk(accent)],
    ['--accent-soft', accentSoft(accent)],
  ];
}

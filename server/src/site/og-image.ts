import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import { SHARE_SIZE } from '../../../contract/images.js';

/** The size link previews ask for (Open Graph, X's large card), as an uploaded photo's share copy. */
export const OG_WIDTH = SHARE_SIZE.width;
export const OG_HEIGHT = SHARE_SIZE.height;

const require = createRequire(import.meta.url);
/** A font shipped with the build (dejavu-fonts-ttf), so every machine draws the same image. */
const FONT_FILE = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

/**
 * resvg built to WebAssembly: the same renderer as its native build, with no binary a platform
 * package must supply (the image installs no optional dependencies). Loaded once, when the first
 * preview is drawn.
 */
let ready: Promise<Uint8Array> | null = null;
function loadRenderer(): Promise<Uint8Array> {
  ready ??= (async () => {
    const [wasm, font] = await Promise.all([
      readFile(require.resolve('@resvg/resvg-wasm/index_bg.wasm')),
      readFile(FONT_FILE),
    ]);
    await initWasm(wasm);
    return new Uint8Array(font);
  })();
  return ready;
}

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Greedy word wrap by characters (DejaVu Sans Bold runs about 0.62 em a character). */
export function wrapTitle(title: string, maxChars: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of title.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (next.length <= maxChars || !line) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = `${kept[maxLines - 1]?.replace(/[\s,.;:]*$/, '')}…`;
  return kept;
}

/**
 * A link preview: the page's artwork (a generated SVG, cropped to fill), darkened towards the
 * bottom, with the page's title and an eyebrow ("HEALTH") over it, as a PNG.
 */
export async function renderOgImage(options: {
  artworkSvg: string;
  eyebrow: string;
  title: string;
}): Promise<Buffer> {
  const font = await loadRenderer();
  const fontSize = options.title.length > 60 ? 52 : 62;
  const lines = wrapTitle(options.title, Math.floor(1060 / (fontSize * 0.62)), 4);
  const lineHeight = Math.round(fontSize * 1.18);
  const firstBaseline = OG_HEIGHT - 72 - (lines.length - 1) * lineHeight;
  const artwork = options.artworkSvg.replace(
    /<svg([^>]*?)\swidth="\d+"\s+height="\d+"/,
    (_match, attributes: string) =>
      `<svg${attributes} width="${OG_WIDTH}" height="${OG_HEIGHT}" preserveAspectRatio="xMidYMid slice"`,
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${OG_WIDTH}" height="${OG_HEIGHT}" viewBox="0 0 ${OG_WIDTH} ${OG_HEIGHT}">
  ${artwork}
  <defs><linearGradient id="og-shade" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="#141414" stop-opacity="0.15"/>
    <stop offset="0.45" stop-color="#141414" stop-opacity="0.55"/>
    <stop offset="1" stop-color="#141414" stop-opacity="0.92"/>
  </linearGradient></defs>
  <rect width="${OG_WIDTH}" height="${OG_HEIGHT}" fill="url(#og-shade)"/>
  <text x="64" y="${firstBaseline - lineHeight - 8}" font-family="DejaVu Sans" font-weight="bold" font-size="26" letter-spacing="3" fill="#f5c542">${escapeXml(options.eyebrow.toUpperCase())}</text>
  ${lines
    .map(
      (line, i) =>
        `<text x="64" y="${firstBaseline + i * lineHeight}" font-family="DejaVu Sans" font-weight="bold" font-size="${fontSize}" fill="#ffffff">${escapeXml(line)}</text>`,
    )
    .join('\n  ')}
</svg>`;
  const resvg = new Resvg(svg, {
    font: { fontBuffers: [font], defaultFontFamily: 'DejaVu Sans' },
    fitTo: { mode: 'original' },
  });
  const image = resvg.render();
  const png = Buffer.from(image.asPng());
  image.free();
  resvg.free();
  return png;
}

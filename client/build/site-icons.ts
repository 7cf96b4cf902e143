import { Resvg } from '@resvg/resvg-js';

/** One icon file the build writes next to index.html. */
export interface IconFile {
  fileName: string;
  source: Uint8Array;
}

/** The sizes packed into favicon.ico: tabs, taskbars and shortcuts. */
export const FAVICON_SIZES = [16, 32, 48] as const;
/** iOS's home-screen icon: 180×180, opaque (iOS rounds the corners itself). */
export const APPLE_TOUCH_ICON_SIZE = 180;

/**
 * Every raster icon crawlers and devices ask for, drawn from the site's SVG favicon:
 * favicon.ico, apple-touch-icon.png and the manifest's PNGs.
 */
export function createSiteIcons(svg: string): IconFile[] {
  return [
    {
      fileName: 'favicon.ico',
      source: packIco(FAVICON_SIZES.map((size) => ({ size, png: renderPng(svg, size) }))),
    },
    {
      fileName: 'apple-touch-icon.png',
      source: renderPng(svg, APPLE_TOUCH_ICON_SIZE, { opaque: true }),
    },
    { fileName: 'icon-192.png', source: renderPng(svg, 192) },
    { fileName: 'icon-512.png', source: renderPng(svg, 512) },
  ];
}

/**
 * The SVG as a square PNG of `size` pixels. `opaque` fills the transparent corners with the
 * colour of the SVG's top-left pixel, for platforms that would otherwise show them black.
 */
export function renderPng(svg: string, size: number, options: { opaque?: boolean } = {}): Buffer {
  const render = (background?: string) =>
    new Resvg(svg, {
      fitTo: { mode: 'width', value: size },
      ...(background && { background }),
    }).render();
  if (!options.opaque) return render().asPng();
  // Just inside the middle of the top edge: the icon's own background, clear of the corners.
  const probe = render();
  const offset = (probe.width + Math.floor(probe.width / 2)) * 4;
  const [r = 0, g = 0, b = 0] = probe.pixels.subarray(offset, offset + 3);
  return render(`rgb(${r}, ${g}, ${b})`).asPng();
}

/**
 * An ICO file holding PNG images (the format Windows Vista introduced; every browser reads it):
 * a 6-byte header, a 16-byte entry per image, then the PNGs as they are.
 */
export function packIco(images: { size: number; png: Uint8Array }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, index) => {
    if (size < 1 || size > 256) throw new Error(`An ICO image is 1–256 px wide, not ${size}`);
    const entry = 6 + 16 * index;
    header.writeUInt8(size % 256, entry); // width (0 means 256)
    header.writeUInt8(size % 256, entry + 1); // height
    header.writeUInt8(0, entry + 2); // no palette
    header.writeUInt8(0, entry + 3); // reserved
    header.writeUInt16LE(1, entry + 4); // colour planes
    header.writeUInt16LE(32, entry + 6); // bits per pixel
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map(({ png }) => png)]);
}

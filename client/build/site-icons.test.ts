import { readFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { createSiteIcons, FAVICON_SIZES } from './site-icons.js';

const svg = readFileSync(new URL('../public/favicon.svg', import.meta.url), 'utf8');
const icons = new Map(
  createSiteIcons(svg).map((icon) => [icon.fileName, Buffer.from(icon.source)]),
);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  expect(png.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The RGBA pixels of a PNG, decoded by resvg (an SVG that shows nothing but the image). */
function decodePng(png: Buffer, size: number): Buffer {
  const wrapper = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><image width="${size}" height="${size}" href="data:image/png;base64,${png.toString('base64')}"/></svg>`;
  return new Resvg(wrapper).render().pixels;
}

describe('the icons drawn from the SVG favicon', () => {
  it('packs 16, 32 and 48 px PNGs into a valid favicon.ico', () => {
    const ico = icons.get('favicon.ico');
    if (!ico) throw new Error('no favicon.ico');
    expect(ico.readUInt16LE(0)).toBe(0);
    expect(ico.readUInt16LE(2)).toBe(1);
    expect(ico.readUInt16LE(4)).toBe(FAVICON_SIZES.length);

    const images = FAVICON_SIZES.map((_, index) => {
      const entry = 6 + 16 * index;
      const length = ico.readUInt32LE(entry + 8);
      const offset = ico.readUInt32LE(entry + 12);
      return {
        width: ico.readUInt8(entry),
        height: ico.readUInt8(entry + 1),
        bits: ico.readUInt16LE(entry + 6),
        end: offset + length,
        png: ico.subarray(offset, offset + length),
      };
    });
    images.forEach((image, index) => {
      const size = FAVICON_SIZES[index];
      expect([image.width, image.height, image.bits]).toEqual([size, size, 32]);
      expect(pngSize(image.png)).toEqual({ width: size, height: size });
    });
    expect(images.at(-1)?.end).toBe(ico.length);
  });

  it('draws a 180×180 apple-touch-icon with no transparent corners', () => {
    const png = icons.get('apple-touch-icon.png');
    if (!png) throw new Error('no apple-touch-icon.png');
    expect(pngSize(png)).toEqual({ width: 180, height: 180 });
    const pixels = decodePng(png, 180);
    const alphaAt = (x: number, y: number) => pixels[(y * 180 + x) * 4 + 3];
    for (const [x, y] of [
      [0, 0],
      [179, 0],
      [0, 179],
      [179, 179],
      [90, 90],
    ] as const) {
      expect(alphaAt(x, y), `${x},${y}`).toBe(255);
    }
  });

  it('draws the 192 and 512 px icons the web manifest names', () => {
    for (const size of [192, 512]) {
      const png = icons.get(`icon-${size}.png`);
      if (!png) throw new Error(`no icon-${size}.png`);
      expect(pngSize(png)).toEqual({ width: size, height: size });
    }
  });
});

import sharp, { type Sharp } from 'sharp';

/**
 * A photo-like picture of `width`×`height` for the upload tests, ready for sharp to encode: red
 * rising across, green down, and blue as `blue(x, y)` says (a texture makes a JPEG of a camera's
 * size; a constant, a small one).
 */
export function gradientPhoto(
  width: number,
  height: number,
  blue: (x: number, y: number) => number,
): Sharp {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * 255) / width;
      pixels[i + 1] = (y * 255) / height;
      pixels[i + 2] = blue(x, y);
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

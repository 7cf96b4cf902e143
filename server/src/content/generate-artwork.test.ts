import { describe, expect, it } from 'vitest';
import { artworkThemes, generateArtwork } from './generate-artwork.js';

describe('generated hero artwork', () => {
  it('draws the same picture for the same item, every build', () => {
    expect(generateArtwork('sleep-debt-reset', 'health')).toBe(
      generateArtwork('sleep-debt-reset', 'health'),
    );
  });

  it('draws a different picture for each item of a section', () => {
    const pictures = new Set(
      ['rent-vs-buy', 'lifestyle-creep', 'credit-score-basics'].map((slug) =>
        generateArtwork(slug, 'wealth'),
      ),
    );
    expect(pictures.size).toBe(3);
  });

  it.each(artworkThemes)('makes a self-contained 16:9 SVG for %s', (theme) => {
    const svg = generateArtwork('any-slug', theme);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 1600 900"/);
    expect(svg.endsWith('</svg>')).toBe(true);
    // Nothing that could load or run anything: no links, scripts, text or images.
    expect(svg).not.toMatch(/href|<script|<text|<image|NaN|undefined/);
  });
});

import { describe, expect, it } from 'vitest';
import { markdownMarkup } from '../test-support/markdown-markup';

describe('drawing an image an import could not fetch', () => {
  it('draws it from its old address as a lazy figure with its alt text and caption, sending no referrer', () => {
    expect(
      markdownMarkup([
        {
          type: 'remoteImage',
          src: 'https://old.example/harbour.jpg',
          alt: 'A harbour',
          caption: 'The harbour at dawn',
        },
      ]),
    ).toBe(
      '<figure><img src="https://old.example/harbour.jpg" alt="A harbour" loading="lazy" decoding="async" referrerPolicy="no-referrer"/>' +
        '<figcaption>The harbour at dawn</figcaption></figure>',
    );
  });

  it('draws nothing for an address that is not http(s)', () => {
    expect(
      markdownMarkup([
        { type: 'remoteImage', src: 'javascript:alert(1)', alt: 'x', caption: null },
      ]),
    ).toBe('');
  });
});

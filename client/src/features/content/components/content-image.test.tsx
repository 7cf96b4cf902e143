import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ContentImage } from './content-image';

const UPLOAD = '/uploads/abcdefghij0123456789-2400x1600.webp';

describe('a hero image', () => {
  it('draws an uploaded photo as a <picture>: AVIF in every width made, then the WebP <img>', () => {
    const html = renderToStaticMarkup(
      <ContentImage src={UPLOAD} alt="A market at dawn" priority sizes="100vw" />,
    );
    expect(html).toMatch(/^<picture class="content-picture"><source type="image\/avif" /);
    expect(html).toContain(
      'srcSet="/uploads/abcdefghij0123456789-480x320.avif 480w, ' +
        '/uploads/abcdefghij0123456789-960x640.avif 960w, ' +
        '/uploads/abcdefghij0123456789-1600x1067.avif 1600w"',
    );
    expect(html).toMatch(/<img [^>]*src="\/uploads\/abcdefghij0123456789-2400x1600\.webp"/);
    expect(html).toContain('/uploads/abcdefghij0123456789-2400x1600.webp 2400w"');
    expect(html).toContain('alt="A market at dawn"');
    expect(html).toMatch(/<\/picture>$/);
  });

  it('draws the generated artwork, which comes in one size, as a bare <img>', () => {
    const html = renderToStaticMarkup(<ContentImage src="/art/articles/rent.svg" />);
    expect(html).toMatch(/^<img /);
    expect(html).not.toContain('<source');
  });
});

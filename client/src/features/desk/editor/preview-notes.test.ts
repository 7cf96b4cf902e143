import { describe, expect, it } from 'vitest';
import { PREVIEW_ALT_STAND_IN, previewChanges, previewWarnings } from './preview-notes';

// A draft's preview is drawn without what only publishing asks for: a missing alt text is named
// as the editor labels it, and stood in for in what the preview sends.

const form = { body: 'Words.', featureImage: '', featureImageAlt: '' };
const photo = '/uploads/0123456789abcdefghij-1600x1067.webp';

describe('the preview of a draft', () => {
  it('names a missing feature image alt text by its label, never by its API name', () => {
    const warnings = previewWarnings({ ...form, featureImage: photo });
    expect(warnings).toEqual(['Feature image alt text is missing: add it before you publish.']);
    expect(warnings.join(' ')).not.toContain('featureImageAlt');
    expect(previewWarnings({ ...form, featureImage: photo, featureImageAlt: 'A street' })).toEqual(
      [],
    );
  });

  it('warns of a body image without alt text, and draws it with a stand-in', () => {
    const body = `Before.\n\n![](${photo})\n\n![A rally](${photo})`;
    expect(previewWarnings({ ...form, body })).toEqual([
      'An image in the body has no alt text: select it and fill in its Alt text.',
    ]);
    expect(previewChanges({ body, featureImage: photo, featureImageAlt: null })).toEqual({
      body: `Before.\n\n![${PREVIEW_ALT_STAND_IN}](${photo})\n\n![A rally](${photo})`,
      featureImage: photo,
      featureImageAlt: PREVIEW_ALT_STAND_IN,
    });
  });

  it('sends a post with its alt texts as it is', () => {
    const changes = {
      body: `![A rally](${photo})`,
      featureImage: photo,
      featureImageAlt: 'A street',
    };
    expect(previewChanges(changes)).toEqual(changes);
  });
});

import type { PostForm } from './post-form';

/** What an image without its alt text is drawn with in the preview, and only there. */
export const PREVIEW_ALT_STAND_IN = '(no alt text yet)';

/**
 * What publishing will ask of a draft that its preview draws without, named as the editor labels
 * it: the alt texts (the feature image's, a body image's). The server's preview takes the post as
 * publishing would; `previewChanges` stands in for the missing texts, these notes say so.
 */
export function previewWarnings(form: Pick<PostForm, 'body' | 'featureImage' | 'featureImageAlt'>) {
  const warnings: string[] = [];
  if (form.featureImage.trim() !== '' && form.featureImageAlt.trim() === '') {
    warnings.push('Feature image alt text is missing: add it before you publish.');
  }
  if (/!\[\s*\]\(/.test(form.body)) {
    warnings.push('An image in the body has no alt text: select it and fill in its Alt text.');
  }
  return warnings;
}

/** The changes the preview sends: the form's, with a stand-in for each missing alt text. */
export function previewChanges(changes: Record<string, unknown>): Record<string, unknown> {
  const next = { ...changes };
  if (next.featureImage && !next.featureImageAlt) next.featureImageAlt = PREVIEW_ALT_STAND_IN;
  if (typeof next.body === 'string') {
    next.body = next.body.replace(/!\[\s*\]\(/g, () => `![${PREVIEW_ALT_STAND_IN}](`);
  }
  return next;
}

import { describe, expect, it } from 'vitest';
import { fieldLabel } from '../../../../../contract/post-editor-fields';
import { describeWarning } from './preview-notes';

describe('the preview’s warnings', () => {
  it('names each field by its label in the editor, never by its name in the API', () => {
    expect(fieldLabel('article', 'featureImageAlt')).toBe('Feature image alt text');
    expect(fieldLabel('article', 'category')).toBe('Section');
    expect(fieldLabel('boycott', 'alternative.name')).toBe('Alternative');
    expect(fieldLabel('boycott', 'updates.0.note')).toBe('Updates');
    expect(fieldLabel('resources', 'category')).toBe('Title');
    expect(fieldLabel('campaign', 'externalLink')).toBe('Campaign link');
  });

  it('reads as a sentence', () => {
    expect(describeWarning({ label: 'Summary', message: 'is required' })).toBe(
      'Summary is required.',
    );
    expect(describeWarning({ label: 'Body', message: 'raw HTML is not allowed: <div>' })).toBe(
      'Body: raw HTML is not allowed: <div>.',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { targetOf } from './link-dialog';

describe('the link dialog’s “Open in a new tab”', () => {
  it('keeps only a choice the site’s rule would not make, so a link following it keeps following it', () => {
    expect(targetOf('/wealth', true)).toBe('_blank');
    expect(targetOf('/wealth', false)).toBeNull();
    expect(targetOf('https://www.cdc.gov', true)).toBeNull();
    expect(targetOf('https://www.cdc.gov', false)).toBe('_self');
  });
});

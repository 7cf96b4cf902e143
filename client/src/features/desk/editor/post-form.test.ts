import { describe, expect, it } from 'vitest';
import type { PostJson } from '../../../../../contract/posts';
import { addressPreview, emptyForm } from './post-form';

// The address the editor shows under the slug: where the post will be seen with the slug as
// typed, and why a page may not have it, before any save.

const saved = { slug: 'about', path: '/about' } as PostJson;

describe('the editor’s address preview', () => {
  it('shows a page of its own at /<slug>, and a screen’s text at its screen', () => {
    expect(addressPreview('page', { ...emptyForm('page'), slug: 'contact' }, null)).toEqual({
      path: '/contact',
      problem: null,
    });
    expect(addressPreview('page', { ...emptyForm('page'), slug: 'why' }, null)).toEqual({
      path: '/early-access',
      problem: null,
    });
  });

  it('says why a page may not take an address the site answers otherwise, and shows none', () => {
    expect(addressPreview('page', { ...emptyForm('page'), slug: 'account' }, null)).toEqual({
      path: null,
      problem: "/account is one of the site's own screens: choose another slug",
    });
  });

  it('shows an article at its section once it has one, and the saved address without a slug', () => {
    const article = { ...emptyForm('article'), slug: 'renting' };
    expect(addressPreview('article', article, null)).toEqual({ path: null, problem: null });
    expect(addressPreview('article', { ...article, fields: { category: 'Wealth' } }, null)).toEqual(
      { path: '/wealth/renting', problem: null },
    );
    expect(addressPreview('page', emptyForm('page'), saved)).toEqual({
      path: '/about',
      problem: null,
    });
    expect(addressPreview('page', emptyForm('page'), null)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import type { PostJson } from '../../../../../contract/posts';
import {
  addressPreview,
  countMarkdownWords,
  emptyForm,
  readingMinutesOf,
  withBody,
} from './post-form';

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
    expect(addressPreview('article', article, null)).toEqual({
      path: null,
      problem: 'choose a Section to give it an address',
    });
    expect(addressPreview('article', { ...article, fields: { category: 'Wealth' } }, null)).toEqual(
      { path: '/wealth/renting', problem: null },
    );
    expect(addressPreview('page', emptyForm('page'), saved)).toEqual({
      path: '/about',
      problem: null,
    });
    expect(addressPreview('page', emptyForm('page'), null)).toBeNull();
  });

  it('never shows `//slug` for a saved article without a section, and follows the slug as typed', () => {
    const draft = { slug: 'renting', path: '//renting' } as PostJson;
    const form = { ...emptyForm('article'), slug: '' };
    expect(addressPreview('article', form, draft)?.path).toBeNull();
    const placed = { ...form, fields: { category: 'Health' } };
    expect(addressPreview('article', placed, draft)?.path).toBe('/health/renting');
    expect(addressPreview('article', { ...placed, slug: 'rent' }, draft)?.path).toBe(
      '/health/rent',
    );
    expect(addressPreview('article', { ...placed, slug: 'rent-a-flat' }, draft)?.path).toBe(
      '/health/rent-a-flat',
    );
  });
});

describe('the reading time', () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

  it('is the body’s words at about 230 a minute, at least 1 and at most 60', () => {
    expect(readingMinutesOf('')).toBe(1);
    expect(readingMinutesOf(words(100))).toBe(1);
    expect(readingMinutesOf(words(690))).toBe(3);
    expect(readingMinutesOf(`## Heading\n\n${words(1150)}`)).toBe(5);
    expect(readingMinutesOf(words(20_000))).toBe(60);
  });

  it('counts a link’s words, not its address or its choice of tab', () => {
    expect(countMarkdownWords('Read [the guide](https://a.example/x){target="_blank"} now.')).toBe(
      4,
    );
  });

  it('counts words, not Markdown: addresses, image syntax and list markers are not read', () => {
    expect(
      countMarkdownWords(
        '## Two words\n\n- one\n- two\n\n![A photo](/uploads/x.webp) [a link](https://a.example/long/path)\n\n<!-- members-only -->',
      ),
    ).toBe(6);
  });

  it('follows the body until the writer sets it, then stays theirs', () => {
    const form = { ...emptyForm('article'), body: words(10) };
    const first = withBody(form, words(700), 'article');
    expect(first.fields?.readingMinutes).toBe(3);
    const following = { ...form, ...first };
    expect(withBody(following, words(1400), 'article').fields?.readingMinutes).toBe(6);
    const byHand = { ...following, fields: { ...following.fields, readingMinutes: 12 } };
    expect(withBody(byHand, words(1400), 'article')).toEqual({ body: words(1400) });
    expect(withBody(emptyForm('page'), words(700), 'page')).toEqual({ body: words(700) });
  });
});

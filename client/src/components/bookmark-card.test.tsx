import { describe, expect, it } from 'vitest';
import { markdownMarkup } from '../test-support/markdown-markup';
import type { BookmarkNode } from '../../../contract/markdown-tree';

const render = (bookmark: BookmarkNode) => markdownMarkup([bookmark]);

describe('a bookmark card', () => {
  it('is one link to the page holding its title, description, site and stored image', () => {
    const html = render({
      type: 'bookmark',
      url: 'https://www.example.org/reports/rent-2026',
      title: 'Rent in 2026',
      description: 'What tenants paid, city by city.',
      siteName: 'Example Research',
      image: { src: '/uploads/abcdefghij0123456789-1200x630.webp', width: 1200, height: 630 },
    });
    expect(html).toMatch(
      /^<figure class="bookmark"><a href="https:\/\/www\.example\.org\/reports\/rent-2026" class="bookmark__link" target="_blank" rel="noopener noreferrer">/,
    );
    expect(html).toContain('<span class="bookmark__title">Rent in 2026</span>');
    expect(html).toContain(
      '<span class="bookmark__description">What tenants paid, city by city.</span>',
    );
    expect(html).toContain('<span class="bookmark__site">Example Research · example.org</span>');
    expect(html).toContain('<picture class="bookmark__image">');
    expect(html).toMatch(/<img src="\/uploads\/abcdefghij0123456789-1200x630\.webp"[^>]* alt=""/);
    expect(html).toContain(
      '<span class="visually-hidden"> (opens in a new tab)</span></a></figure>',
    );
  });

  it('names the site by its host when the page gave no name, and leaves out what it did not give', () => {
    const html = render({
      type: 'bookmark',
      url: 'https://news.example.net/a',
      title: 'A story',
      description: null,
      siteName: null,
      image: null,
    });
    expect(html).toContain('<span class="bookmark__site">news.example.net</span>');
    expect(html).not.toContain('bookmark__description');
    expect(html).not.toContain('<picture');
  });
});

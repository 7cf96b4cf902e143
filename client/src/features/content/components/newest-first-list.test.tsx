import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { EMPTY_ARTICLES_TEXT } from '../sections';
import { NewestFirstList } from './newest-first-list';

const renderList = (items: { id: number; publishedAt: string }[]) =>
  renderToStaticMarkup(
    <NewestFirstList
      items={items}
      emptyText={EMPTY_ARTICLES_TEXT}
      renderItem={(item, featured) => `${featured ? 'featured' : 'card'}:${item.id}`}
    />,
  );

describe('a newest-first list', () => {
  it('draws the most recently published item as the large card and the rest by date, as the feeds do', () => {
    // Ids and dates disagree: the publisher wrote id 3 last.
    expect(
      renderList([
        { id: 15, publishedAt: '2024-01-10' },
        { id: 29, publishedAt: '2024-03-02' },
        { id: 3, publishedAt: '2024-06-20' },
        { id: 24, publishedAt: '2023-12-01' },
      ]),
    ).toBe(
      '<div class="featured-item">featured:3</div>' +
        '<ul class="card-grid" role="list"><li>card:29</li><li>card:15</li><li>card:24</li></ul>',
    );
  });

  it('puts the higher id first among items published the same day', () => {
    expect(
      renderList([
        { id: 4, publishedAt: '2024-05-01' },
        { id: 9, publishedAt: '2024-05-01' },
        { id: 1, publishedAt: '2024-04-01' },
      ]),
    ).toBe(
      '<div class="featured-item">featured:9</div>' +
        '<ul class="card-grid" role="list"><li>card:4</li><li>card:1</li></ul>',
    );
  });

  it("shows the section's text when there is nothing in it yet", () => {
    expect(renderList([])).toBe(
      '<p class="empty-state">No articles in this category yet. Check back soon!</p>',
    );
  });
});

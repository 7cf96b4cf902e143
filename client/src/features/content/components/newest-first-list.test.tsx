import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { EMPTY_ARTICLES_TEXT } from '../sections';
import { NewestFirstList } from './newest-first-list';

const renderList = (ids: number[]) =>
  renderToStaticMarkup(
    <NewestFirstList
      items={ids.map((id) => ({ id }))}
      emptyText={EMPTY_ARTICLES_TEXT}
      renderItem={(item, featured) => `${featured ? 'featured' : 'card'}:${item.id}`}
    />,
  );

describe('a newest-first list', () => {
  it('draws the highest id as the large card and the rest newest first', () => {
    expect(renderList([15, 29, 3, 24])).toBe(
      '<div class="featured-item">featured:29</div>' +
        '<ul class="card-grid" role="list"><li>card:24</li><li>card:15</li><li>card:3</li></ul>',
    );
  });

  it("shows the section's text when there is nothing in it yet", () => {
    expect(renderList([])).toBe(
      '<p class="empty-state">No articles in this category yet. Check back soon!</p>',
    );
  });
});

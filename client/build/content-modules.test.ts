import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { HomeHighlights } from '../src/features/content/types.js';
import { createContentBundle } from './content-modules.js';
import { loadContent } from './load-content.js';

const contentDir = fileURLToPath(new URL('../../content', import.meta.url));

/** The value a generated module exports as `name` (`export const name = {...};`). */
function exported<T>(source: string | undefined, name: string): T {
  const line = source?.split('\n').find((text) => text.startsWith(`export const ${name} = `));
  if (!line) throw new Error(`no export ${name}`);
  return JSON.parse(line.slice(`export const ${name} = `.length).replace(/;$/, '')) as T;
}

describe("the content modules' lists", () => {
  it('order articles, campaigns and the home rows by date, not by id, when the two disagree', async () => {
    const content = await loadContent(contentDir);
    // The oldest Health article (lowest id) gets a correction published today; the newest
    // campaign by id becomes the oldest by date.
    const health = content.articles
      .filter(({ data }) => data.category === 'Health')
      .sort((a, b) => a.data.id - b.data.id);
    const lowest = health[0];
    const campaigns = [...content.campaigns].sort((a, b) => b.data.id - a.data.id);
    const highestCampaign = campaigns[0];
    if (!lowest || !highestCampaign) throw new Error('the shipped content has changed');
    lowest.data.publishedAt = '2099-01-01';
    highestCampaign.data.publishedAt = '1999-01-01';

    const { modules } = createContentBundle(content);
    const articles = exported<{ id: number; publishedAt: string }[]>(
      modules.get('articles'),
      'articles',
    );
    expect(articles[0]?.id).toBe(lowest.data.id);
    const dates = articles.map((article) => article.publishedAt);
    expect(dates).toEqual([...dates].sort().reverse());

    const highlights = exported<HomeHighlights>(modules.get('home-highlights'), 'highlights');
    expect(highlights.health[0]?.id).toBe(lowest.data.id);
    expect(highlights.campaigns.map((campaign) => campaign.id)).not.toContain(
      highestCampaign.data.id,
    );
  });
});

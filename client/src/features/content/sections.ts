/** Each section's colour family, used as a `tone-*` class. */
export type Tone = 'health' | 'wealth' | 'direct-action' | 'collective' | 'empowerment';

/**
 * An article's tone, by its section's name: the shipped sections keep theirs; a section the
 * publisher added takes Wealth's.
 */
export function articleTone(category: string): Tone {
  return category === 'Health' ? 'health' : 'wealth';
}

/** The seed's texts for a section with nothing in it yet. */
export const EMPTY_ARTICLES_TEXT = 'No articles in this category yet. Check back soon!';
export const EMPTY_CAMPAIGNS_TEXT = 'No campaigns in this category yet. Check back soon!';

import type { ArticleCategory } from './types';

/** The sections whose items are cards in a newest-first list. */
export type ListedSection = ArticleCategory | 'Direct Action';

/** Each section's colour family, used as a `tone-*` class. */
export type Tone = 'health' | 'wealth' | 'direct-action' | 'collective' | 'empowerment';

export const sectionTones: Record<ListedSection, Tone> = {
  Health: 'health',
  Wealth: 'wealth',
  'Direct Action': 'direct-action',
};

/** One line under each list page's heading, also its meta description. */
export const sectionIntros: Record<ListedSection, string> = {
  Health:
    'Sleep, food, movement, mental health and getting care without going broke: practical guides for your twenties and thirties.',
  Wealth:
    'Saving, investing, debt, careers and your rights as a consumer, explained in plain English.',
  'Direct Action':
    'Campaigns where your time or money goes straight to the people doing the work, close to home.',
};

/** The seed's texts for a section with nothing in it yet. */
export const EMPTY_ARTICLES_TEXT = 'No articles in this category yet. Check back soon!';
export const EMPTY_CAMPAIGNS_TEXT = 'No campaigns in this category yet. Check back soon!';

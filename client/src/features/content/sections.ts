/** The seed's texts for a section with nothing in it yet. */
export const EMPTY_ARTICLES_TEXT = 'No articles in this category yet. Check back soon!';
export const EMPTY_CAMPAIGNS_TEXT = 'No campaigns in this category yet. Check back soon!';

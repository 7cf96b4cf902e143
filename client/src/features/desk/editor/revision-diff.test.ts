import { describe, expect, it } from 'vitest';
import type { PostJson } from '../../../../../contract/posts';
import { fieldChanges } from './revision-diff';

const article = (changes: Partial<PostJson>): PostJson => ({
  id: 7,
  kind: 'article',
  slug: 'renting',
  title: 'Renting Your First Flat',
  status: 'published',
  visibility: 'public',
  publishedAt: '2026-11-01T09:00:00.000Z',
  body: 'Read the lease.',
  featureImage: null,
  featureImageAlt: null,
  seoTitle: null,
  seoDescription: null,
  version: 3,
  updatedAt: '2026-11-02T09:00:00.000Z',
  path: '/wealth/renting',
  submittedAt: null,
  category: 'Wealth',
  summary: 'Deposits and inventories.',
  readingMinutes: 4,
  tags: ['housing'],
  ...changes,
});

describe('the history’s comparison of an earlier version with the post now', () => {
  it('names each field that differs by its label in the editor, with the value then and now', () => {
    const then = article({ version: 1, status: 'draft' });
    const now = article({
      title: 'Renting, Second Thoughts',
      path: '/health/renting',
      category: 'Health',
      tags: ['housing', 'money'],
      seoTitle: 'Renting well',
      body: 'Read the lease twice.',
    });
    expect(fieldChanges(then, now)).toEqual([
      { label: 'Title', before: 'Renting Your First Flat', after: 'Renting, Second Thoughts' },
      { label: 'Address', before: '/wealth/renting', after: '/health/renting' },
      { label: 'Section', before: 'Wealth', after: 'Health' },
      { label: 'Topics', before: 'housing', after: 'housing, money' },
      { label: 'SEO title', before: '(empty)', after: 'Renting well' },
    ]);
  });

  it('finds nothing to show between a version and itself, whatever its status and number', () => {
    expect(fieldChanges(article({ version: 1, status: 'draft' }), article({}))).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { parseFilter, type FieldValues } from './filter.js';
import { DomainError } from '../domain-error.js';

// The part of Ghost's filter language the Content API takes (docs/ghost-api.md): what it keeps and
// leaves out of a few records, and the 400 it answers for what it does not understand.

const FIELDS = new Set(['tag', 'slug', 'featured', 'published_at', 'visibility']);

const records = [
  {
    slug: 'a',
    tag: ['news', 'rent'],
    featured: 'false',
    published_at: '2025-01-01T10:00:00.000Z',
    visibility: 'public',
  },
  {
    slug: 'b',
    tag: ['rent'],
    featured: 'false',
    published_at: '2025-02-01T10:00:00.000Z',
    visibility: 'paid',
  },
  {
    slug: 'c',
    tag: [],
    featured: 'false',
    published_at: '2025-03-01T10:00:00.000Z',
    visibility: 'public',
  },
];
const valuesOf =
  (record: (typeof records)[number]): FieldValues =>
  (field) => {
    const value = record[field as keyof typeof record];
    return Array.isArray(value) ? value : [value];
  };
const kept = (filter: string) =>
  records.filter((record) => parseFilter(filter, FIELDS)(valuesOf(record))).map((r) => r.slug);

describe('the Content API’s filter', () => {
  it('keeps what matches field:value, lists, negations, comparisons, AND, OR and parentheses', () => {
    expect(kept('tag:rent')).toEqual(['a', 'b']);
    expect(kept('tag:RENT')).toEqual(['a', 'b']);
    expect(kept('tag:[news,nothing]')).toEqual(['a']);
    expect(kept('tag:-rent')).toEqual(['c']);
    expect(kept('tag:-[news,rent]')).toEqual(['c']);
    expect(kept('tag:null')).toEqual(['c']);
    expect(kept('tag:rent+visibility:paid')).toEqual(['b']);
    expect(kept('slug:a,slug:c')).toEqual(['a', 'c']);
    expect(kept('slug:c,tag:rent+visibility:paid')).toEqual(['b', 'c']);
    expect(kept('(slug:a,slug:b)+tag:news')).toEqual(['a']);
    expect(kept("published_at:>'2025-01-15'")).toEqual(['b', 'c']);
    expect(kept("published_at:<='2025-02-01 10:00:00'")).toEqual(['a', 'b']);
    expect(kept('featured:true')).toEqual([]);
    expect(kept('slug:"a"')).toEqual(['a']);
  });

  it('refuses what it does not understand with a BadRequestError that says what', () => {
    for (const [filter, message] of [
      ['colour:red', 'Cannot filter by "colour".'],
      ['tag:', 'Error parsing filter: expected a value at "the end".'],
      ['tag', 'Error parsing filter: expected ":" after "tag".'],
      ['(tag:a', 'Error parsing filter: a "(" is not closed.'],
      ['tag:[a,b', 'Error parsing filter: a "[" list is not closed.'],
      ['slug:~a', 'Error parsing filter: "~" (contains) is not supported.'],
      ["slug:'a", 'Error parsing filter: a quoted value is not closed.'],
      ['tag:a)', 'Error parsing filter: unexpected ")".'],
      ['x'.repeat(2001), 'A filter is at most 2000 characters.'],
    ] as const) {
      let thrown: unknown;
      try {
        parseFilter(filter, FIELDS);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, filter).toBeInstanceOf(DomainError);
      expect(thrown).toMatchObject({
        status: 400,
        details: { ghostType: 'BadRequestError' },
        message,
      });
    }
  });
});

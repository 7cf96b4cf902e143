import { describe, expect, it } from 'vitest';
import { countedPath, sourceOf } from './page-view.js';

// How a view's page and source are read from the beacon's event (docs/analytics.md).

const OWN = new Set(['members.example.org', 'localhost']);

describe('a view’s page', () => {
  it.each([
    ['/', '/'],
    ['/wealth/post-a', '/wealth/post-a'],
    ['/wealth/post-a/', '/wealth/post-a'],
    ['/wealth/post-a?ref=x#top', '/wealth/post-a'],
    ['/topics/caf%C3%A9', '/topics/café'],
    ['/bad%E0%A4%A', '/bad%E0%A4%A'],
  ])('%s is counted as %s', (given, path) => {
    expect(countedPath(given)).toBe(path);
  });

  it('is no page when the path names another host', () => {
    expect(countedPath('//evil.example/wealth')).toBeNull();
  });
});

describe('a view’s source', () => {
  it.each([
    ['/a?ref=newsletter', undefined, 'newsletter'],
    ['/a?utm_source=mastodon&utm_medium=social', 'https://news.ycombinator.com/', 'mastodon'],
    ['/a?ref=%20spaced%20', undefined, 'spaced'],
    ['/a', 'https://news.ycombinator.com/item?id=1', 'news.ycombinator.com'],
    ['/a', 'https://www.google.com/', 'google.com'],
    ['/a', undefined, 'Direct'],
    ['/a', '', 'Direct'],
    ['/a', 'not a url', 'Direct'],
    // An app's referrer names the app.
    ['/a', 'android-app://com.slack/', 'com.slack'],
    ['/a', 'https://members.example.org/wealth', null],
    ['/a', 'http://localhost:5173/', null],
  ])('%s from %s is %s', (path, referrer, source) => {
    expect(sourceOf(path, referrer, OWN)).toBe(source);
  });

  it('keeps at most 100 characters of a ref', () => {
    expect(sourceOf(`/a?ref=${'x'.repeat(300)}`, undefined, OWN)).toHaveLength(100);
  });
});

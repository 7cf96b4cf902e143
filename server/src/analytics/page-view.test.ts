import { describe, expect, it } from 'vitest';
import { countedPath, OTHER_SOURCE, sourceOf } from './page-view.js';

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

  it.each([
    ['a ref of 64 characters', `/a?ref=${'x'.repeat(64)}`, undefined, 'x'.repeat(64)],
    [
      'a campaign name in words',
      '/a?utm_source=Spring%20Appeal%202026',
      undefined,
      'Spring Appeal 2026',
    ],
    ['a name in another script', '/a?ref=caf%C3%A9-r%C3%A9seau', undefined, 'café-réseau'],
    ['spaces run together', '/a?ref=weekly%0A%09%20digest', undefined, 'weekly digest'],
    ['an IDN host, in punycode', '/a', 'https://www.bücher.example/x', 'xn--bcher-kva.example'],
  ])('keeps %s', (_, path, referrer, source) => {
    expect(sourceOf(path, referrer, OWN)).toBe(source);
  });

  it.each([
    ['a ref of 65 characters', `/a?ref=${'x'.repeat(65)}`, undefined],
    ['a ref of 300 characters', `/a?ref=${'x'.repeat(300)}`, undefined],
    ['a link in a ref', '/a?ref=https%3A%2F%2Fscam.example%2Fwin', undefined],
    ['markup in a ref', '/a?utm_source=%3Cb%3Ebuy%3C%2Fb%3E', undefined],
    ['a direction override', '/a?ref=abc%E2%80%AEdef', undefined],
    ['a zero-width space', '/a?ref=news%E2%80%8Bletter', undefined],
    ['a control character', '/a?ref=news%00letter', undefined],
    ['an emoji', '/a?ref=%F0%9F%92%B0money', undefined],
    ['punctuation only', '/a?ref=...', undefined],
    ['a host over 64 characters', '/a', `https://${'a'.repeat(60)}.example/`],
    ['an IPv6 host', '/a', 'http://[2001:db8::1]/'],
    ['an app name with escapes', '/a', 'android-app://com.%F0%9F%92%B0/'],
    ['a host label ending in a dash', '/a', 'https://spam-.example/'],
  ])('counts %s as Other', (_, path, referrer) => {
    expect(sourceOf(path, referrer, OWN)).toBe(OTHER_SOURCE);
  });
});

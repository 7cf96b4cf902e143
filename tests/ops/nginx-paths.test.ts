import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_PATHS } from '../../contract/constants.js';
import { SITE_FILES } from '../../contract/site-index.js';

// nginx, the Node server and Vite's dev proxy must agree on which paths are the app's: the
// contract lists them once, and this reads what nginx.conf actually proxies.

const nginxConf = readFileSync(new URL('../../nginx.conf', import.meta.url), 'utf8');

const PROXIES = /proxy_pass\s+http:\/\/cohort_app/;

/**
 * Every location block that hands requests to the app, itself or through a named location its
 * `try_files` falls back to (the images nginx sends itself when it has them): modifier and path.
 */
function proxiedLocations(conf: string): { exact: boolean; path: string }[] {
  const named = new Set(
    [...conf.matchAll(/^\s*location\s+@(\S+)\s*\{([^}]*)\}/gm)]
      .filter(([, , body]) => PROXIES.test(body ?? ''))
      .map(([, name]) => name),
  );
  const blocks = conf.matchAll(/^\s*location\s+(\^~|=)?\s*(\/\S*)\s*\{([^}]*)\}/gm);
  return [...blocks]
    .filter(([, , , body = '']) => {
      const fallback = /try_files[^;]*\s@(\S+);/.exec(body)?.[1];
      return PROXIES.test(body) || (fallback !== undefined && named.has(fallback));
    })
    .map(([, modifier, path]) => ({ exact: modifier === '=', path: path ?? '' }));
}

/**
 * The pages: every other path, which the app answers with its prerendered HTML or a 404, and the
 * search page (a location of its own for its rate limit).
 */
const PAGE_LOCATIONS = ['/', '/index.html', '/search'];

/** The top-level path of every proxied location, less the site files' and the pages'. */
function proxiedPaths(conf: string): string[] {
  const siteFiles: readonly string[] = SITE_FILES;
  const paths = proxiedLocations(conf)
    .filter(({ exact, path }) => !(exact && siteFiles.includes(path)))
    .filter(({ path }) => !PAGE_LOCATIONS.includes(path))
    .map(({ path }) => `/${path.split('/')[1] ?? ''}`);
  return [...new Set(paths)].sort();
}

/** The exact paths nginx proxies that are site files (the sitemap, the feeds...). */
function proxiedSiteFiles(conf: string): string[] {
  const siteFiles: readonly string[] = SITE_FILES;
  return proxiedLocations(conf)
    .filter(({ exact, path }) => exact && siteFiles.includes(path))
    .map(({ path }) => path)
    .sort();
}

describe('the paths the app answers', () => {
  it('are the same in nginx.conf as in the contract', () => {
    expect(proxiedPaths(nginxConf)).toEqual([...SERVER_PATHS].sort());
  });

  it('include the pages, so that the app answers each with its HTML and its status', () => {
    const paths = proxiedLocations(nginxConf).map(({ path }) => path);
    for (const page of PAGE_LOCATIONS) expect(paths).toContain(page);
  });

  it('include every site file the contract names, each passed on by an exact location', () => {
    expect(proxiedSiteFiles(nginxConf)).toEqual([...SITE_FILES].sort());
  });

  it('would notice a path nginx stopped proxying', () => {
    const without = nginxConf.replace(/location = \/readyz \{[^}]*\}/, '');
    expect(proxiedPaths(without)).not.toContain('/readyz');
    const withoutFeed = nginxConf.replace(/location = \/wealth\/rss\.xml \{[^}]*\}/, '');
    expect(proxiedSiteFiles(withoutFeed)).not.toContain('/wealth/rss.xml');
  });
});

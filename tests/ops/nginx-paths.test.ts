import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_PATHS } from '../../contract/constants.js';

// nginx, the Node server and Vite's dev proxy must agree on which paths are the app's: the
// contract lists them once, and this reads what nginx.conf actually proxies.

const nginxConf = readFileSync(new URL('../../nginx.conf', import.meta.url), 'utf8');

/** The top-level path of every location block that hands requests to the app. */
function proxiedPaths(conf: string): string[] {
  const blocks = conf.matchAll(/^\s*location\s+(?:\^~|=)?\s*(\/\S*)\s*\{([^}]*)\}/gm);
  const paths = [...blocks]
    .filter(([, , body]) => /proxy_pass\s+http:\/\/cohort_app/.test(body ?? ''))
    .map(([, path]) => `/${(path ?? '').split('/')[1] ?? ''}`);
  return [...new Set(paths)].sort();
}

describe('the paths the app answers', () => {
  it('are the same in nginx.conf as in the contract', () => {
    expect(proxiedPaths(nginxConf)).toEqual([...SERVER_PATHS].sort());
  });

  it('would notice a path nginx stopped proxying', () => {
    const without = nginxConf.replace(/location = \/readyz \{[^}]*\}/, '');
    expect(proxiedPaths(without)).not.toContain('/readyz');
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSiteIndex } from './site-index.js';

describe('reading the site index the build wrote', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cohort-site-index-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads none when the site is not built', async () => {
    expect(await readSiteIndex(join(dir, 'missing.json'))).toBeNull();
  });

  it('stops the start, naming the field, when the file is not a site index', async () => {
    const file = join(dir, 'wrong.json');
    const index = {
      pages: [{ path: 'no-leading-slash', lastmod: null }],
      articles: [],
      newsletters: [],
      sections: [],
      manifest: { themeColor: '#141414', backgroundColor: '#fff', icons: [] },
    };
    await writeFile(file, JSON.stringify(index));
    await expect(readSiteIndex(file)).rejects.toThrow(/\/pages\/0\/path must match pattern/);

    await writeFile(file, JSON.stringify({ ...index, pages: [{ path: '/', lastmod: null }] }));
    expect((await readSiteIndex(file))?.pages).toEqual([{ path: '/', lastmod: null }]);
  });
});

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useImportFixture } from '#test/import-fixtures';
import { postWhere } from '#test/source-bundle';
import { useTempFolder } from '#test/temp-folder';
import { openExport } from './archive.js';
import { readMedium, readMediumPost } from './medium.js';
import type { SourceBundle } from './source.js';
import { writeZip } from './test-zip.js';

const fixtures = useImportFixture('medium');

const byTitle = (bundle: SourceBundle, title: string) => postWhere(bundle, 'title', title);

describe('readMedium on the export folder', () => {
  let bundle: SourceBundle;
  beforeAll(async () => {
    bundle = await readMedium(await openExport(fixtures.path));
  });

  it('reads every post page, skips the response with its reason, and ignores the profile', () => {
    expect(bundle.posts.map((item) => item.title)).toEqual([
      'Advanced Post Title',
      'Basic Post Title',
      'Code Post Title',
      'Draft Post Title',
      'No Date Post',
      'No Slug Post',
      'Quote Post Title',
      'Short Post Title',
    ]);
    expect(bundle.skipped).toEqual([
      { item: 'posts/comment.html', reason: 'a response to another post, not a post' },
    ]);
  });

  it('takes title, subtitle, date, author, tags, and the old address and slug from the canonical link', () => {
    const basic = byTitle(bundle, 'Basic Post Title');
    expect(basic).toMatchObject({
      sourceId: 'efefef12121212',
      slug: 'testpost',
      excerpt: 'This is a subtitle of some sort',
      status: 'published',
      oldPaths: ['/@JoeBloggs/testpost-efefef12121212'],
      authors: [{ name: 'Joe Bloggs', slug: 'JoeBloggs' }],
      tags: ['Things', 'Stuff'],
      flavour: 'medium',
      visibility: 'public',
      tiers: [],
    });
    expect(basic.publishedAt?.toISOString()).toBe('2018-08-11T11:23:34.123Z');
  });

  it('hands on the body section only, as HTML, without the title Medium repeats in it', () => {
    const basic = byTitle(bundle, 'Basic Post Title');
    expect(basic.html).toContain('This is a paragraph of text and stuff.');
    expect(basic.html).not.toContain('Canonical link');
    expect(basic.html).not.toContain('Exported from');
    const advanced = byTitle(bundle, 'Advanced Post Title');
    expect(advanced.html).not.toContain('graf--title');
  });

  it('makes a page with neither date nor address a draft, and a canonical with no words no slug', () => {
    expect(byTitle(bundle, 'Draft Post Title')).toMatchObject({
      status: 'draft',
      oldPaths: [],
      sourceId: 'ababab12121212',
    });
    expect(byTitle(bundle, 'Draft Post Title').publishedAt).toBeUndefined();
    expect(byTitle(bundle, 'No Slug Post')).toMatchObject({
      slug: '',
      oldPaths: ['/@JoeBloggs/1234567890'],
    });
    expect(byTitle(bundle, 'No Date Post')).toMatchObject({
      status: 'published',
      slug: 'no-date-post',
    });
  });
});

describe('readMedium on a zip', () => {
  const temp = useTempFolder('cohort-medium-');

  it('reads posts/ inside the zip and treats draft_ files as drafts', async () => {
    const basic = await readFile(join(fixtures.path, 'posts/basic-post.html'), 'utf8');
    const zip = join(temp.path, 'medium-export.zip');
    await writeZip(zip, [
      { name: 'medium-export/posts/2018-08-11_Basic-efefef12121212.html', data: basic },
      { name: 'medium-export/posts/draft_Basic-efefef12121212.html', data: basic },
      { name: 'medium-export/profile/profile.html', data: '<html></html>' },
    ]);
    const bundle = await readMedium(await openExport(zip));
    expect(bundle.posts.map((item) => item.status)).toEqual(['published', 'draft']);
    expect(bundle.posts[1]?.oldPaths).toEqual([]);
  });

  it('refuses an export with no posts folder', async () => {
    const zip = join(temp.path, 'profile-only.zip');
    await writeZip(zip, [{ name: 'profile/profile.html', data: '<html></html>' }]);
    await expect(readMedium(await openExport(zip))).rejects.toThrow(
      'Not a Medium export: there is no posts/ folder of .html pages in it',
    );
  });

  it('skips a page with no body section', () => {
    expect(
      readMediumPost('<html><body><h1 class="p-name">Empty</h1></body></html>', 'x.html'),
    ).toEqual({
      skipped: 'no body (section data-field="body") in the page',
    });
  });
});

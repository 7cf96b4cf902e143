import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useImportFixture } from '#test/import-fixtures';
import { postWhere } from '#test/source-bundle';
import { useTempFolder } from '#test/temp-folder';
import { openExport } from './archive.js';
import type { SourceBundle } from './source.js';
import { readSubstack } from './substack.js';
import { writeZip } from './test-zip.js';

const fixtures = useImportFixture('substack');

const post = (bundle: SourceBundle, slug: string) => postWhere(bundle, 'slug', slug);

describe('readSubstack on the export folder', () => {
  let bundle: SourceBundle;
  beforeAll(async () => {
    bundle = await readSubstack(await openExport(fixtures.path));
  });

  it('reads every post in posts.csv with its body, slug and /p/ address', () => {
    expect(
      bundle.posts.map((item) => [item.sourceId, item.slug, item.type, item.status, item.oldPaths]),
    ).toEqual([
      ['123401.plain-text', 'plain-text', 'post', 'published', ['/p/plain-text']],
      ['123402.podcast', 'podcast', 'post', 'published', ['/p/podcast']],
      ['123403.thread', 'thread', 'post', 'published', ['/p/thread']],
      ['123404.draft-text', 'draft-text', 'post', 'draft', ['/p/draft-text']],
      ['123405.about-us', 'about-us', 'page', 'published', ['/p/about-us']],
    ]);
    expect(bundle.skipped).toEqual([]);
    // No post for founding members: the publication had no such tier to bring.
    expect(bundle.tiers).toEqual([]);
  });

  it('keeps the draft a draft, with no date, and dates the published ones', () => {
    expect(post(bundle, 'draft-text').publishedAt).toBeUndefined();
    expect(post(bundle, 'plain-text').publishedAt?.toISOString()).toBe('2019-07-26T20:48:19.814Z');
  });

  it('makes the subtitle the excerpt, decoding its character references', () => {
    expect(post(bundle, 'plain-text')).toMatchObject({
      title: 'Plain Text',
      excerpt: '\u201CThis quote\u2019s rather short\u201D',
      flavour: 'substack',
      visibility: 'public',
      tiers: [],
    });
  });

  it('puts the podcast episode as a player at the top of its body, named by the post', async () => {
    const body = await readFile(join(fixtures.path, 'posts/123402.podcast.html'), 'utf8');
    expect(post(bundle, 'podcast').html).toBe(
      `<audio src="https://example.com/my-audio/file.mp3" title="Comment Buttons"></audio>\n${body}`,
    );
  });
});

describe('readSubstack on a zip', () => {
  const temp = useTempFolder('cohort-substack-');

  it('reads a zip with everything in a folder; paid audiences are for members; a missing body is skipped', async () => {
    const zip = join(temp.path, 'substack.zip');
    await writeZip(zip, [
      {
        name: 'export-2024/posts.csv',
        data:
          'post_id,post_date,is_published,email_sent_at,type,audience,title,subtitle,podcast_url\n' +
          '1.for-payers,2024-01-01T00:00:00.000Z,true,,newsletter,only_paid,For payers,,\n' +
          '2.founders,2024-01-02T00:00:00.000Z,true,,newsletter,founding,Founders,,\n' +
          '3.everyone,2024-01-03T00:00:00.000Z,true,,newsletter,everyone,Everyone,,\n' +
          '4.lost,2024-01-04T00:00:00.000Z,true,,newsletter,everyone,Lost body,,\n',
      },
      { name: 'export-2024/posts/1.for-payers.html', data: '<p>Paid</p>' },
      { name: 'export-2024/posts/2.founders.html', data: '<p>Founders</p>' },
      { name: 'export-2024/posts/3.everyone.html', data: '<p>Free</p>' },
    ]);
    const bundle = await readSubstack(await openExport(zip));
    expect(bundle.posts.map((item) => [item.slug, item.visibility, item.html])).toEqual([
      ['for-payers', 'members', '<p>Paid</p>'],
      ['founders', 'tiers', '<p>Founders</p>'],
      ['everyone', 'public', '<p>Free</p>'],
    ]);
    expect(bundle.skipped).toEqual([
      { item: 'Lost body', reason: 'its body (posts/4.lost.html) is not in the export' },
    ]);
  });

  it('maps each audience to its readers here, and an audience it does not know (or none) to paying members, naming it', async () => {
    const audiences = [
      ['everyone', ' Everyone '],
      ['shouting', 'EVERYONE'],
      ['paid', 'only_paid'],
      ['founders', 'founding'],
      ['paid-capitals', 'Only_Paid'],
      ['subscribers', 'only_free'],
      ['patrons', 'patrons_only'],
      ['unsaid', ''],
    ];
    const zip = join(temp.path, 'audiences.zip');
    await writeZip(zip, [
      {
        name: 'posts.csv',
        data:
          'post_id,post_date,is_published,type,audience,title\n' +
          audiences
            .map(
              ([slug, audience], index) =>
                `${index}.${slug},2024-01-01,true,newsletter,${audience},${slug}`,
            )
            .join('\n'),
      },
      ...audiences.map(([slug], index) => ({
        name: `posts/${index}.${slug}.html`,
        data: '<p>Hi</p>',
      })),
    ]);
    const bundle = await readSubstack(await openExport(zip));
    expect(
      bundle.posts.map((item) => [item.slug, item.visibility, item.tiers, item.accessNote]),
    ).toEqual([
      ['everyone', 'public', [], undefined],
      ['shouting', 'public', [], undefined],
      ['paid', 'members', [], undefined],
      ['founders', 'tiers', ['founding'], undefined],
      ['paid-capitals', 'members', [], undefined],
      ['subscribers', 'registered', [], undefined],
      [
        'patrons',
        'members',
        [],
        'for paying members here, failing closed: its Substack audience "patrons_only" is not one Cohort knows',
      ],
      [
        'unsaid',
        'members',
        [],
        'for paying members here, failing closed: posts.csv gives it no Substack audience',
      ],
    ]);
    // A founding members' post says the publication had that tier: it comes along, unpriced.
    expect(bundle.tiers).toEqual([
      {
        slug: 'founding',
        name: 'Founding member',
        description: '',
        benefits: [],
        prices: { monthly: null, yearly: null },
        visible: true,
      },
    ]);
  });

  it('refuses an export with no posts.csv, or a posts.csv without the columns', async () => {
    const empty = join(temp.path, 'empty.zip');
    await writeZip(empty, [{ name: 'readme.txt', data: 'hello' }]);
    await expect(readSubstack(await openExport(empty))).rejects.toThrow(
      'Not a Substack export: there is no posts.csv in it',
    );
    const wrong = join(temp.path, 'wrong.zip');
    await writeZip(wrong, [{ name: 'posts.csv', data: 'id,name\n1,x\n' }]);
    await expect(readSubstack(await openExport(wrong))).rejects.toThrow(
      /^Not a Substack posts.csv: it has no post_id, title column/,
    );
  });
});

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { writeImportFixture } from '#test/import-fixtures';
import { useTempFolder } from '#test/temp-folder';
import { readExport } from './read-export.js';
import { ImportFileError, type SourceBundle } from './source.js';
import { writeZip } from './test-zip.js';
import { haveMigrationSamples, sample } from '#test/migration-samples';

const fixtures = fileURLToPath(new URL('../../../tests/fixtures/imports/', import.meta.url));
/** The real exports beside the repository (CI has them there); see their SOURCES.md. */
const haveSamples = haveMigrationSamples;

async function refusal(promise: Promise<unknown>): Promise<ImportFileError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ImportFileError);
  return error as ImportFileError;
}

describe('readExport', () => {
  const temp = useTempFolder('cohort-read-export-');

  it('sends each source to its reader', async () => {
    const read = async (source: Parameters<typeof readExport>[0], path: string) =>
      (await readExport(source, join(fixtures, path))).source;
    expect(await read('ghost', 'ghost/v4_export.json')).toBe('ghost');
    expect(await read('wordpress', 'wordpress/wxr-1.2.xml')).toBe('wordpress');
    const substack = await writeImportFixture('substack', join(temp.path, 'substack'));
    expect((await readExport('substack', substack)).source).toBe('substack');
    const medium = await writeImportFixture('medium', join(temp.path, 'medium'));
    expect((await readExport('medium', medium)).source).toBe('medium');
    expect(await read('members', 'members/ghost-members.csv')).toBe('members');
  });

  it('refuses a zip where the export is one file (WordPress, members), saying what to import instead', async () => {
    const zip = join(temp.path, 'export.zip');
    await writeZip(zip, [{ name: 'export.xml', data: '<rss/>' }]);
    expect((await refusal(readExport('wordpress', zip))).message).toBe(
      'This is a zip file: unzip it and import the .xml file inside',
    );
    expect((await refusal(readExport('members', zip))).message).toBe(
      'This is a zip file: unzip it and import the .csv file inside',
    );
  });

  it('refuses a file over maxBytes from its size, whatever the source', async () => {
    const big = join(temp.path, 'big');
    await writeFile(big, Buffer.alloc(4096, 0x20));
    for (const source of ['ghost', 'wordpress', 'substack', 'medium', 'members'] as const) {
      const error = await refusal(readExport(source, big, { maxBytes: 1024 }));
      expect(error.message).toBe('The export is 4.0 KiB; the largest accepted is 1.0 KiB');
    }
  });
});

// The real exports from each platform's own project. They live outside the repository, so this
// part is skipped (with this name saying why) where ../shared/migration-samples is absent.
describe.skipIf(!haveSamples)(
  'readExport on every shared migration sample (skipped when ../shared/migration-samples is absent)',
  () => {
    it('Ghost v2, v3, v4 and 1.x exports: every post accounted for', async () => {
      const counts: Record<string, [number, number]> = {};
      for (const file of ['v2_export.json', 'v3_export.json', 'v4_export.json', 'valid.json']) {
        const bundle = await readExport('ghost', sample(`ghost/${file}`));
        expect(bundle.skipped).toEqual([]);
        counts[file] = [
          bundle.posts.filter((post) => post.type === 'post').length,
          bundle.posts.filter((post) => post.type === 'page').length,
        ];
        expect(bundle.posts.every((post) => post.html.length > 0)).toBe(true);
      }
      expect(counts).toEqual({
        'v2_export.json': [7, 0],
        'v3_export.json': [7, 0],
        'v4_export.json': [7, 4],
        'valid.json': [2, 0],
      });
      const v4 = await readExport('ghost', sample('ghost/v4_export.json'));
      expect(v4.posts.find((post) => post.slug === 'sell')?.visibility).toBe('members');
      expect(v4.posts.find((post) => post.slug === 'write')?.oldPaths).toEqual(['/write/']);
    });

    it("WordPress's theme unit test: posts and pages, the draft a draft, the future post scheduled, /?p=1178", async () => {
      const bundle = await readExport('wordpress', sample('wordpress/theme-unit-test-data.xml'));
      const posts = bundle.posts.filter((post) => post.type === 'post');
      const pages = bundle.posts.filter((post) => post.type === 'page');
      expect([posts.length, pages.length]).toEqual([58, 21]);
      expect(posts.filter((post) => post.status === 'published')).toHaveLength(56);
      expect(posts.filter((post) => post.status === 'draft').map((post) => post.title)).toEqual([
        'Draft',
      ]);
      expect(posts.filter((post) => post.status === 'scheduled').map((post) => post.title)).toEqual(
        ['Scheduled'],
      );
      const markup = bundle.posts.find((post) => post.title === 'Markup: HTML Tags and Formatting');
      expect(markup?.oldPaths).toEqual([
        'https://wpthemetestdata.wordpress.com/2013/01/11/markup-html-tags-and-formatting/',
        '/?p=1178',
      ]);
      expect(markup?.html).toContain('<blockquote>Stay hungry. Stay foolish.</blockquote>');
      expect(markup?.html).toContain('<table>');
      expect(
        bundle.posts.find((post) => post.title.startsWith('Template: Password Protected'))
          ?.visibility,
      ).toBe('members');
      expect(bundle.comments).toBe(33);
      expect(bundle.attachments.size).toBe(37);
      expect(
        bundle.skipped.every(
          (item) => item.reason === 'a WordPress "nav_menu_item" item, not a post or page',
        ),
      ).toBe(true);
      expect(bundle.skipped).toHaveLength(70);
    });

    it('the other WordPress files: read, with UTF-8 slugs kept as the file has them', async () => {
      const titles = async (file: string) =>
        (await readExport('wordpress', sample(`wordpress/${file}`))).posts.map(
          (post) => post.title,
        );
      expect(await titles('wxr-simple.xml')).toEqual(['"The Road Not Taken" by Robert Frost']);
      expect(await titles('valid-wxr-1.1.xml')).toEqual(['Hello world!', 'About']);
      expect(await titles('wxr-complete.xml')).toHaveLength(3);
      const utf8 = await readExport('wordpress', sample('wordpress/wxr-utf-8-challenges.xml'));
      expect(utf8.posts[0]?.slug).toContain('\u202E');
    });

    it('the malformed file and the namespace attacks are refused, saying where', async () => {
      const malformed = await refusal(
        readExport('wordpress', sample('wordpress/malformed-simple.xml')),
      );
      expect(malformed.message).toBe(
        'The element <item> is never closed (the file ends first) (line 9, column 1)',
      );
      const attacks = await refusal(
        readExport('wordpress', sample('wordpress/namespace-attacks.xml')),
      );
      expect(attacks.where).toMatch(/^line \d+, column \d+$/);
      expect(attacks.message).toContain(
        'The prefix "wp" is bound to http://malicious.example.com/hijack/',
      );
    });

    it('Substack: the draft stays a draft and each post has its /p/ address', async () => {
      const bundle = await readExport('substack', sample('substack/mg-substack'));
      expect(bundle.posts.find((post) => post.slug === 'draft-text')?.status).toBe('draft');
      expect(bundle.posts.map((post) => post.oldPaths[0])).toEqual([
        '/p/plain-text',
        '/p/podcast',
        '/p/thread',
        '/p/draft-text',
        '/p/about-us',
      ]);
    });

    it('Medium: eight posts and the response skipped', async () => {
      const bundle: SourceBundle = await readExport('medium', sample('medium/export'));
      expect(bundle.posts).toHaveLength(8);
      expect(bundle.skipped.map((item) => item.item)).toEqual(['posts/comment.html']);
    });

    it("Substack's members CSVs are read and the invalid one refused", async () => {
      const csv = (file: string) => sample(`substack/mg-substack-members-csv/${file}`);
      expect((await readExport('members', csv('fixtures_signup_emails.csv'))).members).toHaveLength(
        21,
      );
      expect(
        (await readExport('members', csv('fixtures_subscriber_emails.csv'))).members,
      ).toHaveLength(17);
      expect((await refusal(readExport('members', csv('invalid.csv')))).message).toContain(
        "this file's header is: email_address, name",
      );
    });
  },
);

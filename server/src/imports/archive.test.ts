import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempFolder } from '#test/temp-folder';
import { archiveLimits, openExport, readWholeFile, type ExportArchive } from './archive.js';
import { ImportFileError } from './source.js';
import { writeZip } from './test-zip.js';

const temp = useTempFolder('cohort-archive-');

async function refusal(promise: Promise<unknown>): Promise<ImportFileError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ImportFileError);
  return error as ImportFileError;
}

function entryOf(archive: ExportArchive, path: string) {
  const entry = archive.entries.get(path);
  if (!entry) throw new Error(`${path} is not listed`);
  return entry;
}

describe('openExport', () => {
  it('lists a folder and a zip of the same export alike, and reads an entry when asked', async () => {
    const folder = join(temp.path, 'export-folder');
    await mkdir(join(folder, 'posts'), { recursive: true });
    await writeFile(join(folder, 'posts.csv'), 'post_id,title\n');
    await writeFile(join(folder, 'posts', '1.a.html'), '<p>A</p>');
    const zip = join(temp.path, 'export.zip');
    await writeZip(zip, [
      { name: 'posts/', data: '', deflate: false },
      { name: 'posts.csv', data: 'post_id,title\n' },
      { name: 'posts/1.a.html', data: '<p>A</p>' },
    ]);

    for (const path of [folder, zip]) {
      const archive = await openExport(path);
      expect([...archive.entries.keys()].sort()).toEqual(['posts.csv', 'posts/1.a.html']);
      const entry = archive.entries.get('posts/1.a.html');
      expect(entry?.size).toBe(8);
      expect((await entry?.read())?.toString()).toBe('<p>A</p>');
      await archive.close();
    }
  });

  it('reads a zip entry again after the zip was closed (the writer reads images long after)', async () => {
    const zip = join(temp.path, 'reopen.zip');
    await writeZip(zip, [{ name: 'content/images/a.jpg', data: 'image bytes' }]);
    const archive = await openExport(zip);
    await archive.close();
    expect((await archive.entries.get('content/images/a.jpg')?.read())?.toString()).toBe(
      'image bytes',
    );
    await archive.close();
  });

  it('does not follow symbolic links out of an export folder', async () => {
    const folder = join(temp.path, 'linked');
    await mkdir(folder);
    await writeFile(join(folder, 'posts.csv'), 'x');
    await symlink('/etc/passwd', join(folder, 'passwd'));
    const archive = await openExport(folder);
    expect([...archive.entries.keys()]).toEqual(['posts.csv']);
  });

  it.each([
    ['../evil.txt', 'a path that leaves the archive'],
    ['posts/../../evil.txt', 'a path that leaves the archive'],
    ['/etc/cron.d/evil', 'an absolute path'],
    ['C:/evil.txt', 'an absolute path'],
    // yauzl reads backslashes as separators, so this is the same climb as the first.
    ['posts\\..\\evil.txt', 'a path that leaves the archive'],
  ])('refuses a zip whose entry %s would land outside the export', async (name, reason) => {
    const zip = join(temp.path, 'escape.zip');
    await writeZip(zip, [
      { name: 'posts.csv', data: 'x' },
      { name, data: 'owned' },
    ]);
    const error = await refusal(openExport(zip));
    expect(error.message).toContain(reason);
    expect(error.message).toContain(JSON.stringify(name.replaceAll('\\', '/')));
  });

  it('refuses a zip with more entries than the limit, from its directory alone', async () => {
    const zip = join(temp.path, 'many.zip');
    await writeZip(
      zip,
      Array.from({ length: 6 }, (_, index) => ({ name: `f${index}.txt`, data: 'x' })),
    );
    const error = await refusal(openExport(zip, { ...archiveLimits(), maxEntries: 5 }));
    expect(error.message).toBe('The zip holds 6 entries; at most 5 are accepted');
  });

  it('refuses a zip bomb: an entry that unpacks to more than 100 times its size', async () => {
    const zip = join(temp.path, 'bomb.zip');
    await writeZip(zip, [{ name: 'posts.csv', data: Buffer.alloc(8 * 1024 * 1024) }]);
    const error = await refusal(openExport(zip));
    expect(error.message).toContain('more than 100 times its size (a zip bomb)');
  });

  it('refuses a zip whose entries unpack to more than the limit all together', async () => {
    const zip = join(temp.path, 'large.zip');
    await writeZip(zip, [
      { name: 'a.bin', data: Buffer.alloc(600), deflate: false },
      { name: 'b.bin', data: Buffer.alloc(600), deflate: false },
    ]);
    const error = await refusal(
      openExport(zip, { maxBytes: 10_000, maxEntries: 10, maxUnpackedBytes: 1000 }),
    );
    expect(error.message).toMatch(/^The zip unpacks to more than/);
  });

  it('refuses an export over maxBytes from its size, file or folder', async () => {
    const file = join(temp.path, 'big.xml');
    await writeFile(file, Buffer.alloc(2048));
    const small = archiveLimits(1024);
    expect((await refusal(readWholeFile(file, 1024))).message).toBe(
      'The export is 2.0 KiB; the largest accepted is 1.0 KiB',
    );
    const folder = join(temp.path, 'big-folder');
    await mkdir(folder);
    await writeFile(join(folder, 'a.html'), Buffer.alloc(700));
    await writeFile(join(folder, 'b.html'), Buffer.alloc(700));
    expect((await refusal(openExport(folder, small))).message).toMatch(/^The export is/);
    expect((await readWholeFile(file, 4096)).length).toBe(2048);
  });

  it('refuses to read an entry over the bound named, from its declared size, before a byte is unpacked', async () => {
    const zip = join(temp.path, 'large-entry.zip');
    await writeZip(zip, [{ name: 'export/ghost.json', data: 'x'.repeat(3000) }]);
    const archive = await openExport(zip);
    const entry = entryOf(archive, 'export/ghost.json');
    expect((await refusal(entry.read(2048))).message).toBe(
      '"export/ghost.json" in the export is 2.9 KiB; the largest accepted is 2.0 KiB',
    );
    expect((await entry.read(4096)).length).toBe(3000);
    await archive.close();
  });

  it('refuses an entry whose bytes pass the bound as they come, whatever its listing said', async () => {
    // A zip that says its entry unpacks to 10 bytes, and unpacks to 3000.
    const zip = join(temp.path, 'lying.zip');
    await writeZip(zip, [{ name: 'ghost.json', data: 'x'.repeat(3000), declaredSize: 10 }]);
    const archive = await openExport(zip);
    const error = await refusal(entryOf(archive, 'ghost.json').read(2048));
    expect(error.message).toContain('"ghost.json"');
    await archive.close();
    // A folder's file that grew after the folder was listed.
    const folder = join(temp.path, 'growing');
    await mkdir(folder);
    await writeFile(join(folder, 'ghost.json'), '{}');
    const listed = await openExport(folder);
    await writeFile(join(folder, 'ghost.json'), 'x'.repeat(3000));
    expect((await refusal(entryOf(listed, 'ghost.json').read(2048))).message).toBe(
      '"ghost.json" in the export holds more than 2.0 KiB, the largest accepted',
    );
  });

  it('says plainly when there is nothing at the path, or it is not a zip', async () => {
    expect((await refusal(openExport(join(temp.path, 'missing.zip')))).message).toMatch(
      /^There is no file or folder at /,
    );
    const text = join(temp.path, 'plain.txt');
    await writeFile(text, 'hello');
    expect((await refusal(openExport(text))).message).toContain(
      'is neither a folder nor a zip file',
    );
  });
});

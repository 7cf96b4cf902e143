// Which reader reads which platform's export, from a path on disk (the command's argument, or
// the desk's uploaded file). Every input is measured before it is read: a file or folder over
// `maxBytes` is refused from its size alone.
import { archiveLimits, decodeText, isZipFile, openExport, readWholeFile } from './archive.js';
import { readGhostPath } from './ghost.js';
import { readMedium } from './medium.js';
import { readMembersCsv } from './members-csv.js';
import { ImportFileError, type ImportSource, type SourceBundle } from './source.js';
import { readSubstack } from './substack.js';
import { readWordPress } from './wordpress.js';

export interface ReadExportOptions {
  /** The largest export accepted, in bytes (500 MiB unless said). */
  maxBytes?: number;
}

/** Reads an export into the shape the writers take; throws ImportFileError for a file that cannot be imported at all. */
export async function readExport(
  source: ImportSource,
  path: string,
  options: ReadExportOptions = {},
): Promise<SourceBundle> {
  const limits = archiveLimits(options.maxBytes);
  switch (source) {
    case 'ghost':
      return readGhostPath(path, limits);
    case 'wordpress':
      return readWordPress(decodeText(await readPlainFile(path, limits.maxBytes, 'the .xml file')));
    case 'substack':
      return readSubstack(await openExport(path, limits));
    case 'medium':
      return readMedium(await openExport(path, limits));
    case 'members':
      return readMembersCsv(
        decodeText(await readPlainFile(path, limits.maxBytes, 'the .csv file')),
      );
  }
}

/** A WXR or CSV export is one file: a zip of it is refused with what to do instead. */
async function readPlainFile(path: string, maxBytes: number, what: string): Promise<Buffer> {
  const bytes = await readWholeFile(path, maxBytes);
  if (await isZipFile(path)) {
    throw new ImportFileError(`This is a zip file: unzip it and import ${what} inside`);
  }
  return bytes;
}

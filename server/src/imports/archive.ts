// One way to read an export whether the publisher hands over the unpacked folder or the zip the
// platform gave them. Only the listing is read up front; an entry's bytes are read when a reader
// asks for them, so a Ghost zip's images stay on disk until a post needs one.
import { createReadStream } from 'node:fs';
import { lstat, open, readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { ImportFileError } from './source.js';

/** 500 MiB: larger uploads are refused from their size, before a byte is read. */
export const DEFAULT_MAX_BYTES = 500 * 1024 * 1024;
const DEFAULT_MAX_ENTRIES = 50_000;
/** A compressed entry that grows more than this many times over is a zip bomb, not an export. */
const MAX_RATIO = 100;
/** Entries smaller than this may compress well (text, JSON) without being suspect. */
const RATIO_CHECKED_FROM = 1024 * 1024;

export interface ArchiveLimits {
  /** The largest file (or folder, all files together) accepted, measured before reading. */
  maxBytes: number;
  maxEntries: number;
  /** The most the zip may unpack to, all entries together, as its listing declares. */
  maxUnpackedBytes: number;
}

export interface ArchiveEntry {
  /** Its path inside the export, with `/` separators and no leading slash. */
  path: string;
  size: number;
  /**
   * Its bytes. With `maxBytes`, refused (ImportFileError) when it holds more: from its listed
   * size before a byte is read, and from the bytes as they come (a zip can lie about sizes, a
   * file can grow after its folder was listed).
   */
  read(maxBytes?: number): Promise<Buffer>;
}

export interface ExportArchive {
  /** Entries by path; folders themselves are not listed. */
  entries: Map<string, ArchiveEntry>;
  close(): Promise<void>;
}

export function archiveLimits(maxBytes = DEFAULT_MAX_BYTES): ArchiveLimits {
  // Exports are mostly text and already-compressed images: four times the upload limit unpacked
  // leaves room for any real export and none for a bomb.
  return { maxBytes, maxEntries: DEFAULT_MAX_ENTRIES, maxUnpackedBytes: maxBytes * 4 };
}

/** The size of a file or folder (all files in it), refused when over the limit. */
async function refuseOversized(path: string, maxBytes: number): Promise<void> {
  const stats = await statOrRefuse(path);
  const size = stats.isDirectory() ? await folderSize(path, maxBytes) : stats.size;
  if (size > maxBytes) {
    throw new ImportFileError(
      `The export is ${formatSize(size)}; the largest accepted is ${formatSize(maxBytes)}`,
    );
  }
}

async function statOrRefuse(path: string) {
  try {
    return await lstat(path);
  } catch {
    throw new ImportFileError(`There is no file or folder at ${path}`);
  }
}

async function folderSize(root: string, stopAbove: number): Promise<number> {
  let total = 0;
  for (const file of await listFolder(root, Number.MAX_SAFE_INTEGER)) {
    total += file.size;
    if (total > stopAbove) break;
  }
  return total;
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** True when the file starts as a zip does (a local header, or the end record of an empty zip). */
export async function isZipFile(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return (
      bytesRead === 4 && head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5)
    );
  } finally {
    await handle.close();
  }
}

/** True for a file that is not a zip (a JSON, XML or CSV export); false for folders and zips. */
export async function isPlainFile(path: string): Promise<boolean> {
  const stats = await statOrRefuse(path);
  return stats.isFile() && !(await isZipFile(path));
}

/** Reads one plain file whole, after refusing it from its size if it is too large. */
export async function readWholeFile(path: string, maxBytes = DEFAULT_MAX_BYTES): Promise<Buffer> {
  await refuseOversized(path, maxBytes);
  const stats = await lstat(path);
  if (!stats.isFile()) throw new ImportFileError(`${path} is not a file`);
  return readFile(path);
}

/** A folder or a zip, listed; its entries' bytes are read only when asked. */
export async function openExport(
  path: string,
  limits: ArchiveLimits = archiveLimits(),
): Promise<ExportArchive> {
  await refuseOversized(path, limits.maxBytes);
  const stats = await lstat(path);
  if (stats.isDirectory()) return openFolder(path, limits);
  if (stats.isFile() && (await isZipFile(path))) return openZip(path, limits);
  throw new ImportFileError(`${path} is neither a folder nor a zip file`);
}

async function openFolder(root: string, limits: ArchiveLimits): Promise<ExportArchive> {
  const entries = new Map<string, ArchiveEntry>();
  for (const file of await listFolder(root, limits.maxEntries)) {
    entries.set(file.path, {
      path: file.path,
      size: file.size,
      read: (maxBytes) => readBounded(file, async () => createReadStream(file.full), maxBytes),
    });
  }
  return { entries, close: async () => {} };
}

interface FolderFile {
  path: string;
  full: string;
  size: number;
}

/**
 * Every regular file under the folder. Symbolic links are not followed: a link could point
 * anywhere on the machine, and an export never needs one.
 */
async function listFolder(root: string, maxEntries: number): Promise<FolderFile[]> {
  const files: FolderFile[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const folder = pending.pop() as string;
    for (const dirent of await readdir(folder, { withFileTypes: true })) {
      const full = join(folder, dirent.name);
      if (dirent.isDirectory()) pending.push(full);
      else if (dirent.isFile()) {
        if (files.length >= maxEntries) {
          throw new ImportFileError(`The export has more than ${maxEntries} files`);
        }
        const path = relative(root, full).split(sep).join('/');
        files.push({ path, full, size: (await lstat(full)).size });
      }
    }
  }
  return files;
}

/** Why an entry's name cannot be trusted, or null: it must stay inside the archive. */
export function unsafeEntryPath(name: string): string | null {
  if (name.includes('\\')) return 'a backslash in its path';
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return 'an absolute path';
  if (name.split('/').includes('..')) return 'a path that leaves the archive (..)';
  if (name.includes('\0')) return 'a NUL character in its path';
  return null;
}

/** How long an opened zip stays open after its last read, before its file is closed. */
const ZIP_IDLE_MS = 2000;

/**
 * A zip whose listing is read once, and whose file stays open only while entries are being read:
 * a bundle's files are read by the writer long after the reader returned, and nothing in the
 * bundle closes it, so an idle zip closes itself and opens again when asked.
 */
async function openZip(path: string, limits: ArchiveLimits): Promise<ExportArchive> {
  let listing: ZipListing | null = await listZip(path, limits);
  let reading = 0;
  let idle: NodeJS.Timeout | null = null;
  const closeNow = () => {
    if (idle) clearTimeout(idle);
    idle = null;
    listing?.zip.close();
    listing = null;
  };
  const readEntry = async (name: string, entryPath: string, maxBytes?: number): Promise<Buffer> => {
    if (idle) clearTimeout(idle);
    idle = null;
    reading += 1;
    try {
      listing ??= await listZip(path, limits);
      const entry = listing.entries.get(name);
      if (!entry) throw new ImportFileError(`The zip entry ${name} is no longer in the file`);
      const zip = listing.zip;
      const listed = { path: entryPath, size: entry.uncompressedSize };
      return await readBounded(listed, () => openZipStream(zip, entry), maxBytes);
    } finally {
      reading -= 1;
      if (reading === 0) {
        idle = setTimeout(closeNow, ZIP_IDLE_MS);
        idle.unref();
      }
    }
  };
  const entries = new Map<string, ArchiveEntry>();
  for (const [name, entry] of listing.entries) {
    const entryPath = name.replace(/^\.\//, '');
    entries.set(entryPath, {
      path: entryPath,
      size: entry.uncompressedSize,
      read: (maxBytes) => readEntry(name, entryPath, maxBytes),
    });
  }
  idle = setTimeout(closeNow, ZIP_IDLE_MS);
  idle.unref();
  return { entries, close: async () => closeNow() };
}

const YAUZL_NAME_ERRORS: [RegExp, string][] = [
  [/^absolute path: (.*)$/s, 'an absolute path'],
  [/^invalid relative path: (.*)$/s, 'a path that leaves the archive (..)'],
  [/^invalid characters in fileName: (.*)$/s, 'a backslash in its path'],
];

function refusedByYauzl(reason: unknown): ImportFileError {
  if (reason instanceof ImportFileError) return reason;
  const message = reason instanceof Error ? reason.message : String(reason);
  for (const [pattern, what] of YAUZL_NAME_ERRORS) {
    const name = pattern.exec(message)?.[1];
    if (name !== undefined)
      return new ImportFileError(`The zip entry ${JSON.stringify(name)} has ${what}`);
  }
  return new ImportFileError(`The zip file cannot be read: ${message}`);
}

interface ZipListing {
  zip: yauzl.ZipFile;
  /** File entries (not folders) by their name in the zip. */
  entries: Map<string, yauzl.Entry>;
}

function listZip(path: string, limits: ArchiveLimits): Promise<ZipListing> {
  return new Promise((resolve, reject) => {
    // yauzl checks each name itself (absolute, `..`, backslashes turned to `/` first) and fails
    // with a bare Error: refusedByYauzl turns that into the refusal that names the entry.
    yauzl.open(
      path,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false },
      (error, zip) => {
        if (error || !zip) {
          reject(
            new ImportFileError(`The zip file cannot be read: ${error?.message ?? 'unknown'}`),
          );
          return;
        }
        if (zip.entryCount > limits.maxEntries) {
          zip.close();
          reject(
            new ImportFileError(
              `The zip holds ${zip.entryCount} entries; at most ${limits.maxEntries} are accepted`,
            ),
          );
          return;
        }
        collectZipEntries(zip, limits).then(
          (entries) => resolve({ zip, entries }),
          (reason: unknown) => {
            zip.close();
            reject(refusedByYauzl(reason));
          },
        );
      },
    );
  });
}

function collectZipEntries(
  zip: yauzl.ZipFile,
  limits: ArchiveLimits,
): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, yauzl.Entry>();
    let unpacked = 0;
    zip.on('error', reject);
    zip.on('entry', (entry: yauzl.Entry) => {
      const name = entry.fileName;
      const unsafe = unsafeEntryPath(name);
      if (unsafe) {
        reject(new ImportFileError(`The zip entry ${JSON.stringify(name)} has ${unsafe}`));
        return;
      }
      unpacked += entry.uncompressedSize;
      if (unpacked > limits.maxUnpackedBytes) {
        reject(
          new ImportFileError(
            `The zip unpacks to more than ${formatSize(limits.maxUnpackedBytes)}`,
          ),
        );
        return;
      }
      if (
        entry.uncompressedSize >= RATIO_CHECKED_FROM &&
        entry.uncompressedSize > MAX_RATIO * Math.max(entry.compressedSize, 1)
      ) {
        reject(
          new ImportFileError(
            `The zip entry ${JSON.stringify(name)} unpacks to more than ${MAX_RATIO} times its size (a zip bomb)`,
          ),
        );
        return;
      }
      if (!name.endsWith('/')) entries.set(name, entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.readEntry();
  });
}

function openZipStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) {
        reject(
          new ImportFileError(
            `The zip entry ${entry.fileName} cannot be read: ${error?.message ?? 'unknown'}`,
          ),
        );
      } else resolve(stream);
    });
  });
}

/**
 * An entry read whole, if it holds at most `maxBytes`: refused from its listed size before its
 * stream is opened, and from its bytes as they come, the stream then destroyed. A zip's stream
 * also fails by itself past the size it declared (validateEntrySizes).
 */
async function readBounded(
  entry: { path: string; size: number },
  openStream: () => Promise<Readable>,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<Buffer> {
  const name = JSON.stringify(entry.path);
  const limit = formatSize(maxBytes);
  if (entry.size > maxBytes) {
    throw new ImportFileError(
      `${name} in the export is ${formatSize(entry.size)}; the largest accepted is ${limit}`,
    );
  }
  const stream = await openStream();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    stream.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) {
        stream.destroy();
        reject(
          new ImportFileError(
            `${name} in the export holds more than ${limit}, the largest accepted`,
          ),
        );
        return;
      }
      chunks.push(chunk);
    });
    stream.on('error', (error) =>
      reject(new ImportFileError(`${name} in the export cannot be read: ${error.message}`)),
    );
    stream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

/** An export's text file as a string: UTF-8, with a byte-order mark left out. */
export function decodeText(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

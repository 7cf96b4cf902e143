import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AwsClient } from 'aws4fetch';
import parseRange from 'range-parser';

/** Bytes `start` to `end` of a file, both included (as HTTP's Range counts them). */
export interface ByteRange {
  start: number;
  end: number;
}

/** A file's bytes as they are served. */
export interface StoredFile {
  body: Readable;
  /** The bytes in `body`. */
  length: number;
}

/** A file read from the store: its bytes, or the part a Range asked for. */
export interface StoredPart extends StoredFile {
  /** The whole file's bytes. */
  size: number;
  /** The part in `body` when a Range was answered; null: the whole file. */
  range: ByteRange | null;
}

/** A Range that asks for no byte of the file (416): the file's size, for Content-Range. */
export class RangeNotSatisfiableError extends Error {
  override name = 'RangeNotSatisfiableError';
  constructor(readonly size: number) {
    super(`no byte of the ${size} asked for`);
  }
}

/**
 * Where uploaded files are kept: a folder, or an S3-compatible bucket. Images are small and made
 * in memory; audio and video go in from a file on disk and out by range, never whole in memory.
 */
export interface ImageStore {
  /** Keeps a file under this name (names are never reused for other bytes). */
  put(name: string, bytes: Buffer, contentType: string): Promise<void>;
  /** Keeps the file at `path` under this name, streamed from disk. */
  putFile(name: string, path: string, contentType: string): Promise<void>;
  /**
   * The file, or null when there is none by that name. With `range` (an HTTP Range header), the
   * single range it asks for; the whole file for one it cannot take (several ranges, not bytes),
   * as HTTP allows; RangeNotSatisfiableError when it asks for none of the file's bytes.
   */
  get(name: string, range?: string): Promise<StoredPart | null>;
  /** The file's size in bytes, or null when there is none by that name. */
  size(name: string): Promise<number | null>;
}

/**
 * A folder (`UPLOADS_DIR`): a Docker volume or a Kubernetes volume. Each file is written beside
 * its final name and renamed into place, so a reader never gets half a file.
 */
export function folderStore(dir: string): ImageStore {
  let made: Promise<unknown> | null = null;
  return {
    async put(name, bytes) {
      made ??= mkdir(dir, { recursive: true });
      await made;
      const temporary = join(dir, `.${name}.${process.pid}.${Date.now()}`);
      await writeFile(temporary, bytes);
      await rename(temporary, join(dir, name));
    },
    async putFile(name, path) {
      made ??= mkdir(dir, { recursive: true });
      await made;
      const temporary = join(dir, `.${name}.${process.pid}.${Date.now()}`);
      try {
        await pipeline(createReadStream(path), createWriteStream(temporary));
        await rename(temporary, join(dir, name));
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async get(name, rangeHeader) {
      const file = join(dir, name);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return null;
      const range = rangeHeader ? rangeOf(info.size, rangeHeader) : null;
      return {
        body: createReadStream(file, range ?? {}),
        length: range ? range.end - range.start + 1 : info.size,
        size: info.size,
        range,
      };
    },
    async size(name) {
      const info = await stat(join(dir, name)).catch(() => null);
      return info?.isFile() ? info.size : null;
    },
  };
}

/**
 * The single range a Range header asks of a file this size (range-parser, Express's); null for
 * one to answer with the whole file (malformed, several ranges, or not bytes).
 */
function rangeOf(size: number, header: string): ByteRange | null {
  const ranges = parseRange(size, header, { combine: true });
  if (ranges === -1) throw new RangeNotSatisfiableError(size);
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return null;
  const [only] = ranges;
  return only ? { start: only.start, end: only.end } : null;
}

/** The store the configuration names: the bucket when S3 is set, else the folder. */
export function openImageStore(uploads: { dir: string; s3: S3Options | null }): ImageStore {
  return uploads.s3 ? s3Store(uploads.s3) : folderStore(uploads.dir);
}

export interface S3Options {
  /** The service's address: `https://s3.eu-west-1.amazonaws.com`, or MinIO's, R2's, B2's… */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * An S3-compatible bucket (`S3_ENDPOINT`, `S3_BUCKET`, keys), so that app servers on different
 * machines share the images. Requests are signed with AWS Signature V4 (aws4fetch) and name the
 * bucket in the path, which every S3-compatible service takes. The app streams a file from the
 * bucket to the reader (the bucket needs no public access); nginx and browsers cache it for a year.
 */
export function s3Store(options: S3Options): ImageStore {
  const client = new AwsClient({
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
    region: options.region,
    service: 's3',
  });
  const base = `${options.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(options.bucket)}/`;
  const url = (name: string) => `${base}${encodeURIComponent(name)}`;
  const refused = async (method: string, name: string, response: Response) => {
    if (response.status === 403) {
      await response.body?.cancel();
      return new Error(`S3 ${method} ${name}: 403 (check the keys)`);
    }
    return new Error(`S3 ${method} ${name}: ${response.status} ${await response.text()}`);
  };
  const size = async (name: string) => {
    const response = await client.fetch(url(name), { method: 'HEAD' });
    if (response.status === 404) return null;
    if (!response.ok) throw await refused('HEAD', name, response);
    return Number(response.headers.get('content-length') ?? 0);
  };
  return {
    async put(name, bytes, contentType) {
      const response = await client.fetch(url(name), {
        method: 'PUT',
        body: new Uint8Array(bytes),
        headers: {
          'content-type': contentType,
          'cache-control': 'public, max-age=31536000, immutable',
        },
      });
      if (!response.ok) {
        throw new Error(`S3 PUT ${name}: ${response.status} ${await response.text()}`);
      }
    },
    async putFile(name, path, contentType) {
      const { size: length } = await stat(path);
      // One PUT (a file here is at most VIDEO_MAX_MB, far under S3's 5 GB for one), streamed from
      // disk with its length said, as S3 requires; unsigned, as a stream cannot be hashed first.
      // aws4fetch's own retries would send a stream already read, so a retry opens the file again.
      for (let attempt = 1; ; attempt += 1) {
        const request = await client.sign(url(name), {
          method: 'PUT',
          body: Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>,
          headers: {
            'content-type': contentType,
            'content-length': String(length),
            'cache-control': 'public, max-age=31536000, immutable',
          },
        });
        const response = await fetch(request);
        if (response.ok) {
          await response.body?.cancel();
          return;
        }
        if (response.status < 500 || attempt === 3) throw await refused('PUT', name, response);
        await response.body?.cancel();
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    },
    async get(name, rangeHeader) {
      // The bucket answers the Range itself (one range; any other Range, the whole file).
      const response = await client.fetch(url(name), {
        method: 'GET',
        headers: rangeHeader ? { range: rangeHeader } : {},
      });
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (response.status === 416) {
        await response.body?.cancel();
        throw new RangeNotSatisfiableError((await size(name)) ?? 0);
      }
      if ((response.status !== 200 && response.status !== 206) || !response.body) {
        throw await refused('GET', name, response);
      }
      const length = Number(response.headers.get('content-length') ?? 0);
      const part =
        response.status === 206
          ? /^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.headers.get('content-range') ?? '')
          : null;
      if (response.status === 206 && !part) {
        await response.body.cancel();
        throw new Error(`S3 GET ${name}: 206 without a Content-Range`);
      }
      return {
        body: Readable.fromWeb(response.body as WebReadableStream),
        length,
        size: part ? Number(part[3]) : length,
        range: part ? { start: Number(part[1]), end: Number(part[2]) } : null,
      };
    },
    size,
  };
}

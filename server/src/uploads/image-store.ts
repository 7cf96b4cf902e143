import { createReadStream } from 'node:fs';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AwsClient } from 'aws4fetch';

/** Where uploaded images' files are kept: a folder, or an S3-compatible bucket. */
export interface ImageStore {
  /** Keeps a file under this name (names are never reused for other bytes). */
  put(name: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The file and its length, or null when there is none by that name. */
  get(name: string): Promise<{ body: Readable; length: number } | null>;
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
    async get(name) {
      const file = join(dir, name);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return null;
      return { body: createReadStream(file), length: info.size };
    },
  };
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
    async get(name) {
      const response = await client.fetch(url(name), { method: 'GET' });
      if (response.status === 404 || response.status === 403) {
        await response.body?.cancel();
        if (response.status === 403) throw new Error(`S3 GET ${name}: 403 (check the keys)`);
        return null;
      }
      if (!response.ok || !response.body) {
        throw new Error(`S3 GET ${name}: ${response.status}`);
      }
      return {
        body: Readable.fromWeb(response.body as WebReadableStream),
        length: Number(response.headers.get('content-length') ?? 0),
      };
    },
  };
}

import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { madeLater } from './made-later.js';
import { withSite, type Site } from './with-site.js';

/** A file as a form sends it to the desk's upload route. */
export interface UploadFile {
  bytes: Uint8Array;
  name: string;
  type: string;
  /** The form's field (the route reads `file`). */
  field?: string;
}

const formOf = ({ bytes, name, type, field = 'file' }: UploadFile) => {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
};

/**
 * `POST /api/desk/uploads` on a running site (`base`), as a browser's form sends a file: with
 * its length declared, or, `streamed`, chunked with none (the reader must stop at the limit).
 */
export function uploadToDesk(
  base: string,
  cookie: string | null,
  file: UploadFile,
  { streamed = false } = {},
): Promise<Response> {
  const headers: Record<string, string> = cookie ? { cookie } : {};
  if (!streamed) {
    return fetch(`${base}/api/desk/uploads`, { method: 'POST', headers, body: formOf(file) });
  }
  const encoded = new Response(formOf(file));
  return fetch(`${base}/api/desk/uploads`, {
    method: 'POST',
    headers: { ...headers, 'content-type': encoded.headers.get('content-type') ?? '' },
    body: encoded.body,
    duplex: 'half',
  } as RequestInit);
}

/** A site made by `useUploadsSite`: where it listens, and the folder its uploads are kept in. */
export interface UploadsSite extends Site {
  base: string;
  uploadsDir: string;
  /** The names of the files in its uploads folder, hidden ones left out. */
  files(): Promise<string[]>;
}

/**
 * For the calling describe: a site keeping its uploads in a new folder of its own and listening on
 * a real port (a browser's multipart, a player's ranges), made by its first `beforeAll`; closed,
 * and its folder removed, after its tests.
 */
export function useUploadsSite(env: Record<string, string>): UploadsSite {
  const [site, make, made] = madeLater<UploadsSite>('The uploads site');
  let uploadsDir: string | undefined;
  beforeAll(async () => {
    uploadsDir = await mkdtemp(join(tmpdir(), 'cohort-uploads-test-'));
    const t = await withSite({ env: { ...env, UPLOADS_DIR: uploadsDir } });
    make(Object.assign(t, { base: '', uploadsDir, files: filesIn(uploadsDir) }));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    site.base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await made()?.close();
    if (uploadsDir) await rm(uploadsDir, { recursive: true, force: true });
  });
  return site;
}

/** The names of the files in `folder`, hidden ones left out. */
const filesIn = (folder: string) => async () =>
  (await readdir(folder)).filter((name) => !name.startsWith('.'));

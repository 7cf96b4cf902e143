import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * A folder of its own for the tests of the file or `describe` block that calls this: made before
 * them (named `<prefix>…` in the system's temporary folder), removed with what they wrote after.
 */
export function useTempFolder(prefix: string): { readonly path: string } {
  let path: string | undefined;
  beforeAll(async () => {
    path = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (path) await rm(path, { recursive: true, force: true });
  });
  return {
    get path() {
      if (!path) throw new Error('useTempFolder: the folder is made before the tests, not before');
      return path;
    },
  };
}

import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashBuildInputs, reasonToBuild, writeBuildStamp } from './build-stamp.mjs';

const INPUTS = ['client', 'content', 'package-lock.json'];
const OUTPUTS = ['dist/client/index.html', 'dist/server/src/server.js'];

let root: string;

async function put(file: string, text: string) {
  await mkdir(dirname(join(root, file)), { recursive: true });
  await writeFile(join(root, file), text);
}

/** What `npm start` decides: the reason to build, or null to start at once. */
async function decide() {
  return reasonToBuild(root, await hashBuildInputs(root, INPUTS), OUTPUTS);
}

/** A build of the sources as they are now, stamped as scripts/start.mjs does. */
async function build() {
  const hash = await hashBuildInputs(root, INPUTS);
  for (const output of OUTPUTS) await put(output, `built from ${hash}`);
  await writeBuildStamp(root, hash, OUTPUTS);
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'cohort-stamp-'));
  await put('client/src/main.tsx', 'render()');
  await put('content/articles/one.md', '# One');
  await put('package-lock.json', '{}');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('deciding whether npm start builds', () => {
  it('builds when there has been no build', async () => {
    expect(await decide()).toBe('no earlier build');
  });

  it('skips the build when no source changed since the last one, even if a file was touched', async () => {
    await build();
    expect(await decide()).toBeNull();

    const later = new Date(Date.now() + 60_000);
    await utimes(join(root, 'client/src/main.tsx'), later, later);
    expect(await decide()).toBeNull();
  });

  it('builds when a source file changed, was added or was removed', async () => {
    await build();
    await put('content/articles/one.md', '# One, edited');
    expect(await decide()).toBe('the sources changed since the last build');

    await build();
    await put('client/src/new-screen.tsx', 'export {}');
    expect(await decide()).toBe('the sources changed since the last build');

    await build();
    await rm(join(root, 'content/articles/one.md'));
    expect(await decide()).toBe('the sources changed since the last build');

    await build();
    await put('package-lock.json', '{"lockfileVersion": 3}');
    expect(await decide()).toBe('the sources changed since the last build');
  });

  it('does not build for a change to a test file, which no build reads', async () => {
    await build();
    await put('client/src/main.test.tsx', 'it()');
    expect(await decide()).toBeNull();
  });

  it('builds when the output is gone or was rebuilt by something else since', async () => {
    await build();
    await rm(join(root, 'dist/server/src/server.js'));
    expect(await decide()).toBe('the build output is missing');

    await build();
    await put('dist/client/index.html', 'built from other sources');
    expect(await decide()).toBe('the build output changed since the last start');
  });
});

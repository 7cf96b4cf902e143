import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildOnce,
  hashBuildInputs,
  LOCK_FILE,
  reasonToBuild,
  writeBuildStamp,
} from './build-stamp.mjs';

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

/**
 * A start in a process of its own, as `npm start` runs: buildOnce with a build that takes a while,
 * notes itself in builds.log and writes the outputs. Answers what it printed.
 */
function startInAnotherProcess(name: string): Promise<string> {
  const module = new URL('./build-stamp.mjs', import.meta.url).pathname;
  const script = `
    import { appendFile, mkdir, writeFile } from 'node:fs/promises';
    import { join } from 'node:path';
    const { buildOnce } = await import(${JSON.stringify(module)});
    const root = ${JSON.stringify(root)};
    const reason = await buildOnce(root, {
      inputs: ${JSON.stringify(INPUTS)},
      outputs: ${JSON.stringify(OUTPUTS)},
      onWait: () => console.log('waited'),
      build: async () => {
        await appendFile(join(root, 'builds.log'), '${name}\\n');
        await new Promise((resolve) => setTimeout(resolve, 500));
        for (const output of ${JSON.stringify(OUTPUTS)}) {
          await mkdir(join(root, output, '..'), { recursive: true });
          await writeFile(join(root, output), 'built by ${name}');
        }
      },
    });
    console.log(reason ?? 'started the existing build');
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script]);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(output))));
  });
}

describe('building once', () => {
  it('stamps a forced build (npm run build), so the next start does not build again', async () => {
    const built: string[] = [];
    const reason = await buildOnce(root, {
      force: true,
      inputs: INPUTS,
      outputs: OUTPUTS,
      build: async () => {
        built.push('build');
        for (const output of OUTPUTS) await put(output, 'built');
      },
    });
    expect(reason).toBe('asked to');
    expect(built).toEqual(['build']);
    expect(await decide()).toBeNull();
  });

  it('builds once when two starts begin together: the second waits, then starts that build', async () => {
    const outputs = await Promise.all([startInAnotherProcess('a'), startInAnotherProcess('b')]);
    const builds = (await readFile(join(root, 'builds.log'), 'utf8')).trim().split('\n');
    expect(builds).toHaveLength(1);
    expect(outputs.filter((output) => output.includes('no earlier build'))).toHaveLength(1);
    expect(outputs.filter((output) => output.includes('waited'))).toHaveLength(1);
    expect(outputs.filter((output) => output.includes('started the existing build'))).toHaveLength(
      1,
    );
    expect(await decide()).toBeNull();
  });

  it('takes over the lock of a build that died half-way', async () => {
    // A pid that is not running: the process that held it is gone.
    await put(LOCK_FILE, '2147483646');
    const reason = await buildOnce(root, {
      inputs: INPUTS,
      outputs: OUTPUTS,
      build: async () => {
        for (const output of OUTPUTS) await put(output, 'built');
      },
    });
    expect(reason).toBe('no earlier build');
    await expect(readFile(join(root, LOCK_FILE))).rejects.toThrow(/ENOENT/);
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// A fresh clone has nothing beside it: every file the tests, the build or the server read must be
// inside the repository. A relative path in code that climbs out of it (the fake Stripe once read
// `../shared/stripe/fixtures3.json`) passes here and fails on every other machine.

const root = resolve(new URL('../..', import.meta.url).pathname);
const SELF = 'tests/lint/inside-repository.test.ts';
const trackedCode = execFileSync('git', ['ls-files', '*.ts', '*.tsx', '*.mjs', '*.js', '*.cjs'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((path) => path !== '' && !path.startsWith('server/src/generated/'))
  // A file moved away but not yet committed is still in the index.
  .filter((path) => existsSync(join(root, path)))
  // Its literals are sample source lines of a made-up file elsewhere in the tree, not paths read.
  .filter((path) => path !== 'tests/lint/import-boundaries.test.ts');

/** Every string literal that starts with `../` and the folder it is relative to. */
function climbingPaths(path: string): string[] {
  const source = readFileSync(join(root, path), 'utf8');
  return [...source.matchAll(/(['"`])((?:\.\.\/)+[^'"`\s]*)\1/g)].flatMap((match) =>
    match[2] ? [match[2]] : [],
  );
}

/**
 * The one module allowed to name something beside the repository: the migration samples, which
 * tests read only where they are present (and may not copy in: the WordPress ones are GPL).
 */
const SAMPLES_MODULE = 'tests/support/migration-samples.ts';

/** How many times a file names the shared samples folder, however it builds the path. */
const samplePathsIn = (path: string) =>
  [
    ...readFileSync(join(root, path), 'utf8').matchAll(
      /['"`]migration-samples['"`/]|['"`](?:\.\.\/)+shared\//g,
    ),
  ].length;

describe('the repository is self-contained', () => {
  it('names the shared migration samples in one module only', () => {
    const naming = trackedCode.filter(
      (path) => path !== SAMPLES_MODULE && path !== SELF && samplePathsIn(path) > 0,
    );
    expect(naming).toEqual([]);
  });

  it('has tracked code to check', () => {
    expect(trackedCode.length).toBeGreaterThan(100);
  });

  it('reads no file outside the repository through a relative path', () => {
    const outside = trackedCode.flatMap((path) =>
      climbingPaths(path)
        .filter((literal) =>
          relative(root, resolve(dirname(join(root, path)), literal)).startsWith('..'),
        )
        .map((literal) => `${path}: ${literal}`),
    );
    expect(outside).toEqual([]);
  });
});

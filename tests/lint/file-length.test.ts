import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// No source file over 600 lines: past that a file holds more than one subject, and a reader has
// to search it instead of opening the file named for what they want. Split by subject (see
// tests/support/fake-stripe/ or server/src/imports/import-posts/), not by cutting at a line.
// Generated code, fixtures (the platforms' own files) and migrations are not ours to shape.

const MAX_LINES = 600;
const root = new URL('../..', import.meta.url).pathname;

/** Not written by hand, or written to be kept as another tool or platform wrote it. */
const NOT_OURS = /(^|\/)(generated|fixtures|migrations)\//;

/** Tracked and new (not ignored) files, so a file is checked before it is first committed. */
const sourceFiles = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.tsx', '*.mjs', '*.css'],
  { cwd: root, encoding: 'utf8' },
)
  .split('\n')
  .filter((path) => path !== '' && !NOT_OURS.test(path))
  // A file moved away but not yet committed is still in the index.
  .filter((path) => existsSync(join(root, path)));

/** Lines as `wc -l` counts them: a last line without its newline still counts. */
function lineCount(path: string): number {
  const text = readFileSync(join(root, path), 'utf8');
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('source files stay short', () => {
  it('has source files to measure', () => {
    expect(sourceFiles.length).toBeGreaterThan(100);
  });

  it(`has no source file over ${MAX_LINES} lines`, () => {
    const tooLong = [...new Set(sourceFiles)]
      .map((path) => ({ path, lines: lineCount(path) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ path, lines }) => `${path}: ${lines} lines`);
    expect(tooLong).toEqual([]);
  });
});

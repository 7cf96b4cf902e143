import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// One error answer (docs/development.md): one function describes any error
// (`describeError`), one handler answers it for the whole app, and each shape is written by one
// module. A second `setErrorHandler` in an area would be a second set of rules for what the client
// is told and what is logged.

const root = new URL('../..', import.meta.url).pathname;
const THE_HANDLER = 'server/src/plugins/app/error-handler.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

const files = sourceFiles(join(root, 'server/src'));
const filesWith = (pattern: RegExp) =>
  files
    .filter((file) => pattern.test(readFileSync(file, 'utf8')))
    .map((file) => relative(root, file));

describe('the error answer', () => {
  it('has one error handler for the whole app', () => {
    expect(filesWith(/\.setErrorHandler\(/)).toEqual([THE_HANDLER]);
    expect(
      readFileSync(join(root, THE_HANDLER), 'utf8').match(/\.setErrorHandler\(/g),
    ).toHaveLength(1);
  });

  it('writes Ghost’s error shape in one module', () => {
    expect(filesWith(/\bghostErrorCode\b/)).toEqual(['server/src/http/ghost-errors.ts']);
  });
});

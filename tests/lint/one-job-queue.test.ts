import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// One job queue (server/src/jobs/job-queue.ts): the areas define their queues with it, and an
// operator's command that needs one outside the app makes it there too. A second pg-boss made
// elsewhere would be a second supervisor, a second set of options and a shutdown nobody orders.

const root = new URL('../..', import.meta.url).pathname;
const THE_MODULE = 'server/src/jobs/job-queue.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return entry.name === 'node_modules' || entry.name === 'generated' ? [] : sourceFiles(path);
    }
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

const files = ['server/src', 'scripts', 'tests'].flatMap((dir) => sourceFiles(join(root, dir)));
const filesWith = (pattern: RegExp) =>
  files
    .filter((file) => pattern.test(readFileSync(file, 'utf8')))
    .map((file) => relative(root, file));

describe('the job queue', () => {
  it('is constructed in one module only', () => {
    expect(filesWith(/\bnew PgBoss\b/)).toEqual([THE_MODULE]);
  });

  it('is the only module that imports pg-boss', () => {
    expect(filesWith(/(?:from|import\(|require\()\s*'pg-boss'/)).toEqual([THE_MODULE]);
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// A comment or a doc that sends its reader to a document or an issue tracker outside the
// repository leaves a newcomer with nothing to open: the reasons live in docs/ and
// docs/decisions/. Migrations are left as they are: an applied migration's file may never change
// (its checksum is checked at start-up).

const root = resolve(new URL('../..', import.meta.url).pathname);
const SELF = 'tests/lint/no-outside-citations.test.ts';

/** The citations that point outside the repository, with what to write instead. */
const OUTSIDE_CITATIONS: readonly { pattern: RegExp; instead: string }[] = [
  { pattern: /PRODUCT\.md/, instead: 'a page of docs/ or a record of docs/decisions/' },
  { pattern: /PRODUCT decision/i, instead: 'the record in docs/decisions/' },
  { pattern: /\bissues? #?\d+/i, instead: 'the doc or decision record, or say what it is' },
];

/** Every line of `text` that cites something outside the repository, as `file:line: text`. */
function outsideCitations(path: string, text: string): string[] {
  return text.split('\n').flatMap((line, index) => {
    const found = OUTSIDE_CITATIONS.find(({ pattern }) => pattern.test(line));
    return found ? [`${path}:${index + 1}: ${line.trim()} (cite ${found.instead})`] : [];
  });
}

/** The repository's files as a commit would hold them: tracked, and new ones not ignored. */
function repositoryFiles(): string[] {
  const listed = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  ).split('\0');
  return [...new Set(listed)].filter(
    (path) =>
      path !== '' &&
      !path.startsWith('prisma/migrations/') &&
      // Its examples are the citations it looks for.
      path !== SELF &&
      // A file deleted in the working tree but not yet in the index.
      existsSync(join(root, path)),
  );
}

/** The file's text, or null for a binary file (an image, a font). */
function textOf(path: string): string | null {
  const bytes = readFileSync(join(root, path));
  return bytes.includes(0) ? null : bytes.toString('utf8');
}

describe('citations stay inside the repository', () => {
  it.each([
    ['a product document', '// The home page (PRODUCT.md decision 6): the pitch.'],
    ['a product decision', ' * Who may use the desk (PRODUCT decision 16). Staff are'],
    ['an issue number', '/** The plans on sale (issue 28); none while payments are off. */'],
    ['an issue number in prose', 'Readers could only scroll. Issue 29 asks for a search page'],
    ['a range of issues', '### 2026-11-23 (later): what issues 17–19 added'],
    ['an issue with a hash', '// Fixed in issue #12.'],
  ])('finds %s', (_name, line) => {
    expect(outsideCitations('x.ts', `first line\n${line}\n`)).toEqual([
      expect.stringMatching(/^x\.ts:2: /),
    ]);
  });

  it.each([
    ['a decision record', '// See docs/decisions/0014-proven-addresses.md.'],
    ['a newsletter issue', '// A members-only issue goes to members alone.'],
    ['a doc section', '// Offers (docs/payments.md#plans): a code taking a percent off.'],
  ])('lets %s pass', (_name, line) => {
    expect(outsideCitations('x.ts', line)).toEqual([]);
  });

  it('finds no citation of PRODUCT.md or an issue number in any source or doc file', () => {
    const files = repositoryFiles();
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap((path) => {
      const text = textOf(path);
      return text === null ? [] : outsideCitations(path, text);
    });
    expect(found).toEqual([]);
  });
});

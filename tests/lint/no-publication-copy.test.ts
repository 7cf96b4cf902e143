import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// No publication's words in the code: the seed site (the sample publication, whose
// specification is the product's origin) speaks in content/ (its posts, pages and settings.json),
// loaded with the samples; the client, the server and the contract speak for any publication.
// Its distinctive lines, taken from the seed's specification and the sample site's copy, must
// not come back in their source: a site without samples would say them.

const root = new URL('../..', import.meta.url).pathname;

/** The source the check reads: tests, docs and content/ may quote the seed. */
const FOLDERS = ['client/src', 'server/src', 'contract'];
const SOURCE = /\.(tsx?|css|html|json)$/;
const NOT_CHECKED = /(^|\/)generated\/|\.test\.tsx?$|\.spec\.tsx?$/;

/** The seed's marketing lines and the phrases only it says (case and line breaks aside). */
const SEED_LINES = [
  'Millennial',
  'Gen Z',
  'Gen-Z',
  '70 million Americans',
  'aged 18 to 41',
  'aged 18 - 41',
  '18–41',
  'born 1981',
  'Your Generation, Better Informed',
  'Better Informed',
  'Built for Millennials',
  'No tracking, one-click',
  'better quality of life',
  'Trusted information and resources',
  'Discounts on food, travel, services and online retailers',
  'For a dollar per month get access to',
  'a dollar per month',
  'Support early access today for only',
  'Content and tools accessible from anywhere',
  'home base for the more than',
  'causes to back and free learning',
  'campaigns worth backing and one thing to do each week',
  'generational challenges',
];

interface Hit {
  file: string;
  line: number;
  phrase: string;
}

function sourceFiles(): string[] {
  return FOLDERS.flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
      .map((path) => join(folder, path))
      .filter((path) => SOURCE.test(path) && !NOT_CHECKED.test(path)),
  );
}

/**
 * Where each phrase is in `text`: its words may run across lines (JSX text, a comment's lines), so
 * the text is read as one line of words, each character remembering its line.
 */
function findSeedLines(file: string, text: string, phrases = SEED_LINES): Hit[] {
  let words = '';
  const lineOf: number[] = [];
  text.split('\n').forEach((raw, index) => {
    // A comment's markers and JSX's `{' '}` are not words.
    const line = raw.replace(/^\s*(\/\/+|\/?\*+\/?|\{\/\*)/, ' ').replace(/\{' '\}/g, ' ');
    for (const char of ` ${line}`) {
      if (/\s/.test(char) && words.endsWith(' ')) continue;
      words += /\s/.test(char) ? ' ' : char;
      lineOf.push(index + 1);
    }
  });
  const lower = words.toLowerCase();
  const hits: Hit[] = [];
  for (const phrase of phrases) {
    const wanted = phrase.toLowerCase().replace(/\s+/g, ' ');
    for (let at = lower.indexOf(wanted); at !== -1; at = lower.indexOf(wanted, at + 1)) {
      hits.push({ file, line: lineOf[at] ?? 0, phrase });
    }
  }
  return hits;
}

describe('the source speaks for any publication', () => {
  it('finds a seed line, even across lines and in a comment, naming its file and line', () => {
    const text = [
      'const a = 1;',
      '<p>',
      '  © {year} {siteName}. Built for Millennials and',
      "  {' '}Gen Z.",
      '</p>',
      '// This is the home of',
      '// Your Generation, Better Informed',
    ].join('\n');
    expect(findSeedLines('x.tsx', text)).toEqual([
      { file: 'x.tsx', line: 3, phrase: 'Millennial' },
      { file: 'x.tsx', line: 4, phrase: 'Gen Z' },
      { file: 'x.tsx', line: 7, phrase: 'Your Generation, Better Informed' },
      { file: 'x.tsx', line: 7, phrase: 'Better Informed' },
      { file: 'x.tsx', line: 3, phrase: 'Built for Millennials' },
    ]);
    expect(findSeedLines('y.ts', 'const generation = "better informed decisions";')).toHaveLength(
      1,
    );
    expect(findSeedLines('z.ts', 'export const GENERATION = 1;')).toEqual([]);
  });

  it('has none of the seed’s marketing lines in client/src, server/src or contract', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const hits = files.flatMap((file) =>
      findSeedLines(file, readFileSync(join(root, file), 'utf8')),
    );
    expect(hits.map((hit) => `${hit.file}:${hit.line}: "${hit.phrase}"`)).toEqual([]);
  });
});

import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll } from 'vitest';
import { useTempFolder } from './temp-folder.js';

const fixtures = fileURLToPath(new URL('../fixtures/imports/', import.meta.url));

/**
 * The page Medium's export wraps around every post. A fixture in `medium/posts/` that starts with
 * `<!-- page: {...} -->` keeps only its own lines; this puts them back in the page, byte for byte,
 * with the runs of lines the posts share (`MEDIUM_SHARED_LINES`).
 */
const MEDIUM_PAGE_HEAD = `<!DOCTYPE html>
<html>
<head>
    <meta http-equiv="Content-Type" content="text/html; charset=utf-8">
    <title>{title}</title>
</head>
<body>
<article class="h-entry">
    <header>
        <h1 class="p-name">{name}</h1>
    </header>
    <section data-field="subtitle" class="p-summary">
        {subtitle}
    </section>
    <section data-field="body" class="e-content">
`;
/** Runs of lines several posts share, each written in a post as the line `<!-- name -->`. */
const MEDIUM_SHARED_LINES: Record<string, string> = {
  'the body opens': `    <section name="007" class="section section--body section--last">
        <div class="section-divider"><hr class="section-divider"></div>
        <div class="section-content">
            <div class="section-inner sectionLayout--insetColumn">
`,
  'the two paragraphs': `    <section name="007" class="section section--body section--last">
        <div class="section-divider"><hr class="section-divider"></div>
        <div class="section-content">
            <div class="section-inner sectionLayout--insetColumn">
                <p name="abc" id="abc" class="graf graf--p graf-after--p">
                    This is a paragraph of text and stuff.
                </p>
                <p name="def" id="def" class="graf graf--p graf-after--p">
                    This is a another paragraph of text and stuff.
                </p>
            </div>
        </div>
`,
  'the published footer': `        </section>
    </section>
    <footer>
        <p class="p-tags">Tagged in <a href="https://medium.com/tag/things" class="p-tag">Things</a>, <a href="https://medium.com/tag/stuff" class="p-tag">Stuff</a></p>
        <p>By <a href="https://medium.com/@JoeBloggs" class="p-author h-card">Joe Bloggs</a> on <a href="https://medium.com/p/abcd1234"><time class="dt-published" datetime="2018-08-11T11:23:34.123Z">August 11, 2018</time></a>.</p>
        <p><a href="https://medium.com/@JoeBloggs/testpost-efefef12121212" class="p-canonical">Canonical link</a></p>
        <p>Exported from <a href="https://medium.com">Medium</a> on September 21, 2018.</p>
        </footer>
`,
};
const MEDIUM_PAGE_TAIL = '</article>\n</body>\n</html>\n';
const PAGE_LINE = /^<!-- page: (\{.*\}) -->\n/;

function buildMediumPage(fixture: string): string {
  const page = PAGE_LINE.exec(fixture);
  if (!page) return fixture;
  const fields = JSON.parse(page[1] ?? '{}') as Record<'title' | 'name' | 'subtitle', string>;
  const head = MEDIUM_PAGE_HEAD.replace(/\{(title|name|subtitle)\}/g, (_, field: string) => {
    return fields[field as keyof typeof fields];
  });
  const body = fixture
    .slice(page[0].length)
    .replace(/^<!-- (.+) -->\n/gm, (line, name: string) => MEDIUM_SHARED_LINES[name] ?? line);
  return head + body + MEDIUM_PAGE_TAIL;
}

/** Substack's sample posts that share one body: the copy's name, then the stored file's. */
const SUBSTACK_SAME_BODY: Record<string, string> = {
  '123404.draft-text.html': '123401.plain-text.html',
  '123405.about-us.html': '123401.plain-text.html',
};

/**
 * Writes the export of `source` as the platform gives it (the files the importer reads) into
 * `folder` and returns it: the stored fixtures keep each post's own lines only (see SOURCES.md).
 */
export async function writeImportFixture(
  source: 'medium' | 'substack',
  folder: string,
): Promise<string> {
  await cp(join(fixtures, source), folder, { recursive: true });
  const posts = join(folder, 'posts');
  if (source === 'medium') {
    for (const name of await readdir(posts)) {
      const file = join(posts, name);
      await writeFile(file, buildMediumPage(await readFile(file, 'utf8')));
    }
  } else {
    for (const [copy, stored] of Object.entries(SUBSTACK_SAME_BODY)) {
      await cp(join(posts, stored), join(posts, copy));
    }
  }
  return folder;
}

/** The export of `source`, written before the tests of the file or `describe` block that calls this. */
export function useImportFixture(source: 'medium' | 'substack'): { readonly path: string } {
  const temp = useTempFolder(`cohort-${source}-export-`);
  let path: string | undefined;
  beforeAll(async () => {
    path = await writeImportFixture(source, join(temp.path, source));
  });
  return {
    get path() {
      if (!path) throw new Error('useImportFixture: the export is written before the tests');
      return path;
    },
  };
}

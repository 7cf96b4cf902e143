import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContentValidationError, type ContentIssue } from './content-issues.js';
import { ARTICLE_WORDS, loadContent } from './load-content.js';
import { countWords } from './markdown-to-tree.js';

const siteContentDir = fileURLToPath(new URL('../../../content', import.meta.url));

describe("the site's own content", () => {
  it('passes validation with every collection the screens need', async () => {
    const content = await loadContent(siteContentDir);
    const health = content.articles.filter((article) => article.data.category === 'Health');
    const wealth = content.articles.filter((article) => article.data.category === 'Wealth');
    expect(health.map((article) => article.data.id ?? 0).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
    ]);
    expect(wealth.map((article) => article.data.id ?? 0).sort((a, b) => a - b)).toEqual([
      15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 29,
    ]);
    expect(content.campaigns.map((campaign) => campaign.data.id).sort()).toEqual([25, 26, 27, 28]);
    expect(content.boycotts.map((boycott) => boycott.data.status).sort()).toEqual([
      'Ongoing',
      'Success',
      'Success',
    ]);
    expect(content.resourceGroups).toHaveLength(3);
    // The shipped articles keep to FORMAT.md's length (a writer's own posts need not).
    for (const article of content.articles) {
      const words = article.body ? countWords(article.body) : 0;
      expect(words, article.file).toBeGreaterThanOrEqual(ARTICLE_WORDS.min);
      expect(words, article.file).toBeLessThanOrEqual(ARTICLE_WORDS.max);
    }
    expect(content.pages.map((page) => page.name).sort()).toEqual([
      'collective',
      'empowerment',
      'home',
      'home-buying',
      'legal-resources',
      'media',
      'privacy',
      'refunds',
      'student-debt-relief',
      'terms',
      'why',
      'work-and-jobs',
    ]);
  });
});

describe('a broken content folder', () => {
  let root: string;
  let contentDir: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'cohort-content-'));
    contentDir = join(root, 'content');
    await cp(siteContentDir, contentDir, { recursive: true });
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function edit(file: string, change: (text: string) => string) {
    const path = join(contentDir, file);
    await writeFile(path, change(await readFile(path, 'utf8')));
  }

  async function issuesOf(): Promise<readonly ContentIssue[]> {
    const error = await loadContent(contentDir).then(
      () => null,
      (caught: unknown) => caught,
    );
    if (!(error instanceof ContentValidationError)) throw new Error('expected a validation error');
    return error.issues;
  }

  /** A file changed as a writer might, and issues the load then names in it (among others). */
  const mistakes: {
    what: string;
    file: string;
    change: (text: string) => string;
    /** Messages by field. */
    issues: Record<string, unknown>;
  }[] = [
    {
      what: 'rejects a related slug listed twice',
      file: 'pages/home-buying.md',
      change: (text) => text.replace('related:\n', 'related:\n  - rent-vs-buy\n'),
      issues: { 'related.1': '"rent-vs-buy" is listed twice' },
    },
    {
      what: 'checks newsletter issues like articles: known fields and a date',
      file: 'newsletters/first-issue.md',
      change: (text) =>
        text
          .replace('  - sleep-debt-reset\n', '  - no-such-article\n')
          .replace('publishedAt: 2026-11-24', 'publishedAt: someday\nsendTo: everyone'),
      issues: {
        sendTo: 'is not a known field',
        publishedAt: 'must be an ISO date such as 2024-03-01',
      },
    },
    // Which sections exist is the site's data: the post store refuses a section it does not have
    // (server/src/routes/desk/sections.test.ts); a file must name one.
    {
      what: 'rejects an article without a section',
      file: 'articles/sleep-debt-reset.md',
      change: (text) => text.replace('category: Health', 'category: " "'),
      issues: { category: 'must not be empty' },
    },
    {
      what: 'rejects a slug that is not the file name',
      file: 'articles/sleep-debt-reset.md',
      change: (text) => text.replace('slug: sleep-debt-reset', 'slug: sleep-reset'),
      issues: {
        slug: '"sleep-reset" must equal the file name "sleep-debt-reset"',
      },
    },
    {
      what: 'rejects an id used twice, across kinds too',
      file: 'articles/walking-everyday-movement.md',
      change: (text) => text.replace('id: 2\n', 'id: 1\n'),
      issues: { id: '1 is also used by content/articles/sleep-debt-reset.md' },
    },
    {
      what: 'rejects an id a campaign and an article both claim',
      file: 'campaigns/community-garden.md',
      change: (text) => text.replace('id: 25', 'id: 14'),
      issues: {
        id: expect.stringMatching(/^14 is also used by content\/articles\//),
      },
    },
    {
      what: 'rejects a summary over 200 characters and a misspelt field name',
      file: 'articles/sleep-debt-reset.md',
      change: (text) =>
        text
          .replace(/^summary: .*$/m, `summary: "${'Too long. '.repeat(21)}"`)
          .replace('readingMinutes:', 'readingMinuets:'),
      issues: {
        summary: 'must be at most 200 characters',
        readingMinuets: 'is not a known field',
        readingMinutes: 'is required',
      },
    },
    {
      what: 'rejects a boycott status it does not know and a dateless update',
      file: 'boycotts/nestle-boycott.md',
      change: (text) =>
        text.replace('status: Ongoing', 'status: Paused').replace('date: 1984-01-26', 'date: soon'),
      issues: {
        status: 'must be one of Ongoing, Success',
        'updates.1.date': 'must be an ISO date such as 2024-03-01',
      },
    },
    {
      what: 'rejects a resource whose link is not an http(s) address',
      file: 'resources/free-university-courses.md',
      change: (text) => text.replace('link: https://ocw.mit.edu/', 'link: "javascript:alert(1)"'),
      issues: { 'resources.0.link': 'must be an http(s) address' },
    },
  ];

  it.each(mistakes)('$what', async ({ file, change, issues }) => {
    await edit(file, change);
    const found = await issuesOf();
    for (const [field, message] of Object.entries(issues)) {
      expect(found).toContainEqual({ file: `content/${file}`, field, message });
    }
  });

  it('refuses an issue whose slug is a page under /newsletter/ (confirm, unsubscribe)', async () => {
    const text = await readFile(join(contentDir, 'newsletters/first-issue.md'), 'utf8');
    await writeFile(
      join(contentDir, 'newsletters/confirm.md'),
      text.replace('slug: first-issue', 'slug: confirm'),
    );
    expect(await issuesOf()).toContainEqual({
      file: 'content/newsletters/confirm.md',
      field: 'slug',
      message: '"confirm" is taken by a page of the site',
    });
  });

  it('names the file and the field when a required field is missing', async () => {
    await edit('articles/sleep-debt-reset.md', (text) => text.replace(/^summary: .*\n/m, ''));
    const error = await loadContent(contentDir).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContentValidationError);
    expect((error as Error).message).toContain(
      'content/articles/sleep-debt-reset.md: summary: is required',
    );
  });

  it('checks what a file says of every post: who reads it, its feature image, its search fields', async () => {
    await edit('articles/sleep-debt-reset.md', (text) =>
      text.replace(
        'readingMinutes: 4\n',
        'readingMinutes: 4\nmembersOnly: yes\nvisibility: everyone\naudience: members\n' +
          `featureImage: "/evil.example/x.png"\nseoTitle: "${'x'.repeat(121)}"\n`,
      ),
    );
    await edit('pages/privacy.md', (text) =>
      text.replace(
        'template: true\n',
        'template: true\nfeatureImage: /uploads/64e435eed664425009a1-640x400.webp\n' +
          'publishedAt: 2026-12-01T09:30:00.000Z\n',
      ),
    );
    const issues = await issuesOf();
    const file = 'content/articles/sleep-debt-reset.md';
    expect(issues).toContainEqual({ file, field: 'membersOnly', message: 'must be true or false' });
    expect(issues).toContainEqual({
      file,
      field: 'visibility',
      message: 'must be one of public, registered, members, tiers',
    });
    expect(issues).toContainEqual({ file, field: 'audience', message: 'is not a known field' });
    // By the desk's rule for a feature image (contract/post-fields.ts), whose words it keeps.
    expect(issues.some((issue) => issue.file === file && issue.field === 'featureImage')).toBe(
      true,
    );
    expect(issues).toContainEqual({
      file,
      field: 'seoTitle',
      message: 'must be at most 120 characters',
    });
    // A page may name the moment it goes live; a feature image needs its alt text.
    expect(issues.filter((issue) => issue.file === 'content/pages/privacy.md')).toEqual([
      {
        file: 'content/pages/privacy.md',
        field: 'featureImageAlt',
        message: 'is required with a feature image',
      },
    ]);
  });

  it('takes a new article with any unused id, or none, in any section', async () => {
    const text = await readFile(join(contentDir, 'articles/sleep-debt-reset.md'), 'utf8');
    await writeFile(
      join(contentDir, 'articles/a-new-one.md'),
      text.replace('slug: sleep-debt-reset', 'slug: a-new-one').replace('id: 1\n', 'id: 300\n'),
    );
    await writeFile(
      join(contentDir, 'articles/another-one.md'),
      text.replace('slug: sleep-debt-reset', 'slug: another-one').replace('id: 1\n', ''),
    );
    await rm(join(contentDir, 'articles/walking-everyday-movement.md'));
    const content = await loadContent(contentDir);
    expect(content.articles.find((file) => file.name === 'a-new-one')?.data.id).toBe(300);
    expect(content.articles.find((file) => file.name === 'another-one')?.data.id).toBeUndefined();
  });

  it('takes a campaign’s and a boycott’s story from its body, and checks it as an article’s', async () => {
    await edit('campaigns/community-garden.md', (text) => `${text}\nIt began in one empty lot.\n`);
    await edit('boycotts/nestle-boycott.md', (text) => `${text}\nWhy it began.\n`);
    const loaded = await loadContent(contentDir, { perks: false });
    const garden = loaded.campaigns.find((file) => file.data.slug === 'community-garden');
    expect(garden?.markdown.trim()).toBe('It began in one empty lot.');
    expect(garden?.body).not.toBeNull();
    const nestle = loaded.boycotts.find((file) => file.data.slug === 'nestle-boycott');
    expect(nestle?.markdown.trim()).toBe('Why it began.');
    // Without one, as the shipped ones are: no story.
    const other = loaded.campaigns.find((file) => file.data.slug === 'renters-legal-aid');
    expect(other?.body).toBeNull();

    await edit('campaigns/community-garden.md', (text) => `${text}\n# A second title\n`);
    expect(await issuesOf()).toContainEqual({
      file: 'content/campaigns/community-garden.md',
      field: 'body',
      message: expect.stringMatching(/H1|heading/i),
    });
  });

  it('rejects a duplicate slug across articles and campaigns', async () => {
    await writeFile(
      join(contentDir, 'campaigns', 'sleep-debt-reset.md'),
      (await readFile(join(contentDir, 'campaigns', 'community-garden.md'), 'utf8'))
        .replace('slug: community-garden', 'slug: sleep-debt-reset')
        .replace('id: 25', 'id: 26'),
    );
    const issues = await issuesOf();
    expect(issues).toContainEqual({
      file: 'content/campaigns/sleep-debt-reset.md',
      field: 'slug',
      message: 'sleep-debt-reset is also used by content/articles/sleep-debt-reset.md',
    });
  });

  it('rejects a file without front matter, or with front matter that is not YAML', async () => {
    await edit('campaigns/community-garden.md', (text) => text.replace(/^---\n/, ''));
    await edit('boycotts/nestle-boycott.md', (text) =>
      text.replace('status: Ongoing', 'status: [Ongoing'),
    );
    const issues = await issuesOf();
    expect(issues).toContainEqual(
      expect.objectContaining({
        file: 'content/campaigns/community-garden.md',
        field: 'front matter',
      }),
    );
    expect(issues).toContainEqual(
      expect.objectContaining({
        file: 'content/boycotts/nestle-boycott.md',
        field: 'front matter',
        message: expect.stringMatching(/^invalid YAML/),
      }),
    );
  });

  it('rejects an H1, raw HTML and unsafe links in a body', async () => {
    await edit(
      'pages/collective.md',
      (text) =>
        `${text}\n# A second title\n\n<script>alert(1)</script>\n\n[click](javascript:alert(1))\n`,
    );
    const bodyIssues = (await issuesOf()).filter(
      (issue) => issue.file === 'content/pages/collective.md' && issue.field === 'body',
    );
    expect(bodyIssues.map((issue) => issue.message)).toEqual([
      '"# A second title": headings start at ## (the title is the page\'s H1)',
      'raw HTML is not allowed: <script>alert(1)</script>',
      'link to "javascript:alert(1)": links must be http(s) addresses or paths on this site',
    ]);
  });

  it('reports every problem of every file at once, ordered by file', async () => {
    await edit('resources/free-university-courses.md', (text) =>
      text.replace('id: 1\n', 'id: 4\n'),
    );
    await edit('articles/lifestyle-creep.md', (text) => text.replace(/^title: .*\n/m, ''));
    const issues = await issuesOf();
    expect(issues.map((issue) => `${issue.file} ${issue.field}`)).toEqual([
      'content/articles/lifestyle-creep.md title',
      'content/resources/free-university-courses.md resources.3.id',
    ]);
  });
});

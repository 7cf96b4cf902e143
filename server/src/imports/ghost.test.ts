import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { postWhere } from '#test/source-bundle';
import { useTempFolder } from '#test/temp-folder';
import { archiveLimits } from './archive.js';
import { readGhostJson, readGhostPath } from './ghost.js';
import { renderLexical, renderMobiledoc } from './ghost-cards.js';
import { ImportFileError, type SourceBundle } from './source.js';
import { writeZip } from './test-zip.js';

const fixtures = fileURLToPath(new URL('../../../tests/fixtures/imports/ghost/', import.meta.url));
const fixture = (name: string) => readFile(join(fixtures, name), 'utf8');

const post = (bundle: SourceBundle, slug: string) => postWhere(bundle, 'slug', slug);

describe('readGhostJson on a Ghost 4 export (Ghost’s own test fixture)', () => {
  let bundle: SourceBundle;
  beforeAll(async () => {
    bundle = readGhostJson(await fixture('v4_export.json'));
  });

  it('accounts for its 7 posts and 4 pages, all published', () => {
    expect(bundle.posts.filter((item) => item.type === 'post')).toHaveLength(7);
    expect(bundle.posts.filter((item) => item.type === 'page').map((item) => item.slug)).toEqual([
      'about',
      'contact',
      'privacy',
      'contribute',
    ]);
    expect(bundle.posts.every((item) => item.status === 'published')).toBe(true);
    expect(bundle.skipped).toEqual([]);
  });

  it('makes the paid post for paying members and the others public', () => {
    expect(bundle.posts.filter((item) => item.visibility !== 'public')).toMatchObject([
      { slug: 'sell', visibility: 'members', tiers: [] },
    ]);
    // Ghost 4.1 had no tiers of its own yet.
    expect(bundle.tiers).toEqual([]);
  });

  it('gives each post its old address, tag, author, excerpt, feature image and date', () => {
    const write = post(bundle, 'write');
    expect(write).toMatchObject({
      sourceId: '605ac141a2d5a6aa9e101ec5',
      title: 'Writing and managing content in Ghost, an advanced guide',
      oldPaths: ['/write/'],
      tags: ['Getting Started'],
      authors: [{ name: 'Ghost', slug: 'ghost' }],
      excerpt:
        'A full overview of all the features built into the Ghost editor, including powerful workflow automations to speed up your creative process.',
      featureImage: { url: 'https://static.ghost.org/v4.0.0/images/writing-posts-with-ghost.png' },
      flavour: 'ghost',
      comments: 0,
    });
    expect(write.publishedAt?.toISOString()).toBe('2021-03-24T04:34:13.000Z');
    expect(write.html).toContain('<p>Ghost comes with a best-in-class editor');
  });
});

describe('readGhostJson on a Ghost 6 export with lexical bodies', () => {
  let bundle: SourceBundle;
  beforeAll(async () => {
    bundle = readGhostJson(await fixture('ghost-6-lexical.json'));
  });

  it('renders lexical text: paragraphs, formatting, links, headings, nested lists and quotes', () => {
    const html = post(bundle, 'lexical-cards').html;
    expect(html).toContain(
      '<p>Plain, <strong>bold</strong> and <em>italic</em> and <code>code</code><br><a href="https://example.com/a?b=1&amp;c=2">a link</a></p>',
    );
    expect(html).toContain('<h2>A heading</h2>');
    expect(html).toContain('<ul><li>one<ol><li>one.a</li></ol></li><li>two</li></ul>');
    expect(html).toContain('<blockquote>A quote &lt;not a tag&gt;</blockquote>');
  });

  it('renders every documented card, keeping __GHOST_URL__ for the converter', () => {
    const html = post(bundle, 'lexical-cards').html;
    expect(html).toContain(
      '<figure class="kg-card kg-image-card"><img src="__GHOST_URL__/content/images/2024/01/photo.jpg" class="kg-image" alt="A photo"><figcaption><em>Caption</em> text</figcaption></figure>',
    );
    expect(html).toContain('<img src="__GHOST_URL__/content/images/2024/01/g1.jpg" alt="First">');
    expect(html).toContain('<img src="__GHOST_URL__/content/images/2024/01/g2.jpg" alt="Second">');
    expect(html).toContain('<figcaption>A gallery</figcaption>');
    // The Markdown card is rendered, GitHub tables and footnotes included.
    expect(html).toContain('<p>Some <strong>markdown</strong> with a table:</p>');
    expect(html).toMatch(/<table>\s*<thead>\s*<tr>\s*<th>a<\/th>/);
    expect(html).toContain('data-footnote-ref');
    expect(html).toContain(
      '<!--kg-card-begin: html--><div class="custom">Raw <b>HTML</b></div><!--kg-card-end: html-->',
    );
    expect(html).toContain('<pre><code class="language-js">const a = 1 &lt; 2;</code></pre>');
    expect(html).toContain(
      '<figure class="kg-card kg-embed-card" data-url="https://www.youtube.com/watch?v=abc"><iframe src="https://www.youtube.com/embed/abc"></iframe></figure>',
    );
    expect(html).toContain('<a class="kg-bookmark-container" href="https://example.org/article">');
    expect(html).toContain('<div class="kg-bookmark-title">An article</div>');
    expect(html).toContain('<hr>');
    expect(html).toContain(
      '<div class="kg-callout-emoji">💡</div><div class="kg-callout-text"><p>Take note</p></div>',
    );
    expect(html).toContain(
      '<h4 class="kg-toggle-heading-text"><span>Question?</span></h4></div><div class="kg-toggle-content"><p>Answer.</p></div>',
    );
    expect(html).toContain('<a href="https://example.com/signup" class="kg-btn">Subscribe now</a>');
    expect(html).toContain('<a href="__GHOST_URL__/content/media/2024/01/clip.mp4">clip.mp4</a>');
    expect(html).toContain('<a href="__GHOST_URL__/content/media/2024/01/talk.mp3">The talk</a>');
    expect(html).toContain(
      '<a href="__GHOST_URL__/content/files/2024/01/report.pdf" download>The report</a>',
    );
    expect(html).toContain('<!--members-only-->\n<p>For members.</p>');
  });

  it('leaves out what was only for the newsletter (email and email-cta cards)', () => {
    const html = post(bundle, 'lexical-cards').html;
    expect(html).not.toContain('Only in the newsletter');
    expect(html).not.toContain('Email call to action');
  });

  it('renders mobiledoc (Ghost 1 to 4) with its markups, atoms, lists and cards', () => {
    const html = post(bundle, 'mobiledoc-post').html;
    expect(html).toBe(
      [
        '<p>Start <strong>strong</strong><br><a href="https://example.com/m">linked</a></p>',
        '<h3>Sub</h3>',
        '<ol><li>first</li><li>second</li></ol>',
        '<figure class="kg-card kg-image-card"><img src="https://images.example.com/cat.jpg" class="kg-image" alt="A cat"><figcaption>Cat</figcaption></figure>',
        '<!--kg-card-begin: markdown--><h1>Title in markdown</h1>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul><!--kg-card-end: markdown-->',
        '<blockquote>Quoted</blockquote>',
        '<blockquote class="kg-blockquote-alt">Pulled</blockquote>',
        '<hr>',
        '<!--members-only-->',
        '<p>After the paywall</p>',
      ].join('\n'),
    );
  });

  it("prefers Ghost's own HTML when the export has it", () => {
    expect(post(bundle, 'html-wins').html).toBe("<p>Ghost's own HTML</p>");
  });

  it('reads status, dates, visibility and pages', () => {
    expect(post(bundle, 'a-draft')).toMatchObject({ status: 'draft', visibility: 'public' });
    expect(post(bundle, 'a-draft').publishedAt).toBeUndefined();
    expect(post(bundle, 'later').status).toBe('scheduled');
    expect(post(bundle, 'later').publishedAt?.toISOString()).toBe('2030-05-01T09:00:00.000Z');
    // Ghost's `members` is every signed-in reader here, `paid` every paying one; a tiers post
    // naming no tier the file has, and a visibility Ghost's own importer would not know, are for
    // paying members, failing closed, and say why.
    expect(post(bundle, 'mobiledoc-post')).toMatchObject({ visibility: 'registered', tiers: [] });
    expect(post(bundle, 'lexical-cards')).toMatchObject({ visibility: 'members', tiers: [] });
    expect(post(bundle, 'html-wins')).toMatchObject({
      visibility: 'members',
      tiers: [],
      accessNote:
        'for paying members here, failing closed: its Ghost visibility "tiers" names no tier the export has',
    });
    expect(post(bundle, 'later')).toMatchObject({
      visibility: 'members',
      accessNote:
        'for paying members here, failing closed: its Ghost visibility "filter:status:-free" is not one Cohort knows',
    });
    expect(post(bundle, 'about')).toMatchObject({ type: 'page', oldPaths: ['/about/'] });
    expect(bundle.skipped).toContainEqual({
      item: 'Odd status',
      reason: 'status "archived" is not one Cohort knows',
    });
    expect(bundle.posts.map((item) => item.slug)).not.toContain('odd');
  });

  it('orders tags and authors as Ghost did, leaving internal #tags out, with SEO and feature image from posts_meta', () => {
    expect(post(bundle, 'lexical-cards')).toMatchObject({
      tags: ['News', 'Essays'],
      authors: [
        { name: 'Ada Writer', slug: 'ada', email: 'ada@example.com' },
        { name: 'Bo Editor', slug: 'bo', email: 'bo@example.com' },
      ],
      featureImage: {
        url: '__GHOST_URL__/content/images/2024/01/feature.jpg',
        alt: 'Feature alt',
        caption: 'Feature caption',
      },
      seoTitle: 'SEO title',
      seoDescription: 'SEO description',
      excerpt: 'Cards, all of them.',
    });
    expect(post(bundle, 'mobiledoc-post').seoTitle).toBe('Mobiledoc SEO title');
    expect(bundle.siteUrl).toBe('https://fixture.example.com');
  });

  it('reads members with labels, Stripe customers, comps and consent; a repeated or missing email is skipped', () => {
    expect(bundle.members).toEqual([
      {
        email: 'paid@example.com',
        name: 'Pat Paid',
        note: 'Since 2020',
        subscribed: true,
        labels: ['VIP', 'Early'],
        stripeCustomerId: 'cus_paid1',
        createdAt: new Date('2020-05-01T00:00:00.000Z'),
      },
      {
        email: 'comp@example.com',
        name: 'Cam Comp',
        subscribed: false,
        labels: [],
        comp: { until: new Date('2031-01-01T00:00:00.000Z') },
        createdAt: new Date('2021-05-01T00:00:00.000Z'),
      },
      {
        email: 'forever@example.com',
        subscribed: true,
        labels: [],
        comp: { until: null },
        createdAt: new Date('2022-05-01T00:00:00.000Z'),
      },
    ]);
    expect(bundle.skipped).toContainEqual({
      item: 'PAID@example.com',
      reason: 'members row 4: the same email as an earlier row',
    });
    expect(bundle.skipped).toContainEqual({
      item: 'not-an-email',
      reason: 'members row 5: no valid email address',
    });
  });
});

describe('readGhostJson on a Ghost 5 export with tiers', () => {
  let bundle: SourceBundle;
  beforeAll(async () => {
    bundle = readGhostJson(await fixture('ghost-5-tiers.json'));
  });

  it('reads each paid tier with its description, benefits in order, prices and whether it is offered', () => {
    expect(bundle.tiers).toEqual([
      {
        slug: 'founder',
        name: 'Founder',
        description: 'For those who were here first',
        benefits: ['A monthly call with the editors', 'Your name in the credits'],
        prices: { monthly: 1500, yearly: 15000 },
        currency: 'usd',
        visible: true,
      },
      {
        slug: 'insider',
        name: 'Insider',
        description: 'The drafts before they are done',
        benefits: ['Every draft as it is written'],
        prices: { monthly: 500, yearly: 5000 },
        currency: 'usd',
        visible: true,
      },
      // Archived, and priced as Ghost 4 priced its tiers: through the Stripe prices it names.
      {
        slug: 'old-supporters',
        name: 'Old supporters',
        description: '',
        benefits: [],
        prices: { monthly: 300, yearly: 3000 },
        currency: 'usd',
        visible: false,
      },
    ]);
  });

  it('maps each visibility to its readers here, a tiers post to the tiers it names', () => {
    expect(
      bundle.posts.map((item) => [item.slug, item.visibility, item.tiers, item.accessNote]),
    ).toEqual([
      ['open-letter', 'public', [], undefined],
      ['welcome-members', 'registered', [], undefined],
      ['paid-essay', 'members', [], undefined],
      ['founders-letter', 'tiers', ['founder'], undefined],
      ['insider-notes', 'tiers', ['insider', 'founder'], undefined],
      // Ghost's free tier is no tier here: with a paid one, the post is that tier's, and says so.
      [
        'free-and-founders',
        'tiers',
        ['founder'],
        'for the tiers founder here: Ghost also let its free members read it (make it "registered" in the desk if every signed-in reader may)',
      ],
      ['free-tier-only', 'registered', [], undefined],
    ]);
  });

  it("reads the tiers a post carries when the export has no products table (Ghost's Admin API shape)", () => {
    const bundle = readGhostJson(
      JSON.stringify({
        db: [
          {
            meta: { version: '5.0.0' },
            data: {
              posts: [
                {
                  id: 'x1',
                  slug: 'for-patrons',
                  title: 'For patrons',
                  html: '<p>Hi</p>',
                  status: 'published',
                  visibility: 'tiers',
                  tiers: [
                    {
                      id: 't9',
                      name: 'Patron',
                      slug: 'patron',
                      type: 'paid',
                      active: true,
                      visibility: 'public',
                      benefits: ['A postcard'],
                      monthly_price: 900,
                      yearly_price: null,
                      currency: 'eur',
                    },
                  ],
                },
              ],
            },
          },
        ],
      }),
    );
    expect(bundle.posts[0]).toMatchObject({ visibility: 'tiers', tiers: ['patron'] });
    expect(bundle.tiers).toEqual([
      {
        slug: 'patron',
        name: 'Patron',
        description: '',
        benefits: ['A postcard'],
        prices: { monthly: 900, yearly: null },
        currency: 'eur',
        visible: true,
      },
    ]);
  });
});

describe('readGhostJson on other shapes', () => {
  it('reads a Ghost 1 export with {meta, data} at the top, page: true and author_id', async () => {
    const bundle = readGhostJson(await fixture('ghost-1-top-level.json'));
    expect(bundle.posts.map((item) => [item.slug, item.type, item.authors[0]?.name])).toEqual([
      ['old-page', 'page', 'Old Author'],
      ['old-post', 'post', 'Old Author'],
    ]);
    expect(bundle.posts[0]?.publishedAt?.toISOString()).toBe('2017-09-01T12:29:50.000Z');
    expect(bundle.posts[1]?.publishedAt?.toISOString()).toBe('2017-09-01T12:31:45.806Z');
  });

  it('refuses what is not a Ghost export, saying what it expected', () => {
    expect(() => readGhostJson('{"posts": []}')).toThrow(ImportFileError);
    expect(() => readGhostJson('{"posts": []}')).toThrow(/expected \{"db": \[\{"meta"/);
    expect(() => readGhostJson('{not json')).toThrow(/^The Ghost export is not valid JSON/);
  });

  it('keeps a mobiledoc markup from writing attributes that break out of its tag', () => {
    const html = renderMobiledoc({
      version: '0.3.1',
      markups: [['a', ['href', 'https://example.com/"><script>', 'x" onclick="steal()', 'y']]],
      sections: [[1, 'p', [[0, [0], 1, 'link']]]],
    });
    expect(html).toBe('<p><a href="https://example.com/&quot;&gt;&lt;script&gt;">link</a></p>');
  });

  it('renders empty and unknown documents to nothing rather than failing', () => {
    expect(renderLexical('{"root":{"children":[{"type":"product","title":"?"}]}}')).toBe('');
    expect(renderMobiledoc({ version: '0.3.1', sections: [[10, 9]] })).toBe('');
  });
});

describe('readGhostPath on the export zip', () => {
  const temp = useTempFolder('cohort-ghost-');

  it('finds the JSON in a folder of the zip and hands its content/ files over by site path, read when asked', async () => {
    const zip = join(temp.path, 'ghost-export.zip');
    await writeZip(zip, [
      { name: 'my-site/content/images/2024/01/photo.jpg', data: 'jpeg bytes' },
      { name: 'my-site/content/images/2024/01/size/w600/photo.jpg', data: 'smaller' },
      { name: 'my-site/content/media/2024/01/clip.mp4', data: 'video' },
      {
        name: 'my-site/my-site.ghost.2024-01-02.json',
        data: await fixture('ghost-6-lexical.json'),
      },
    ]);
    const bundle = await readGhostPath(zip);
    expect(bundle.posts).toHaveLength(6);
    expect([...bundle.files.keys()].sort()).toEqual([
      '/content/images/2024/01/photo.jpg',
      '/content/images/2024/01/size/w600/photo.jpg',
      '/content/media/2024/01/clip.mp4',
    ]);
    const photo = bundle.files.get('/content/images/2024/01/photo.jpg');
    expect(photo).toMatchObject({ path: 'my-site/content/images/2024/01/photo.jpg', size: 10 });
    expect((await photo?.read())?.toString()).toBe('jpeg bytes');
  });

  it('refuses a zip whose JSON unpacks to more than the import takes, before reading it', async () => {
    const zip = join(temp.path, 'large-json.zip');
    const json = await fixture('ghost-6-lexical.json');
    await writeZip(zip, [{ name: 'my-site/my-site.ghost.json', data: json }]);
    const limits = { ...archiveLimits(4096), maxUnpackedBytes: 1024 * 1024 };
    await expect(readGhostPath(zip, limits)).rejects.toThrow(
      new ImportFileError(
        `"my-site/my-site.ghost.json" in the export is ${(Buffer.byteLength(json) / 1024).toFixed(1)} KiB; the largest accepted is 4.0 KiB`,
      ),
    );
  });

  it('reads the JSON file itself, and refuses a zip with no JSON in it', async () => {
    expect((await readGhostPath(join(fixtures, 'v4_export.json'))).posts).toHaveLength(11);
    const zip = join(temp.path, 'images-only.zip');
    await writeZip(zip, [{ name: 'content/images/a.jpg', data: 'x' }]);
    await expect(readGhostPath(zip)).rejects.toThrow('The Ghost export holds no .json file');
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { useImportFixture } from '#test/import-fixtures';
import { haveMigrationSamples, MIGRATION_SAMPLES } from '#test/migration-samples';
import { describe, expect, it } from 'vitest';
import { MEMBERS_DIVIDER } from '../../../contract/posts.js';
import { checkAndConvertMarkdown } from '../content/markdown-to-tree.js';
import { htmlOfMarkdown } from './ghost-html.js';
import { plainTextOf, wordCountOf } from '../content/markdown-text.js';
import { htmlToMarkdown, rewriteImages } from './html-to-markdown.js';
import type { HtmlFlavour, SourceImage } from './source.js';

const repository = fileURLToPath(new URL('../../../', import.meta.url));
const fixtures = join(repository, 'tests', 'fixtures', 'imports', '/');
const substackExport = useImportFixture('substack');
const mediumExport = useImportFixture('medium');
// The platforms' own exports sit beside the repository (on CI too), not in it.
const samples = `${MIGRATION_SAMPLES}/`;

const UPLOAD = '/uploads/abcdefghij0123456789-1600x900.webp';

const convert = (html: string, flavour: HtmlFlavour = 'ghost', siteUrl?: string) =>
  htmlToMarkdown(html, { flavour, ...(siteUrl ? { siteUrl } : {}) });
const markdownOf = (html: string, flavour: HtmlFlavour = 'ghost', siteUrl?: string) =>
  convert(html, flavour, siteUrl).markdown;

/** What the site's checks say of a converted body once its images are uploads. */
const siteProblems = (markdown: string) =>
  checkAndConvertMarkdown(
    rewriteImages(markdown, (image) => ({ url: UPLOAD, alt: image.alt ?? '' })),
  ).problems;

/** HTML and the Markdown it becomes (from Ghost's HTML unless `flavour` says). */
interface Conversion {
  what: string;
  html: string;
  flavour?: HtmlFlavour;
  markdown: string;
}

/** One test a conversion, named by what it shows: the Markdown it becomes, which the site takes. */
const itConverts = (conversions: Conversion[]) =>
  it.each(conversions)('$what', ({ html, flavour, markdown }) => {
    expect(markdownOf(html, flavour)).toBe(markdown);
    expect(siteProblems(markdown)).toEqual([]);
  });

describe('htmlToMarkdown keeps the structure of a post', () => {
  itConverts([
    {
      what: 'turns an h1 into ## (the title is the page’s h1) and keeps h2 to h6 as they were',
      html: '<h1>One</h1><h2>Two</h2><h3>Three</h3><h4>Four</h4><h5>Five</h5><h6>Six</h6>',
      markdown: '## One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six',
    },
    {
      what: 'keeps paragraphs, emphasis, strong, strikethrough, links and inline code',
      html: '<p>Plain <em>soft</em> <strong>loud</strong> <del>gone</del> <s>struck</s> <a href="https://example.org/a">a link</a> and <code>x = 1</code>.</p><p>Second<br>line</p>',
      markdown:
        'Plain *soft* **loud** ~~gone~~ ~~struck~~ [a link](https://example.org/a) and `x = 1`.\n\nSecond\\\nline',
    },
    {
      what: 'keeps nested lists and the start of an ordered list',
      html: '<ol start="3"><li>Three<ul><li>Inner</li><li>Inner two</li></ul></li><li>Four</li></ol>',
      markdown: '3. Three\n   - Inner\n   - Inner two\n4. Four',
    },
    {
      what: 'keeps quotes, code blocks with their language and rules',
      html: '<blockquote><p>Said once.</p></blockquote><pre><code class="language-js">const a = 1;\nif (a) go();\n</code></pre><hr><pre class="language-py"><code>print(1)</code></pre><pre><code>plain</code></pre>',
      markdown:
        '> Said once.\n\n```js\nconst a = 1;\nif (a) go();\n```\n\n---\n\n```py\nprint(1)\n```\n\n```\nplain\n```',
    },
    {
      what: 'keeps a table with its header row, and cells on one line',
      html: '<table><thead><tr><th>Name</th><th>Cost</th></tr></thead><tbody><tr><td><a href="https://example.org/">Tea</a></td><td><p>1</p><p>2</p></td></tr></tbody></table>',
      markdown: [
        '| Name                        | Cost |',
        '| --------------------------- | ---- |',
        '| [Tea](https://example.org/) | 1 2  |',
      ].join('\n'),
    },
    {
      what: 'gives a table without header cells an empty header row, which the page does not draw',
      html: '<table><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>2<br>3</td></tr></table>',
      markdown: '|   |     |\n| - | --- |\n| a | b   |\n| 1 | 2 3 |',
    },
    {
      what: 'gives an image without alt text its caption, else the words of its file name',
      html: '<figure><img src="https://cdn.example/x.png" alt><figcaption>The harbour</figcaption></figure><img src="https://cdn.example/2021/03/old-harbour_at-dusk-300x200.jpg">',
      markdown:
        '![The harbour](https://cdn.example/x.png "The harbour")\n\n![old harbour at dusk](https://cdn.example/2021/03/old-harbour_at-dusk-300x200.jpg)',
    },
    {
      what: "turns WordPress's footnotes block into Markdown footnotes",
      html: '<!-- wp:paragraph --><p>Text<sup data-fn="a1b2" class="fn"><a href="#a1b2" id="a1b2-link">1</a></sup>.</p><!-- /wp:paragraph --><!-- wp:footnotes --><ol class="wp-block-footnotes"><li id="a1b2">A note. <a href="#a1b2-link" aria-label="Jump to footnote reference 1">↩︎</a></li></ol><!-- /wp:footnotes -->',
      flavour: 'wordpress',
      markdown: 'Text[^1].\n\n[^1]: A note.',
    },
    {
      what: "turns Substack's footnotes into Markdown footnotes",
      html: '<p>Text<a class="footnote-anchor" id="footnote-anchor-1" href="#footnote-1">1</a></p><div class="footnote"><a id="footnote-1" href="#footnote-anchor-1" class="footnote-number">1</a><div class="footnote-content"><p>The note.</p></div></div>',
      flavour: 'substack',
      markdown: 'Text[^1]\n\n[^1]: The note.',
    },
    {
      what: "turns Ghost's footnotes into Markdown footnotes",
      html: '<p>Claim<sup class="footnote-ref"><a href="#fn1" id="fnref1">[1]</a></sup> and more<sup class="footnote-ref"><a href="#fn2" id="fnref2">[2]</a></sup>.</p><hr class="footnotes-sep"><section class="footnotes"><ol class="footnotes-list"><li id="fn1" class="footnote-item"><p>The source. <a href="#fnref1" class="footnote-backref">↩︎</a></p></li><li id="fn2" class="footnote-item"><p>Another <a href="https://example.org/">one</a>. <a href="#fnref2" class="footnote-backref">↩︎</a></p></li></ol></section>',
      markdown:
        'Claim[^1] and more[^2].\n\n[^1]: The source.\n\n[^2]: Another [one](https://example.org/).',
    },
  ]);

  it('puts a figure on a line of its own with its alt text and caption', () => {
    const converted = convert(
      '<p>Before</p><figure><img src="https://cdn.example/a.jpg" alt="A red door"><figcaption>Our <em>new</em> door</figcaption></figure>',
    );
    expect(converted.markdown).toBe(
      'Before\n\n![A red door](https://cdn.example/a.jpg "Our new door")',
    );
    expect(converted.images).toEqual([
      { url: 'https://cdn.example/a.jpg', alt: 'A red door', caption: 'Our new door' },
    ]);
  });

  it('takes an image without src from its lazy-loading attributes or its srcset', () => {
    expect(
      convert(
        '<img data-src="https://cdn.example/lazy.jpg" src="data:image/gif;base64,R0lGOD" alt="Lazy"><img srcset="https://cdn.example/s-480.jpg 480w, https://cdn.example/s-960.jpg 960w" alt="Set">',
      ).images,
    ).toEqual([
      { url: 'https://cdn.example/lazy.jpg', alt: 'Lazy' },
      { url: 'https://cdn.example/s-480.jpg', alt: 'Set' },
    ]);
  });

  it('takes an image out of its paragraph and out of its link, listing each image once', () => {
    const converted = convert(
      '<p>Look <img src="https://cdn.example/a.jpg" alt="A"> here.</p><p><a href="https://example.org"><img src="https://cdn.example/a.jpg" alt="A"></a></p>',
    );
    expect(converted.markdown).toBe(
      'Look\n\n![A](https://cdn.example/a.jpg)\n\nhere.\n\n![A](https://cdn.example/a.jpg)',
    );
    expect(converted.images).toEqual([{ url: 'https://cdn.example/a.jpg', alt: 'A' }]);
  });
});

describe("htmlToMarkdown reads back the HTML of the site's own Ghost export", () => {
  it('gives back the Markdown the export was written from', () => {
    const markdown = [
      '## Plan',
      'Start **now**, *slowly*, ~~never~~ with `code` and [the web](https://example.org/).[^1]',
      `![A chart](https://site.example${UPLOAD} "Our chart")`,
      '3. Three\n   - inner\n4. Four',
      '> Quoted',
      '```js\nconst a = 1;\n```',
      '| Name | Cost |\n| ---- | ---- |\n| Tea  | 1    |',
      MEMBERS_DIVIDER,
      'After.',
      '[^1]: The note.',
    ].join('\n\n');
    const html = htmlOfMarkdown(markdown, 'https://site.example');
    expect(html).toContain('<!--members-only-->');
    expect(markdownOf(html, 'ghost', 'https://site.example')).toBe(markdown);
    expect(
      markdownOf(
        '<p>A<sup><a href="#fn-1" id="fnref-1">1</a></sup></p><section class="footnotes"><h2 id="footnote-label" class="sr-only">Footnotes</h2><ol><li id="fn-1"><p>N <a href="#fnref-1">↩</a></p></li></ol></section>',
      ),
    ).toBe('A[^1]\n\n[^1]: N');
  });
});

describe('htmlToMarkdown keeps the members-only marker and drops other comments', () => {
  itConverts([
    {
      what: "makes Ghost's members-only marker the site's divider on a line of its own",
      html: '<p>For all.</p><!--members-only--><p>For members.</p><!--kg-card-begin: html--><p>More.</p><!--kg-card-end: html-->',
      markdown: `For all.\n\n${MEMBERS_DIVIDER}\n\nFor members.\n\nMore.`,
    },
    {
      what: 'keeps only the first divider, and none inside a paragraph',
      html: '<p>A<!--members-only-->B</p><!--members-only--><p>C</p><!--members-only-->',
      markdown: `AB\n\n${MEMBERS_DIVIDER}\n\nC`,
    },
    {
      what: 'does not mistake a tag in the HTML for the divider',
      html: '<p>A</p><cohortdivider></cohortdivider><p>B</p>',
      markdown: 'A\n\nB',
    },
  ]);
});

// The forms of each platform's embeds are html-embeds.test.ts's.
describe('htmlToMarkdown turns embeds into cards', () => {
  itConverts([
    {
      what: 'makes a YouTube or Vimeo player the address of its video, alone on its line',
      html: '<figure class="kg-card kg-embed-card"><iframe width="200" height="113" src="https://www.youtube.com/embed/hmH3XMlms8E?feature=oembed" title="Ghost editor"></iframe></figure><p><iframe src="https://player.vimeo.com/video/76979871?h=8272103f6e"></iframe></p><div class="youtube-wrap" data-attrs="{&quot;videoId&quot;:&quot;dQw4w9WgXcQ&quot;}"><div class="youtube-inner"><iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0"></iframe></div></div>',
      markdown:
        'https://www.youtube.com/watch?v=hmH3XMlms8E\n\nhttps://vimeo.com/76979871\n\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ',
    },
    {
      what: 'makes a tweet and a bookmark card their addresses alone on their lines',
      html: '<figure class="kg-card kg-embed-card"><blockquote class="twitter-tweet"><p lang="en">Shipping today.</p>&mdash; Ghost (@Ghost) <a href="https://twitter.com/Ghost/status/1395670367216619520?ref_src=twsrc">May 21, 2021</a></blockquote><script async src="https://platform.twitter.com/widgets.js"></script></figure><figure class="kg-card kg-bookmark-card"><a class="kg-bookmark-container" href="https://opensubscriptionplatforms.com/"><div class="kg-bookmark-content"><div class="kg-bookmark-title">Open Subscription Platforms</div><div class="kg-bookmark-description">A shared movement.</div></div></a></figure>',
      markdown:
        'https://twitter.com/Ghost/status/1395670367216619520\n\nhttps://opensubscriptionplatforms.com/',
    },
  ]);

  it('drops any other iframe and names its host', () => {
    const converted = convert(
      '<p>Before</p><iframe src="https://evil.example/frame"></iframe><p>After</p>',
    );
    expect(converted.markdown).toBe('Before\n\nAfter');
    expect(converted.dropped).toEqual(['iframe (evil.example)']);
  });
});

describe('htmlToMarkdown reads WordPress content as WordPress shows it', () => {
  const wordpress = (html: string, attachments?: Map<string, SourceImage>) =>
    htmlToMarkdown(html, {
      flavour: 'wordpress',
      siteUrl: 'https://blog.example',
      ...(attachments ? { attachments } : {}),
    });

  it('makes paragraphs of blank lines and line breaks of single newlines', () => {
    expect(
      wordpress(
        'First line\nsame paragraph\n\nSecond <em>paragraph</em>\n<blockquote>Quoted</blockquote>\nAfter',
      ).markdown,
    ).toBe('First line\\\nsame paragraph\n\nSecond *paragraph*\n\n> Quoted\n\nAfter');
  });

  it('leaves block-editor content as it is', () => {
    expect(
      wordpress('<!-- wp:paragraph -->\n<p>One\ntwo</p>\n<!-- /wp:paragraph -->').markdown,
    ).toBe('One two');
  });

  it('makes [caption] a figure with its caption', () => {
    const converted = wordpress(
      '[caption id="attachment_6" align="alignright" width="300"]<a href="https://blog.example/wp-content/uploads/boat.jpg"><img src="https://blog.example/wp-content/uploads/boat-300x200.jpg" alt="A boat" /></a> The <strong>Boat</strong> at rest[/caption]\n\nText.',
    );
    expect(converted.markdown).toBe(
      '![A boat](https://blog.example/wp-content/uploads/boat-300x200.jpg "The Boat at rest")\n\nText.',
    );
  });

  it('makes [gallery ids] the images of the attachments it names, each on its own line', () => {
    const attachments = new Map<string, SourceImage>([
      ['11', { url: 'https://blog.example/wp-content/uploads/one.jpg', alt: 'First' }],
      ['12', { url: 'https://blog.example/wp-content/uploads/two.jpg', caption: 'Second one' }],
    ]);
    const converted = wordpress('Our trip:\n\n[gallery columns="2" ids="11,12,99"]', attachments);
    expect(converted.markdown).toBe(
      'Our trip:\n\n![First](https://blog.example/wp-content/uploads/one.jpg)\n\n![Second one](https://blog.example/wp-content/uploads/two.jpg "Second one")',
    );
    expect(converted.dropped).toEqual(['gallery image 99 (not in the export)']);
  });

  it('leaves preformatted text as it was typed', () => {
    expect(wordpress('Poem:\n<pre>  one\n\n  two</pre>\nEnd').markdown).toBe(
      'Poem:\n\n```\none\n\ntwo\n```\n\nEnd',
    );
  });

  it('removes other shortcodes with their brackets, keeping their text and ordinary brackets', () => {
    const converted = wordpress(
      '[su_note note_color="#fff"]Kept [highlight]words[/highlight][/su_note] [contact-form-7 id="5" /] and [sic] and [[caption]]',
    );
    expect(converted.markdown).toBe('Kept words and \\[sic] and \\[caption]');
    expect(converted.dropped).toEqual([
      'shortcode [su_note]',
      'shortcode [highlight]',
      'shortcode [contact-form-7]',
    ]);
  });
});

describe("htmlToMarkdown removes Substack's widgets and keeps its images and audio", () => {
  it('removes subscribe, share and comment buttons and widgets, keeping other buttons as links', () => {
    const converted = convert(
      '<p>Hello</p><p class="button-wrapper" data-attrs=\'{"url":"https://x.substack.com/subscribe?","text":"Sign up"}\'><a class="button primary" href="https://x.substack.com/subscribe?"><span>Sign up</span></a></p><p class="button-wrapper"><a class="button primary" href="https://x.substack.com/p/post/comments"><span>Leave a comment</span></a></p><p class="button-wrapper"><a class="button primary" href="https://x.substack.com/p/post?utm_source=substack&amp;action=share"><span>Share</span></a></p><div class="subscription-widget-wrap"><div class="subscription-widget show-subscribe"><div class="preamble"><p>Thanks for reading!</p></div><form class="subscription-widget-subscribe"><input type="email" name="email"><input type="submit" value="Subscribe"></form></div></div><div class="captioned-button-wrap"><p>Share this</p></div><p class="button-wrapper"><a class="button primary" href="https://shop.example/book"><span>Buy the book</span></a></p>',
      'substack',
    );
    expect(converted.markdown).toBe('Hello\n\n[Buy the book](https://shop.example/book)');
    expect(converted.dropped).toEqual(['button (subscribe, share or comment)', 'subscribe widget']);
  });

  itConverts([
    {
      what: 'keeps a captioned image container as an image with its caption',
      html: '<div class="captioned-image-container"><figure><a class="image-link image2" href="https://substackcdn.com/image/fetch/big.png"><picture><source type="image/webp" srcset="https://substackcdn.com/image/fetch/w_424/a.webp 424w"><img src="https://substackcdn.com/image/fetch/w_1456/a.png" data-attrs="{&quot;src&quot;:&quot;https://bucketeer.s3.amazonaws.com/public/images/a.png&quot;,&quot;alt&quot;:null}" alt=""></picture><div class="image-link-expand"><svg><path d="M0"></path></svg></div></a><figcaption class="image-caption">The market at noon</figcaption></figure></div>',
      flavour: 'substack',
      markdown:
        '![The market at noon](https://bucketeer.s3.amazonaws.com/public/images/a.png "The market at noon")',
    },
  ]);
});

describe("htmlToMarkdown removes Medium's repeats and section markup", () => {
  it('keeps the body without its title, subtitle and section dividers, with its figures', () => {
    expect(
      markdownOf(
        '<html><head><title>Trip</title></head><body><article><header><h1 class="p-name">Trip</h1></header><section data-field="body" class="e-content"><section name="a" class="section section--body section--first"><div class="section-divider"><hr class="section-divider"></div><div class="section-content"><div class="section-inner sectionLayout--insetColumn"><h3 class="graf graf--h3 graf--leading graf--title">Trip</h3><h4 class="graf graf--h4 graf--subtitle">Where we went</h4><figure class="graf graf--figure"><div class="aspectRatioPlaceholder is-locked"><div class="aspectRatioPlaceholder-fill"></div><img class="graf-image" data-image-id="abc.jpeg" src="https://cdn-images-1.medium.com/max/800/abc.jpeg"></div><figcaption class="imageCaption">The road</figcaption></figure><p class="graf graf--p">We went.</p></div></div></section></section><footer><p>By <a href="https://medium.com/@me">Me</a></p></footer></article></body></html>',
        'medium',
      ),
    ).toBe('![The road](https://cdn-images-1.medium.com/max/800/abc.jpeg "The road")\n\nWe went.');
  });
});

describe('htmlToMarkdown lets nothing that can run through', () => {
  it('drops scripts, styles, forms, objects and nested svg, naming each', () => {
    const converted = convert(
      '<p>Safe</p><script>alert(1)</script><style>p{color:red}</style><form action="https://evil.example"><input name="q"><button>Go</button></form><object data="x.swf"></object><embed src="x.swf"><svg><g><script>alert(2)</script><foreignObject><p>inside</p></foreignObject></g></svg><p>End</p>',
    );
    expect(converted.markdown).toBe('Safe\n\nEnd');
    expect(converted.dropped).toEqual(['script', 'style', 'form', 'object', 'embed', 'svg']);
  });

  it('drops event handlers, keeping what they were on', () => {
    const converted = convert('<p onclick="steal()">Click <b onmouseover="steal()">me</b></p>');
    expect(converted.markdown).toBe('Click **me**');
    expect(converted.dropped).toEqual(['event handler (onclick)', 'event handler (onmouseover)']);
  });

  it('turns javascript: and data: links into their text, however they are spelt', () => {
    const converted = convert(
      '<p><a href="javascript:alert(1)">one</a> <a href=" &#106;ava&#x09;script&colon;alert(2)">two</a> <a href="JAVASCRIPT:alert(3)">three</a> <a href="data:text/html;base64,PHNjcmlwdD4=">four</a> <a href="vbscript:x">five</a></p>',
    );
    expect(converted.markdown).toBe('one two three four five');
    expect(converted.dropped).toEqual(['javascript: link', 'data: link', 'vbscript: link']);
  });

  it('drops data: images and names them', () => {
    const converted = convert(
      '<p>A</p><img src="data:image/svg+xml;base64,PHN2Zz4=" alt="x"><p>B</p>',
    );
    expect(converted.markdown).toBe('A\n\nB');
    expect(converted.images).toEqual([]);
    expect(converted.dropped).toEqual(['image (data: address)']);
  });

  it('keeps the words of markup nested too deep to walk, as plain text', () => {
    const converted = convert(
      `<p>Intro &amp; more</p>${'<div>'.repeat(100_000)}<script>alert(1)</script>Deep <b>words</b>`,
    );
    expect(converted.markdown).toBe('Intro & more\n\nDeep words');
    expect(converted.dropped).toEqual(['markup nested too deeply (kept as plain text)']);
  });

  it('leaves no raw HTML the site would refuse, whatever the input', () => {
    const markdown = markdownOf(
      '<div><p>&lt;script&gt;alert(1)&lt;/script&gt;</p><p><span>&lt;!-- members-only --&gt;</span></p><h1>Title</h1><table><tr><th><img src="https://cdn.example/t.png" alt="cell"></th></tr></table><p><a href="//evil.example/x">protocol-relative</a></p></div>',
    );
    expect(markdown).toBe(
      '\\<script>alert(1)\\</script>\n\n\\<!-- members-only -->\n\n## Title\n\n| [cell](https://cdn.example/t.png) |\n| --------------------------------- |\n\n[protocol-relative](https://evil.example/x)',
    );
    expect(siteProblems(markdown)).toEqual([]);
  });
});

describe('htmlToMarkdown makes every address absolute or a site path', () => {
  it('resolves relative links and images against the old site', () => {
    const converted = convert(
      '<p><a href="about/">About</a> <a href="/2013/01/11/hello/">Old post</a> <a href="#top">Top</a></p><img src="images/a.jpg" alt="A"><img src="/wp-content/b.jpg" alt="B"><img src="//cdn.example/c.jpg" alt="C">',
      'wordpress',
      'https://blog.example/',
    );
    expect(converted.markdown).toBe(
      '[About](https://blog.example/about/) [Old post](/2013/01/11/hello/) Top\n\n![A](https://blog.example/images/a.jpg)\n\n![B](https://blog.example/wp-content/b.jpg)\n\n![C](https://cdn.example/c.jpg)',
    );
  });

  it("turns Ghost's __GHOST_URL__ into a site path for links and the site's address for images", () => {
    const html =
      '<p><a href="__GHOST_URL__/sell/">Sell</a></p><figure class="kg-card kg-image-card"><img src="__GHOST_URL__/content/images/2021/03/cover.png" alt="Cover"></figure>';
    expect(markdownOf(html, 'ghost', 'https://ghost.example')).toBe(
      '[Sell](/sell/)\n\n![Cover](https://ghost.example/content/images/2021/03/cover.png)',
    );
    expect(convert(html).images).toEqual([
      { url: '/content/images/2021/03/cover.png', alt: 'Cover' },
    ]);
  });

  it('keeps an email address readable when the site does not link to it', () => {
    expect(markdownOf('<p><a href="mailto:editor@example.org">Write to us</a></p>')).toBe(
      'Write to us (editor@example.org)',
    );
  });
});

describe('rewriteImages swaps images for uploads', () => {
  const markdown =
    'Intro *kept* as is.\n\n![A boat](https://cdn.example/boat.jpg "At rest")\n\n![](https://cdn.example/gone.jpg)\n\n| a |\n| - |\n| b |';

  it('gives each stored image its upload address and turns the others into links', () => {
    const seen: SourceImage[] = [];
    const rewritten = rewriteImages(markdown, (image) => {
      seen.push(image);
      return image.url.endsWith('boat.jpg') ? { url: UPLOAD, alt: 'A boat on the bay' } : null;
    });
    expect(seen).toEqual([
      { url: 'https://cdn.example/boat.jpg', alt: 'A boat', caption: 'At rest' },
      { url: 'https://cdn.example/gone.jpg', alt: '' },
    ]);
    expect(rewritten).toBe(
      `Intro *kept* as is.\n\n![A boat on the bay](${UPLOAD} "At rest")\n\n<https://cdn.example/gone.jpg>\n\n| a |\n| - |\n| b |`,
    );
    expect(checkAndConvertMarkdown(rewritten).problems).toEqual([]);
  });
});

describe('plainTextOf and wordCountOf read what a reader sees', () => {
  it('gives the text of each block, without images, markup or footnotes', () => {
    const markdown =
      '## Plan\n\nStart **now**, [slowly](https://example.org)[^1].\n\n![A chart](/uploads/abcdefghij0123456789-1600x900.webp)\n\n- one\n- two\n\n<!-- members-only -->\n\n```\ncode here\n```\n\n[^1]: A note.';
    expect(plainTextOf(markdown)).toBe('Plan\n\nStart now, slowly.\n\none\n\ntwo\n\ncode here');
    expect(wordCountOf(markdown)).toBe(8);
  });
});

describe('the exports of other platforms convert with nothing the site refuses', () => {
  it("converts every post of Ghost's v4 export", () => {
    const file = JSON.parse(readFileSync(`${fixtures}ghost/v4_export.json`, 'utf8')) as {
      db: [{ data: { posts: { slug: string; html: string | null }[] } }];
    };
    const posts = file.db[0].data.posts;
    expect(posts.length).toBeGreaterThanOrEqual(11);
    for (const post of posts) {
      const converted = htmlToMarkdown(post.html ?? '', {
        flavour: 'ghost',
        siteUrl: 'https://ghost.example',
      });
      expect({ slug: post.slug, problems: siteProblems(converted.markdown) }).toEqual({
        slug: post.slug,
        problems: [],
      });
    }
    const sell = posts.find((post) => post.slug === 'sell');
    const sold = htmlToMarkdown(sell?.html ?? '', { flavour: 'ghost' }).markdown;
    expect(sold).toContain(`\n\n${MEMBERS_DIVIDER}\n\n`);
    expect(sold).toContain(
      '![The Browser has over 10,000 paying subscribers](https://static.ghost.org/v4.0.0/images/thebrowser.jpg "The Browser has over 10,000 paying subscribers")',
    );
  });

  it("converts Substack's and Medium's sample posts", () => {
    for (const [flavour, folder] of [
      ['substack', `${substackExport.path}/posts/`],
      ['medium', `${mediumExport.path}/posts/`],
    ] as const) {
      for (const name of readdirSync(folder).filter((file) => file.endsWith('.html'))) {
        const converted = htmlToMarkdown(readFileSync(folder + name, 'utf8'), { flavour });
        expect({ name, problems: siteProblems(converted.markdown) }).toEqual({
          name,
          problems: [],
        });
        expect(converted.markdown).not.toMatch(/Sign up|Leave a comment|Canonical link/);
      }
    }
  });

  it.skipIf(!haveMigrationSamples)(
    "converts every post and page of WordPress's theme unit test in ../shared/migration-samples (skipped when it is absent)",
    () => {
      // GPL-licensed: read where it is, never copied into the repository.
      const xml = readFileSync(`${samples}wordpress/theme-unit-test-data.xml`, 'utf8');
      const parsed = new XMLParser({ processEntities: false, parseTagValue: false }).parse(xml) as {
        rss: { channel: { item: Record<string, unknown>[] } };
      };
      const field = (item: Record<string, unknown>, name: string) => String(item[name] ?? '');
      const posts = parsed.rss.channel.item.filter((item) =>
        ['post', 'page'].includes(field(item, 'wp:post_type')),
      );
      expect(posts.length).toBeGreaterThan(70);
      for (const item of posts) {
        const converted = htmlToMarkdown(field(item, 'content:encoded'), {
          flavour: 'wordpress',
          siteUrl: 'https://wpthemetestdata.wordpress.com',
        });
        const slug = field(item, 'wp:post_name');
        expect({ slug, problems: siteProblems(converted.markdown) }).toEqual({
          slug,
          problems: [],
        });
      }
    },
  );

  it.skipIf(!haveMigrationSamples)(
    'converts the Ghost v2 and v3 exports in ../shared/migration-samples (skipped when it is absent)',
    () => {
      for (const version of ['v2', 'v3']) {
        const file = JSON.parse(readFileSync(`${samples}ghost/${version}_export.json`, 'utf8')) as {
          db: [{ data: { posts: { slug: string; html: string | null }[] } }];
        };
        for (const post of file.db[0].data.posts) {
          const converted = htmlToMarkdown(post.html ?? '', { flavour: 'ghost' });
          expect({ version, slug: post.slug, problems: siteProblems(converted.markdown) }).toEqual({
            version,
            slug: post.slug,
            problems: [],
          });
        }
      }
    },
  );
});

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { postWhere } from '#test/source-bundle';
import { checkXml } from './safe-xml.js';
import { ImportFileError, type SourceBundle, type SourcePost } from './source.js';
import { readWordPress } from './wordpress.js';

const fixtures = fileURLToPath(
  new URL('../../../tests/fixtures/imports/wordpress/', import.meta.url),
);
const fixture = (name: string) => readFile(join(fixtures, name), 'utf8');

const post = (bundle: SourceBundle, sourceId: string) => postWhere(bundle, 'sourceId', sourceId);

function refusal(run: () => unknown): ImportFileError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ImportFileError);
    return error as ImportFileError;
  }
  throw new Error('expected a refusal');
}

describe('readWordPress on a WXR 1.2 export', () => {
  let bundle: SourceBundle;
  beforeAll(async () => {
    bundle = readWordPress(await fixture('wxr-1.2.xml'));
  });

  it('takes the posts and the page, and the site address from the channel link', () => {
    expect(bundle.posts.map((item) => [item.sourceId, item.type, item.status])).toEqual([
      ['101', 'post', 'published'],
      ['102', 'page', 'published'],
      ['103', 'post', 'draft'],
      ['104', 'post', 'scheduled'],
      ['105', 'post', 'published'],
      ['107', 'post', 'draft'],
    ]);
    expect(bundle.siteUrl).toBe('https://harbour.example.org');
  });

  it('reports the menu item, the custom type and the binned post as skipped, and keeps the attachment', () => {
    expect(bundle.skipped).toEqual([
      { item: 'Old news', reason: 'in the WordPress bin (trash)' },
      { item: 'Home', reason: 'a WordPress "nav_menu_item" item, not a post or page' },
      { item: 'Rope, 10 m', reason: 'a WordPress "product" item, not a post or page' },
    ]);
    expect(bundle.attachments).toEqual(
      new Map([
        [
          '201',
          {
            url: 'https://harbour.example.org/wp-content/uploads/2024/03/ferry.jpg',
            alt: 'The ferry at the quay',
            caption: 'The morning ferry',
          },
        ],
      ]),
    );
  });

  it('reads a published post whole: title as text, body HTML with its shortcode and table, terms, author, dates, paths', () => {
    const tides = post(bundle, '101');
    expect(tides).toMatchObject({
      slug: 'tide-tables',
      title: 'Tide tables & ferries',
      excerpt: 'When the ferry sails, and why.',
      flavour: 'wordpress',
      visibility: 'public',
      tiers: [],
      authors: [{ name: 'Marta Quay', slug: 'marta', email: 'marta@harbour.example.org' }],
      tags: ['Boats', 'Tides'],
      featureImage: {
        url: 'https://harbour.example.org/wp-content/uploads/2024/03/ferry.jpg',
        alt: 'The ferry at the quay',
      },
      oldPaths: ['https://harbour.example.org/2024/03/05/tide-tables/', '/?p=101'],
      comments: 1,
    });
    expect(tides.html).toContain(
      '[caption id="attachment_201" align="aligncenter" width="640"]<img',
    );
    expect(tides.html).toContain('<tr><td>Monday</td><td>06:12</td></tr>');
    expect(tides.html).toContain('<blockquote>Time and tide wait for no one.</blockquote>');
    expect(tides.publishedAt?.toISOString()).toBe('2024-03-05T09:30:00.000Z');
    expect(tides.updatedAt?.toISOString()).toBe('2024-03-06T10:00:00.000Z');
  });

  it('counts comments, leaving spam out', () => {
    expect(bundle.comments).toBe(1);
  });

  it('gives a page its ?page_id= address, a draft no slug and no date, a future post its date', () => {
    expect(post(bundle, '102').oldPaths).toEqual([
      'https://harbour.example.org/about/',
      '/?page_id=102',
    ]);
    expect(post(bundle, '103')).toMatchObject({
      slug: '',
      status: 'draft',
      title: 'Half-written thoughts',
    });
    expect(post(bundle, '103').publishedAt).toBeUndefined();
    expect(post(bundle, '104').publishedAt?.toISOString()).toBe('2030-06-01T08:00:00.000Z');
    expect(post(bundle, '104').html).toContain(
      '[embed]https://www.youtube.com/watch?v=regatta[/embed]',
    );
  });

  it('makes a password-protected post members-only and a private post a draft', () => {
    expect(post(bundle, '105').visibility).toBe('members');
    expect(post(bundle, '107')).toMatchObject({ status: 'draft', visibility: 'public' });
  });
});

describe('readWordPress on a WXR 1.0 export', () => {
  it('reads bare and domain="tag" terms once each, and dates from post_date when there is no GMT one', async () => {
    const bundle = readWordPress(await fixture('wxr-1.0.xml'));
    expect(bundle.posts.map((item) => [item.slug, item.type])).toEqual([
      ['grinding-season', 'post'],
      ['the-mill', 'page'],
    ]);
    const grinding = bundle.posts[0] as SourcePost;
    expect(grinding.tags).toEqual(['Flour', 'autumn']);
    expect(grinding.authors).toEqual([{ name: 'miller', slug: 'miller' }]);
    expect(grinding.html).toContain('[gallery ids="31,32"]');
    expect(grinding.oldPaths).toEqual([
      'http://oldmill.example.net/2009/10/12/grinding-season/',
      '/?p=12',
    ]);
    expect(bundle.posts[1]?.publishedAt?.toISOString()).toBe('2009-03-01T10:00:00.000Z');
    expect(bundle.comments).toBe(1);
  });
});

describe('readWordPress refuses unsafe and broken files, saying where', () => {
  it('refuses an XML bomb (billion laughs) before parsing it', async () => {
    const bomb = await fixture('billion-laughs.xml');
    const refused = refusal(() => readWordPress(bomb));
    expect(refused.message).toBe(
      'Entity declarations are not allowed (the document type has an internal subset) (line 3, column 1)',
    );
  });

  it('refuses an external entity', async () => {
    const text = await fixture('external-entity.xml');
    expect(refusal(() => readWordPress(text)).message).toBe(
      'External entities are not allowed (the document type names an external file) (line 3, column 1)',
    );
  });

  it('refuses a malformed file with the line and column of the mismatch', async () => {
    const text = await fixture('malformed.xml');
    const error = refusal(() => readWordPress(text));
    expect(error.where).toBe('line 8, column 21');
    expect(error.message).toBe(
      'The end tag </wp:post_id> does not match <title> (line 8, column 3) (line 8, column 21)',
    );
  });

  it('refuses an undeclared namespace prefix', async () => {
    const text = await fixture('undeclared-prefix.xml');
    expect(refusal(() => readWordPress(text)).message).toBe(
      'The namespace prefix "mystery" of <mystery:field> is not declared (line 9, column 3)',
    );
  });

  it('refuses an item that rebinds wp: to another namespace, and invalid prefixes', () => {
    const hijack = `<rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><item xmlns:wp="http://evil.example/"><wp:post_id>1</wp:post_id></item></channel></rss>`;
    expect(refusal(() => readWordPress(hijack)).message).toBe(
      'The prefix "wp" is bound to http://evil.example/, not the namespace it must name (line 1, column 59)',
    );
    const invalid = `<rss>\n<channel xmlns:123bad="http://example.com/"></channel></rss>`;
    expect(refusal(() => readWordPress(invalid)).message).toBe(
      'Invalid namespace prefix "123bad" (line 2, column 1)',
    );
    expect(
      refusal(() => checkXml('<a xmlns:xmlns="http://www.w3.org/2000/xmlns/"/>')).message,
    ).toContain('The prefix "xmlns" cannot be declared');
    expect(refusal(() => checkXml('<a xmlns:t=""/>')).message).toContain(
      'declared with an empty namespace',
    );
  });

  it('refuses an empty file and a feed that is not a WordPress export', () => {
    expect(refusal(() => readWordPress('')).message).toBe(
      'The file has no XML element (line 1, column 1)',
    );
    expect(
      refusal(() => readWordPress('<rss><channel><item><title>x</title></item></channel></rss>'))
        .message,
    ).toBe('Not a WordPress export: the feed has no wp:wxr_version and no WordPress items');
    expect(refusal(() => readWordPress('<html><body/></html>')).message).toBe(
      'Not a WordPress export: expected <rss><channel> with WordPress items',
    );
  });

  it('accepts a DOCTYPE with nothing in it, CDATA holding markup, and a byte-order mark', () => {
    const text = `\uFEFF<?xml version="1.0"?>\n<!DOCTYPE rss>\n<rss xmlns:wp="https://wordpress.org/export/1.2/" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><wp:wxr_version>1.2</wp:wxr_version><item><title>A</title><content:encoded><![CDATA[<!ENTITY x "y"> <b>not XML</b> &lol;]]></content:encoded><wp:post_id>1</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status></item></channel></rss>`;
    const bundle = readWordPress(text);
    expect(bundle.posts[0]?.html).toBe('<!ENTITY x "y"> <b>not XML</b> &lol;');
  });
});

describe('readWordPress on a gallery that names no images', () => {
  const item = (body: string) => `<item>${body}</item>`;
  const attachment = (id: string, parent: string, order: number, file: string) =>
    item(`<title>${file}</title><wp:post_id>${id}</wp:post_id><wp:post_type>attachment</wp:post_type>
      <wp:post_parent>${parent}</wp:post_parent><wp:menu_order>${order}</wp:menu_order>
      <wp:status>inherit</wp:status>
      <wp:attachment_url>https://garden.example.org/uploads/${file}</wp:attachment_url>`);
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"
  xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Garden</title><link>https://garden.example.org</link>
  <wp:wxr_version>1.2</wp:wxr_version>
  ${item(`<title>Our beds</title><wp:post_id>7</wp:post_id><wp:post_type>post</wp:post_type>
    <wp:post_name>our-beds</wp:post_name><wp:status>publish</wp:status>
    <content:encoded><![CDATA[Before [gallery columns="2"] and [gallery ids="42"] after.]]></content:encoded>`)}
  ${attachment('31', '7', 2, 'leeks.jpg')}
  ${attachment('30', '7', 1, 'beans.jpg')}
  ${attachment('32', '9', 0, 'elsewhere.jpg')}
</channel></rss>`;

  it('names the images uploaded to that post, in their order, as WordPress shows them', () => {
    const bundle = readWordPress(xml);
    expect(post(bundle, '7').html).toBe(
      'Before [gallery ids="30,31" columns="2"] and [gallery ids="42"] after.',
    );
    expect(bundle.attachments.get('30')?.url).toBe('https://garden.example.org/uploads/beans.jpg');
  });
});

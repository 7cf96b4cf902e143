import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_DATA_PATH } from '../../../contract/site-data.js';
import { SITE_FILE_PATHS } from '../../../contract/site-index.js';
import { GhostAdminAPI, type GhostAdminApi, type GhostItem } from '#test/ghost-admin-client';
import { buildIntegration } from '#test/factories';
import { withSite, type Site } from '#test/with-site';

// A members-only post written by an app that sends no excerpt (iA Writer, Ulysses): its summary
// is made from what visitors may read, else its title, so its members-only words reach no page,
// list, feed, search result or Content API answer, drawn pages included.

const OWNER = 'members-summary-owner@example.com';

let t: Site;
let site: string;
let admin: GhostAdminApi;
let contentKey: string;

beforeAll(async () => {
  t = await withSite({ built: true, listen: true, env: { STAFF_EMAILS: OWNER } });
  site = t.url;
  const integration = await buildIntegration(t, { name: 'Ulysses' });
  contentKey = integration.contentKey;
  admin = GhostAdminAPI({ url: site, key: integration.adminKey, version: 'v5.0' });
});

afterAll(async () => {
  await t?.close();
});

async function text(path: string): Promise<string> {
  const response = await fetch(`${site}${path}`);
  expect(response.status, path).toBe(200);
  return response.text();
}

const siteData = (path: string) => text(`${SITE_DATA_PATH}?path=${encodeURIComponent(path)}`);
const contentApi = (path: string) =>
  text(`/ghost/api/content/${path}${path.includes('?') ? '&' : '?'}key=${contentKey}`);

/**
 * Everything a visitor or a Content API key can read of a published post, by where it is read:
 * the home page, its section's list, its own page, its topics' and its author's pages (the
 * screens' data, and the drawn pages), the feeds, a search for `word`, the
 * Content API's lists and the post itself.
 */
async function publicSurfaces(
  post: GhostItem,
  word: string,
  kind: 'posts' | 'pages' = 'posts',
): Promise<Map<string, string>> {
  const path = new URL(String(post.url)).pathname;
  const [section] = path.split('/').filter(Boolean);
  const one = `${kind}/${String(post.id)}/?include=tags,authors`;
  const read = (JSON.parse(await contentApi(one)) as Record<string, Read[]>)[kind]?.[0];
  const lists = [...(read?.tags ?? []), ...(read?.authors ?? [])].map(
    (linked) => new URL(linked.url).pathname,
  );
  const pages = ['/', path, ...(kind === 'posts' ? [`/${section}`] : []), ...lists];
  const feeds = [
    SITE_FILE_PATHS.feed,
    ...(kind === 'posts' ? [`/${section}/rss.xml`] : []),
    ...lists.map((list) => `${list}/rss.xml`),
  ];
  const reads: [string, Promise<string>][] = [
    ...pages.map((page): [string, Promise<string>] => [`data of ${page}`, siteData(page)]),
    ...pages.map((page): [string, Promise<string>] => [`page ${page}`, text(page)]),
    ...feeds.map((feed): [string, Promise<string>] => [`feed ${feed}`, text(feed)]),
    // What it found: the answer says the query again.
    ['search', text(`/api/search?q=${encodeURIComponent(word)}`).then(resultsOf)],
    ['Content API posts', contentApi('posts/?limit=all&include=tags,authors')],
    ['Content API pages', contentApi('pages/?limit=all')],
    ['Content API by slug', contentApi(`${kind}/slug/${String(post.slug)}/`)],
  ];
  const surfaces = new Map([['Content API by id', JSON.stringify(read)]]);
  for (const [where, body] of reads) surfaces.set(where, await body);
  return surfaces;
}
type Read = { tags?: { url: string }[]; authors?: { url: string }[] };

const resultsOf = (answer: string) =>
  JSON.stringify((JSON.parse(answer) as { results: unknown }).results);

/** Where `words` can be read, case aside. */
const holding = (surfaces: Map<string, string>, words: string) =>
  [...surfaces]
    .filter(([, body]) => body.toLowerCase().includes(words.toLowerCase()))
    .map(([where]) => where);

const SECRET = 'Quillwort';
const secretParagraph = `<p>${SECRET} marmalade: the members’ recipe, step by step.</p>`;

describe('a members-only post from a writing app without an excerpt', () => {
  it('is summarised by its opening before the divider, and its members’ words are nowhere public', async () => {
    const post = await admin.posts.add(
      {
        title: 'Jam for the winter',
        status: 'published',
        visibility: 'paid',
        tags: ['Preserves'],
        html: `<p>Everyone may read this opening.</p><!--members-only-->${secretParagraph}`,
      },
      { source: 'html' },
    );
    const seen = await publicSurfaces(post, SECRET);
    expect(holding(seen, SECRET)).toEqual([]);
    expect(holding(seen, 'Everyone may read this opening.')).toContain('data of /');
  });

  it('is summarised by its title when nothing comes before the divider, page or post', async () => {
    const post = await admin.posts.add(
      {
        title: 'Pickles for members',
        status: 'published',
        visibility: 'members',
        html: secretParagraph,
      },
      { source: 'html' },
    );
    const page = await admin.pages.add(
      { title: 'Members’ pantry', status: 'published', visibility: 'paid', html: secretParagraph },
      { source: 'html' },
    );
    for (const [item, kind] of [
      [post, 'posts'],
      [page, 'pages'],
    ] as const) {
      const seen = await publicSurfaces(item, SECRET, kind);
      expect(holding(seen, SECRET)).toEqual([]);
    }
    const { rows } = await t.database.pool.query<{ summary: string }>(
      `SELECT COALESCE("fields"->>'summary', "fields"->>'description') AS "summary" FROM "posts"
        WHERE "title" = ANY($1::text[]) ORDER BY "id"`,
      [[post.title, page.title]],
    );
    expect(rows.map((row) => row.summary)).toEqual(['Pickles for members', 'Members’ pantry']);
  });
});

describe('a post changed by a writing app without an excerpt', () => {
  it('summarises a post made members-only again, so its old public opening, now members’, goes', async () => {
    const made = await admin.posts.add(
      { title: 'Chutney notes', status: 'published', html: secretParagraph },
      { source: 'html' },
    );
    expect(made.custom_excerpt).toContain(SECRET);
    const changed = await admin.posts.edit(
      { id: made.id, updated_at: made.updated_at, visibility: 'paid', html: secretParagraph },
      { source: 'html' },
    );
    expect(changed.custom_excerpt).toBe('Chutney notes');
    expect(holding(await publicSurfaces(changed, SECRET), SECRET)).toEqual([]);
  });

  it('makes a cleared excerpt from the public part only, and keeps an excerpt a writer typed', async () => {
    const typed = await admin.posts.add(
      {
        title: 'Marmalade season',
        status: 'published',
        visibility: 'paid',
        custom_excerpt: 'Oranges, sugar and patience.',
        html: `<p>The opening.</p><!--members-only-->${secretParagraph}`,
      },
      { source: 'html' },
    );
    expect(typed.custom_excerpt).toBe('Oranges, sugar and patience.');
    const rewritten = await admin.posts.edit(
      { id: typed.id, updated_at: typed.updated_at, html: secretParagraph },
      { source: 'html' },
    );
    expect(rewritten.custom_excerpt).toBe('Oranges, sugar and patience.');
    const cleared = await admin.posts.edit({
      id: typed.id,
      updated_at: rewritten.updated_at,
      custom_excerpt: null,
    });
    expect(cleared.custom_excerpt).toBe('Marmalade season');
    expect(holding(await publicSurfaces(cleared, SECRET), SECRET)).toEqual([]);
  });
});

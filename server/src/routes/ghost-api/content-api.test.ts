import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { SITE, useDeskPostsSite } from '#test/desk-posts-site';
import { GhostContentAPI, type GhostContentApi } from '#test/ghost-content-client';
import { TOUR_VIDEO, tourVideoReading } from '#test/card-readings';
import { saveCardReading } from '../../embeds/card-store.js';

// Ghost's Content API through Ghost's own client (@tryghost/content-api) against the real app on a
// real port: integrations' keys, posts and pages in Ghost's shape, filters, pagination, a
// members-only post without its members-only part, and Ghost's errors.

type GhostPostLike = {
  id: string;
  slug: string;
  title: string;
  html?: string;
  plaintext?: string;
  visibility: string;
  url: string;
  tags?: { slug: string; name: string }[];
  authors?: { slug: string; name: string }[];
  primary_tag?: { slug: string } | null;
  primary_author?: { slug: string } | null;
};
type Browsed<T> = T[] & {
  meta: {
    pagination: {
      page: number;
      limit: number | string;
      pages: number;
      total: number;
      next: number | null;
      prev: number | null;
    };
  };
};

const SECRET_LINE = 'Only members read the landlord’s checklist.';

describe('Ghost’s Content API', () => {
  const { t, owner, editor, writer, call, published } = useDeskPostsSite();
  let url = '';
  let contentKey = '';
  let integrationId = '';
  let api: GhostContentApi;

  /** A GET on the real port, its body read whole. */
  async function fetchText(path: string, init: RequestInit = {}) {
    const response = await fetch(`${url}${path}`, init);
    return { response, text: await response.text() };
  }

  beforeAll(async () => {
    // Closed with the app by the site's own afterAll.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const profile = await call(owner, 'PATCH', '/api/desk/profile', {
      name: 'Ana Ruiz',
      slug: 'ana-ruiz',
    });
    expect(profile.statusCode, profile.body).toBe(200);
    for (let n = 1; n <= 17; n += 1) {
      await published({
        slug: `flat-${n}`,
        title: `Flat number ${n}`,
        tags: n % 2 === 0 ? ['Renting', 'Deposits'] : ['Renting'],
        authors: ['ana-ruiz'],
      });
    }
    await published({
      slug: 'members-checklist',
      title: 'The landlord checklist',
      visibility: 'members',
      tags: ['Checklists'],
      body: `Start with the deposit.\n\n<!-- members-only -->\n\n${SECRET_LINE}\n`,
    });
    const page = await call(owner, 'POST', '/api/desk/posts', {
      kind: 'page',
      slug: 'about-us',
      title: 'About us',
      description: 'Who we are.',
      body: 'We are **a cooperative**.',
    });
    expect(page.statusCode, page.body).toBe(201);
    const { id, version } = page.json().post;
    expect(
      (await call(owner, 'POST', `/api/desk/posts/${id}/publish`, { version })).statusCode,
    ).toBe(200);

    const made = await call(owner, 'POST', '/api/desk/integrations', { name: 'Next.js front end' });
    expect(made.statusCode, made.body).toBe(201);
    ({ contentKey, id: integrationId } = made.json().integration);
    api = GhostContentAPI({ url, key: contentKey, version: 'v5.0' });
  });

  it('lets owners alone make integrations, shows keys once, and stores neither as it was shown', async () => {
    const made = await call(owner, 'POST', '/api/desk/integrations', { name: '  Zapier  ' });
    expect(made.statusCode, made.body).toBe(201);
    const { integration } = made.json();
    expect(integration.name).toBe('Zapier');
    expect(integration.contentKey).toMatch(/^[0-9a-f]{26}$/);
    expect(integration.adminKey).toMatch(/^[0-9a-f]{24}:[0-9a-f]{64}$/);

    const listed = await call(owner, 'GET', '/api/desk/integrations');
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(integration.contentKey);
    expect(listed.body).not.toContain(integration.adminKey.split(':')[1]);
    expect(listed.json().apiUrl).toBe(SITE);
    expect(listed.json().integrations[0]).toMatchObject({
      id: integration.id,
      name: 'Zapier',
      createdBy: owner.email,
      contentKeyHint: integration.contentKey.slice(-4),
      adminKeyId: integration.adminKey.split(':')[0],
    });
    const { rows } = await t.database.pool.query<{ hash: string | null; secret: string | null }>(
      'SELECT hash, secret FROM api_keys WHERE "integrationId" = $1',
      [integration.id],
    );
    const stored = JSON.stringify(rows);
    expect(rows).toHaveLength(2);
    expect(stored).not.toContain(integration.contentKey);
    expect(stored).not.toContain(integration.adminKey.split(':')[1]);

    for (const who of [editor, writer]) {
      const refused = await call(who, 'POST', '/api/desk/integrations', { name: 'Mine' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('owners_only');
      expect((await call(who, 'GET', '/api/desk/integrations')).statusCode).toBe(403);
    }
    for (const body of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(101) },
      { name: 7 },
    ]) {
      const refused = await call(owner, 'POST', '/api/desk/integrations', body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().error.message).toBeTruthy();
    }
    const count = await t.database.pool.query('SELECT count(*)::int AS n FROM integrations');
    expect(count.rows[0].n).toBe(2);
    const audit = await t.database.pool.query(
      `SELECT action FROM audit_log WHERE action LIKE 'integration_%' ORDER BY id`,
    );
    expect(audit.rows.map((row) => row.action)).toEqual([
      'integration_create',
      'integration_create',
    ]);

    const gone = await call(owner, 'DELETE', `/api/desk/integrations/${integration.id}`);
    expect(gone.statusCode).toBe(204);
    expect(
      (await call(owner, 'DELETE', `/api/desk/integrations/${integration.id}`)).statusCode,
    ).toBe(404);
    expect((await call(owner, 'DELETE', '/api/desk/integrations/not-a-uuid')).statusCode).toBe(400);
  });

  it('browses posts newest first, a page at a time, with their tags and authors', async () => {
    const first = (await api.posts.browse({
      limit: 5,
      include: 'tags,authors',
    })) as Browsed<GhostPostLike>;
    expect(first.map((post) => post.slug)).toEqual([
      'members-checklist',
      'flat-17',
      'flat-16',
      'flat-15',
      'flat-14',
    ]);
    expect(first.meta.pagination).toEqual({
      page: 1,
      limit: 5,
      pages: 4,
      total: 18,
      next: 2,
      prev: null,
    });
    const flat = first[2];
    expect(flat?.id).toMatch(/^[0-9a-f]{24}$/);
    expect(flat?.url).toBe(`${SITE}/wealth/flat-16`);
    expect(flat?.tags?.map((tag) => tag.slug)).toEqual(['wealth', 'renting', 'deposits']);
    expect(flat?.primary_tag?.slug).toBe('wealth');
    expect(flat?.authors?.map((author) => author.name)).toEqual(['Ana Ruiz']);
    expect(flat?.primary_author?.slug).toBe('ana-ruiz');
    expect(flat?.html).toContain('<h2>Before you sign</h2>');

    const second = (await api.posts.browse({ limit: 5, page: 2 })) as Browsed<GhostPostLike>;
    expect(second.map((post) => post.slug)).toEqual([
      'flat-13',
      'flat-12',
      'flat-11',
      'flat-10',
      'flat-9',
    ]);
    expect(second.meta.pagination).toMatchObject({ page: 2, next: 3, prev: 1 });
    // Without include, no tags or authors, as Ghost answers.
    expect(second[0]).not.toHaveProperty('tags');
    expect(second[0]).not.toHaveProperty('authors');

    const all = (await api.posts.browse({
      limit: 'all',
      order: 'title asc',
    })) as Browsed<GhostPostLike>;
    expect(all).toHaveLength(18);
    expect(all[0]?.title).toBe('Flat number 1');
    expect(all.at(-1)?.title).toBe('The landlord checklist');
  });

  it('filters posts by tag, by a list of tags, by visibility and with AND and OR', async () => {
    const slugs = async (filter: string) =>
      ((await api.posts.browse({ limit: 'all', filter })) as Browsed<GhostPostLike>).map(
        (post) => post.slug,
      );
    expect(await slugs('tag:checklists')).toEqual(['members-checklist']);
    expect((await slugs('tag:deposits')).length).toBe(8);
    expect(await slugs('tags:[checklists,nothing-here]')).toEqual(['members-checklist']);
    expect(await slugs('visibility:paid')).toEqual(['members-checklist']);
    expect((await slugs('visibility:public')).length).toBe(17);
    expect(await slugs('featured:true')).toEqual([]);
    expect(await slugs('tag:deposits+slug:flat-2')).toEqual(['flat-2']);
    expect(await slugs('slug:flat-2,slug:flat-3')).toEqual(['flat-3', 'flat-2']);
    const third = (await api.posts.read({ slug: 'flat-3' })) as { published_at: string };
    expect(await slugs(`published_at:<'${third.published_at}'`)).toEqual(['flat-2', 'flat-1']);
    expect((await slugs('tag:-renting')).sort()).toEqual(['members-checklist']);

    await expect(api.posts.browse({ filter: 'tag:' })).rejects.toMatchObject({
      type: 'BadRequestError',
    });
    const refused = await fetchText(
      `/ghost/api/content/posts/?key=${contentKey}&filter=${encodeURIComponent('colour:red')}`,
    );
    expect(refused.response.status).toBe(400);
    expect(JSON.parse(refused.text).errors[0]).toMatchObject({
      type: 'BadRequestError',
      message: 'Cannot filter by "colour".',
    });
    for (const query of [
      'limit=0',
      'limit=ten',
      'page=-1',
      'order=colour%20asc',
      'include=comments',
    ]) {
      const bad = await fetchText(`/ghost/api/content/posts/?key=${contentKey}&${query}`);
      expect(bad.response.status, query).toBe(400);
      expect(JSON.parse(bad.text).errors[0].type).toBe('BadRequestError');
    }
  });

  it('reads a post by slug and by id, in the formats asked for', async () => {
    const post = (await api.posts.read(
      { slug: 'flat-3' },
      { formats: 'html,plaintext', include: 'tags' },
    )) as GhostPostLike;
    expect(post.title).toBe('Flat number 3');
    expect(post.html).toContain('<p>Read the whole lease, then read it again.</p>');
    expect(post.plaintext).toBe('Before you sign\n\nRead the whole lease, then read it again.');
    const byId = (await api.posts.read({ id: post.id })) as GhostPostLike;
    expect(byId.slug).toBe('flat-3');
    expect(byId).not.toHaveProperty('plaintext');
    const fields = (await api.posts.read(
      { slug: 'flat-3' },
      { fields: 'title,url' },
    )) as unknown as Record<string, unknown>;
    expect(fields).toEqual({ title: 'Flat number 3', url: `${SITE}/wealth/flat-3` });
  });

  it('lists a members-only post with its visibility and without its members-only part', async () => {
    const post = (await api.posts.read(
      { slug: 'members-checklist' },
      { formats: 'html,plaintext' },
    )) as GhostPostLike;
    expect(post.visibility).toBe('paid');
    expect(post.html).toContain('Start with the deposit.');
    expect(post.plaintext).toBe('Start with the deposit.');
    const listed = await fetchText(
      `/ghost/api/content/posts/?key=${contentKey}&limit=all&formats=html,plaintext`,
    );
    expect(listed.response.status).toBe(200);
    expect(listed.text).toContain('Start with the deposit.');
    expect(listed.text).not.toContain('landlord’s checklist');
  });

  it('answers pages, tags with their counts, authors, settings and tiers', async () => {
    const pages = (await api.pages.browse()) as Browsed<GhostPostLike>;
    expect(pages.map((page) => page.slug)).toEqual(['about-us']);
    expect(pages[0]?.html).toBe('<p>We are <strong>a cooperative</strong>.</p>');
    expect(pages[0]?.url).toBe(`${SITE}/about-us`);
    const page = (await api.pages.read({ slug: 'about-us' })) as GhostPostLike;
    expect(page.title).toBe('About us');

    const tags = (await api.tags.browse({ include: 'count.posts', limit: 'all' })) as Browsed<{
      slug: string;
      name: string;
      count: { posts: number };
    }>;
    expect(tags.map((tag) => [tag.slug, tag.count.posts])).toEqual([
      ['checklists', 1],
      ['deposits', 8],
      ['renting', 17],
      ['wealth', 18],
    ]);
    const tag = (await api.tags.read({ slug: 'renting' })) as { name: string };
    expect(tag.name).toBe('Renting');

    const authors = (await api.authors.browse({ include: 'count.posts' })) as Browsed<{
      slug: string;
      name: string;
      url: string;
      count: { posts: number };
    }>;
    expect(authors).toHaveLength(1);
    expect(authors[0]).toMatchObject({
      slug: 'ana-ruiz',
      name: 'Ana Ruiz',
      url: `${SITE}/authors/ana-ruiz`,
      count: { posts: 18 },
    });

    const settings = (await api.settings.browse()) as unknown as Record<string, unknown>;
    expect(settings).toMatchObject({ title: 'Cohort', url: `${SITE}/`, members_enabled: true });
    expect(settings.navigation).toContainEqual({ label: 'Wealth', url: `${SITE}/wealth` });

    const tiers = (await api.tiers.browse()) as Browsed<{ slug: string; type: string }>;
    expect(tiers.map((tier) => tier.type)).toContain('free');
  });

  it('answers Ghost’s paths with their trailing slash, with Content-Version and CORS', async () => {
    const { response, text } = await fetchText(
      `/ghost/api/content/posts/?key=${contentKey}&limit=1`,
      { headers: { 'Accept-Version': 'v5.0', Origin: 'https://front.example.com' } },
    );
    expect(response.status).toBe(200);
    expect(response.redirected).toBe(false);
    expect(response.headers.get('content-version')).toBe('v5.0');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(JSON.parse(text).posts).toHaveLength(1);

    const preflight = await fetchText('/ghost/api/content/posts/', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://front.example.com',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'accept-version',
      },
    });
    expect(preflight.response.status).toBe(204);
    expect(preflight.response.headers.get('access-control-allow-headers')).toContain(
      'Accept-Version',
    );

    // The site's own pages still lose a trailing slash.
    const page = await fetch(`${url}/about-us/`, { redirect: 'manual' });
    await page.text();
    expect(page.status).toBe(301);
    expect(page.headers.get('location')).toBe('/about-us');
  });

  it('draws a card in a post’s HTML as Ghost’s embed card, with what was read of its address', async () => {
    const video = TOUR_VIDEO;
    await saveCardReading(t.database.pool, tourVideoReading(null));
    await published({ slug: 'a-video', title: 'A video', body: `Watch this.\n\n${video}\n` });
    const post = (await api.posts.read({ slug: 'a-video' }, { formats: 'html' })) as GhostPostLike;
    expect(post.html).toContain(
      `<figure class="kg-card kg-embed-card" data-url="${video}"><iframe width="560" height="315" src="https://www.youtube-nocookie.com/embed/hmH3XMlms8E" `,
    );
    expect(post.html).toContain('title="A tour of the editor"></iframe></figure>');
  });

  it('refuses a missing or unknown key, a deleted integration’s key and a missing post, in Ghost’s shape', async () => {
    const missing = await fetchText('/ghost/api/content/posts/');
    expect(missing.response.status).toBe(401);
    expect(JSON.parse(missing.text).errors[0].type).toBe('UnauthorizedError');

    const wrong = GhostContentAPI({ url, key: 'a'.repeat(26), version: 'v5.0' });
    await expect(wrong.posts.browse()).rejects.toMatchObject({
      type: 'UnauthorizedError',
      message: 'Unknown Content API Key',
    });

    await expect(api.posts.read({ slug: 'no-such-post' })).rejects.toMatchObject({
      type: 'NotFoundError',
    });
    const unknown = await fetchText(`/ghost/api/content/nothing/?key=${contentKey}`);
    expect(unknown.response.status).toBe(404);
    expect(JSON.parse(unknown.text).errors[0].type).toBe('NotFoundError');

    expect(
      (await call(owner, 'DELETE', `/api/desk/integrations/${integrationId}`)).statusCode,
    ).toBe(204);
    await expect(api.posts.browse()).rejects.toMatchObject({ type: 'UnauthorizedError' });
  });
});

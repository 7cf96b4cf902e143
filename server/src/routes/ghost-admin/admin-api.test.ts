import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GhostAdminAPI,
  ghostAdminToken as token,
  ghostFailure,
  type GhostAdminApi,
} from '#test/ghost-admin-client';
import { buildIntegration, buildStaff, uniqueEmail, type Member } from '#test/factories';
import { withSite, type Site } from '#test/with-site';

// Ghost's Admin API driven by Ghost's own client (@tryghost/admin-api) against the app on a real
// port: a writing app's post made as a draft from HTML, published live on its page, a stale save
// refused, an image uploaded, members synced; and every key that must not open it refused.

const OWNER = 'ghost-admin-owner@example.com';
const WRITER = 'ghost-admin-writer@example.com';

let t: Site;
let site: string;
let folder: string;
let owner: Member;
let writer: Member;
let adminKey: string;
let contentKey: string;
let integrationId: string;
let admin: GhostAdminApi;

async function desk(who: Member, method: 'GET' | 'POST' | 'DELETE', url: string, body?: object) {
  const response = await t.app.inject({
    method,
    url,
    headers: { cookie: who.cookie },
    ...(body && { payload: body }),
  });
  return {
    status: response.statusCode,
    body: response.body ? (JSON.parse(response.body) as Record<string, unknown>) : {},
  };
}

const makeIntegration = (name: string) => buildIntegration(t, { name, by: owner });

const client = (key: string) => GhostAdminAPI({ url: site, key, version: 'v5.0' });

async function rawGet(path: string, authorization?: string) {
  const response = await fetch(`${site}${path}`, {
    headers: { 'accept-version': 'v5.0', ...(authorization && { authorization }) },
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as { errors?: { type: string; message: string }[] },
  };
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'cohort-ghost-admin-test-'));
  t = await withSite({
    built: true,
    listen: true,
    env: { STAFF_EMAILS: OWNER, WRITER_EMAILS: WRITER, UPLOADS_DIR: join(folder, 'uploads') },
  });
  site = t.url;
  [owner, writer] = await buildStaff(t, 'owner', 'writer');
  const integration = await makeIntegration('iA Writer');
  adminKey = integration.adminKey;
  contentKey = integration.contentKey;
  integrationId = integration.id;
  admin = client(adminKey);
});

afterAll(async () => {
  await t?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('Ghost’s Admin API with Ghost’s own client', () => {
  it('answers site/ to anyone, as writing apps probe it, with Content-Version', async () => {
    const answer = await rawGet('/ghost/api/admin/site/');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-version')).toBe('v5.0');
    const read = await admin.site.read();
    expect(read).toMatchObject({ title: expect.any(String), url: `${site}/`, version: '5.x' });
  });

  it('adds a post from HTML as a draft, then publishes it live on its page, keeping the updated_at rule', async () => {
    const post = await admin.posts.add(
      {
        title: 'Budgeting on a first salary',
        html: '<p>Start with <strong>rent</strong> and savings.</p><script>alert(1)</script><h2>Then the rest</h2><p>Everything else fits around them.</p>',
        tags: ['First Jobs', { name: 'Budgets' }],
      },
      { source: 'html' },
    );
    expect(post).toMatchObject({
      title: 'Budgeting on a first salary',
      slug: 'budgeting-on-a-first-salary',
      status: 'draft',
      published_at: null,
    });
    expect(post.html).toContain('<strong>rent</strong>');
    expect(post.html).not.toContain('script');
    const tagNames = (post.tags as { name: string }[]).map((tag) => tag.name);
    expect(tagNames).toEqual(expect.arrayContaining(['First Jobs', 'Budgets']));
    // Credited to the site's owner: an integration has no profile of its own.
    expect((post.authors as unknown[]).length).toBe(1);

    const { rows: stored } = await t.database.pool.query<{ body: string; status: string }>(
      `SELECT "body", "status" FROM "posts" WHERE "slug" = 'budgeting-on-a-first-salary'`,
    );
    expect(stored[0]?.status).toBe('draft');
    expect(stored[0]?.body).toContain('Start with **rent** and savings.');
    expect(stored[0]?.body).toContain('## Then the rest');

    const published = await admin.posts.edit({
      id: post.id,
      updated_at: post.updated_at,
      status: 'published',
    });
    expect(published).toMatchObject({ id: post.id, status: 'published' });
    expect(published.published_at).toEqual(expect.any(String));

    const page = await fetch(String(published.url));
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('Budgeting on a first salary');
    expect(html).toContain('Everything else fits around them.');

    // The updated_at read before publishing is stale now.
    const stale = await ghostFailure(
      admin.posts.edit({ id: post.id, updated_at: post.updated_at, title: 'Lost edit' }),
    );
    expect(stale.name).toBe('UpdateCollisionError');
    const again = await admin.posts.read({ id: post.id });
    expect(again.title).toBe('Budgeting on a first salary');

    const { rows: audit } = await t.database.pool.query<{ action: string; actorEmail: string }>(
      `SELECT "action", "actorEmail" FROM "audit_log" WHERE "actorId" = $1 ORDER BY "id"`,
      [integrationId],
    );
    expect(audit.map((row) => row.action)).toEqual(
      expect.arrayContaining(['api_post_create', 'post_publish']),
    );
    expect(audit[0]?.actorEmail).toBe('Integration “iA Writer”');
  });

  it('takes Lexical and Mobiledoc bodies, and schedules a post for a time ahead', async () => {
    const lexical = await admin.posts.add({
      title: 'From Lexical',
      lexical: JSON.stringify({
        root: {
          children: [
            { type: 'paragraph', children: [{ type: 'text', text: 'Lexical words here.' }] },
            { type: 'markdown', markdown: '**Bold** from a card.' },
          ],
        },
      }),
    });
    expect(lexical.html).toContain('Lexical words here.');
    expect(lexical.html).toContain('<strong>Bold</strong>');
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const mobiledoc = await admin.posts.add({
      title: 'From Mobiledoc',
      status: 'scheduled',
      published_at: at,
      mobiledoc: JSON.stringify({
        version: '0.3.1',
        markups: [],
        atoms: [],
        cards: [['html', { html: '<p>An HTML card.</p>' }]],
        sections: [
          [1, 'p', [[0, [], 0, 'Mobiledoc words.']]],
          [10, 0],
        ],
      }),
    });
    expect(mobiledoc.status).toBe('scheduled');
    expect(mobiledoc.published_at).toBe(at);
    expect(mobiledoc.html).toContain('Mobiledoc words.');
    expect(mobiledoc.html).toContain('An HTML card.');
  });

  it('refuses a post without a title, and a body it cannot read, in Ghost’s words', async () => {
    const untitled = await ghostFailure(admin.posts.add({ html: '<p>x</p>' }, { source: 'html' }));
    expect(untitled.name).toBe('ValidationError');
    const broken = await ghostFailure(admin.posts.add({ title: 'Broken', lexical: '{not json' }));
    expect(broken.name).toBe('ValidationError');
    const { rows } = await t.database.pool.query(`SELECT 1 FROM "posts" WHERE "title" = 'Broken'`);
    expect(rows).toHaveLength(0);
  });

  it('browses posts and pages, adds a page, deletes a post (204), and lists tags', async () => {
    const page = await admin.pages.add(
      { title: 'Colophon', html: '<p>Set in type.</p>' },
      { source: 'html' },
    );
    expect(page).toMatchObject({ title: 'Colophon', status: 'draft' });
    const pages = await admin.pages.browse({ limit: 5 });
    expect(pages.map((item) => item.title)).toContain('Colophon');
    const posts = await admin.posts.browse({ limit: 2, filter: 'status:draft' });
    expect(posts.meta.pagination).toMatchObject({ page: 1, limit: 2 });
    expect(posts.every((item) => item.status === 'draft')).toBe(true);
    // The Content API's filter language, drafts included.
    const tagged = await admin.posts.browse({ filter: 'tag:first-jobs+status:published' });
    expect(tagged.map((item) => item.title)).toEqual(['Budgeting on a first salary']);
    const refused = await ghostFailure(admin.posts.browse({ filter: 'title:~budget' }));
    expect(refused.name).toBe('BadRequestError');

    const doomed = await admin.posts.add({ title: 'Short-lived' });
    await admin.posts.delete({ id: doomed.id });
    const gone = await ghostFailure(admin.posts.read({ id: doomed.id }));
    expect(gone.name).toBe('NotFoundError');

    const tags = await admin.tags.browse({ limit: 'all' });
    expect(tags.map((tag) => tag.name)).toContain('First Jobs');
  });

  it('uploads an image into the site’s uploads and answers its address with the ref', async () => {
    const file = join(folder, 'cover.png');
    await writeFile(
      file,
      await sharp({ create: { width: 640, height: 400, channels: 3, background: '#2a6f4f' } })
        .png()
        .toBuffer(),
    );
    const image = await admin.images.upload({ file, ref: 'cover.png' });
    expect(image.ref).toBe('cover.png');
    expect(String(image.url)).toMatch(new RegExp(`^${site}/uploads/`));
    const served = await fetch(String(image.url));
    expect(served.status).toBe(200);
    expect((await served.arrayBuffer()).byteLength).toBeGreaterThan(0);

    const post = await admin.posts.add({ title: 'With a cover', feature_image: image.url });
    expect(post.feature_image).toBe(image.url);
    const elsewhere = await ghostFailure(
      admin.posts.add({ title: 'Hotlinked', feature_image: 'https://elsewhere.example/x.png' }),
    );
    expect(elsewhere.name).toBe('ValidationError');
  });

  it('adds, finds and edits members with their labels and the consent they gave', async () => {
    const email = uniqueEmail('ghost-admin-member');
    // An integration syncing a list that agreed elsewhere says so: no confirmation mail.
    const added = await admin.members.add(
      {
        email,
        name: 'Rosa Parks',
        note: 'From the old list',
        labels: ['VIP', { name: 'Founders' }],
        newsletters: [{ id: 'weekly' }],
      },
      { send_email: false },
    );
    expect(added).toMatchObject({ email, name: 'Rosa Parks', subscribed: true, status: 'free' });
    expect((added.labels as { name: string }[]).map((label) => label.name)).toEqual([
      'VIP',
      'Founders',
    ]);
    const found = await admin.members.browse({ filter: `email:'${email}'` });
    expect(found.map((member) => member.id)).toEqual([added.id]);
    const edited = await admin.members.edit({ id: added.id, name: 'R. Parks', newsletters: [] });
    expect(edited).toMatchObject({ name: 'R. Parks', subscribed: false });
    const { rows } = await t.database.pool.query<{ state: string }>(
      `SELECT "state" FROM "newsletter_subscribers" WHERE "email" = $1`,
      [email],
    );
    expect(rows[0]?.state).toBe('unsubscribed');
    const twice = await ghostFailure(admin.members.add({ email }));
    expect(twice.name).toBe('ValidationError');
    const { rows: audit } = await t.database.pool.query<{ action: string }>(
      `SELECT "action" FROM "audit_log" WHERE "targetUserId" = $1 ORDER BY "id"`,
      [added.id],
    );
    expect(audit.map((row) => row.action)).toEqual(['api_member_add', 'api_member_change']);
  });
});

describe('who the Admin API lets in', () => {
  it('refuses a wrong secret, a token living too long, a missing token and a content key with 401', async () => {
    const [keyId = ''] = adminKey.split(':');
    const wrong = await ghostFailure(client(`${keyId}:${'0'.repeat(64)}`).posts.browse());
    expect(wrong).toMatchObject({ name: 'UnauthorizedError', code: 'INVALID_JWT' });

    const secret = adminKey.split(':')[1] ?? '';
    const long = await rawGet(
      '/ghost/api/admin/posts/',
      `Ghost ${await token(keyId, secret, { lifeS: 3600 })}`,
    );
    expect(long.status).toBe(401);
    expect(long.body.errors?.[0]?.type).toBe('UnauthorizedError');
    const otherAudience = await rawGet(
      '/ghost/api/admin/posts/',
      `Ghost ${await token(keyId, secret, { aud: '/content/' })}`,
    );
    expect(otherAudience.status).toBe(401);
    const fine = await rawGet(
      '/ghost/api/admin/posts/',
      `Ghost ${await token(keyId, secret, { aud: 'admin' })}`,
    );
    expect(fine.status).toBe(200);

    expect((await rawGet('/ghost/api/admin/posts/')).status).toBe(401);
    expect((await rawGet(`/ghost/api/admin/posts/?key=${contentKey}`)).status).toBe(401);
    // A content key's own row, named as a token's kid and signed with the key itself.
    const { rows } = await t.database.pool.query<{ id: string }>(
      `SELECT "id" FROM "api_keys" WHERE "kind" = 'content' AND "integrationId" = $1`,
      [integrationId],
    );
    const asKid = await rawGet(
      '/ghost/api/admin/posts/',
      `Ghost ${await token(rows[0]?.id ?? '', contentKey.padEnd(64, '0'))}`,
    );
    expect(asKid.status).toBe(401);
  });

  it('stops a deleted integration’s key at once', async () => {
    const doomed = await makeIntegration('Soon gone');
    const api = client(doomed.adminKey);
    expect(await api.posts.browse({ limit: 1 })).toBeDefined();
    expect((await desk(owner, 'DELETE', `/api/desk/integrations/${doomed.id}`)).status).toBe(204);
    const refused = await ghostFailure(api.posts.browse({ limit: 1 }));
    expect(refused.name).toBe('UnauthorizedError');
  });

  it('gives a staff access token its owner’s role: a writer’s drafts, never a publish', async () => {
    const made = await desk(writer, 'POST', '/api/desk/profile/token');
    expect(made.status).toBe(201);
    const writerToken = String(made.body.token);
    expect(writerToken).toMatch(/^[0-9a-f]{24}:[0-9a-f]{64}$/);
    const shown = await desk(writer, 'GET', '/api/desk/profile/token');
    expect(shown.body).toMatchObject({ keyId: writerToken.split(':')[0] });
    expect(JSON.stringify(shown.body)).not.toContain(writerToken.split(':')[1]);

    const api = client(writerToken);
    const draft = await api.posts.add({ title: 'A writer’s draft' });
    expect(draft.status).toBe('draft');
    const refused = await ghostFailure(
      api.posts.edit({ id: draft.id, updated_at: draft.updated_at, status: 'published' }),
    );
    expect(refused.name).toBe('NoPermissionError');
    expect((await api.posts.read({ id: draft.id })).status).toBe('draft');

    // Made again: the first token stops.
    const second = await desk(writer, 'POST', '/api/desk/profile/token');
    expect(second.status).toBe(201);
    expect((await ghostFailure(api.posts.browse())).name).toBe('UnauthorizedError');
    expect(await client(String(second.body.token)).posts.browse({ limit: 1 })).toBeDefined();

    // The same site started again without the writer in WRITER_EMAILS: the token stops.
    const [keyId = '', secret = ''] = String(second.body.token).split(':');
    const authorization = `Ghost ${await token(keyId, secret)}`;
    const restarted = await withSite({
      sharedDatabase: t.testDatabase,
      env: { SITE_URL: site, STAFF_EMAILS: OWNER },
    });
    try {
      const refused = await restarted.app.inject({
        url: '/ghost/api/admin/posts/',
        headers: { authorization },
      });
      expect(refused.statusCode).toBe(401);
      expect(refused.json().errors[0].message).toContain('no longer staff');
    } finally {
      await restarted.close();
    }
    const stillStaff = await t.app.inject({
      url: '/ghost/api/admin/posts/',
      headers: { authorization },
    });
    expect(stillStaff.statusCode).toBe(200);
  });
});

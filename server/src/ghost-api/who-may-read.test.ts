import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GhostContentAPI, type GhostContentApi } from '#test/ghost-content-client';
import {
  GhostAdminAPI,
  ghostAuthorization,
  ghostFailure,
  type GhostAdminApi,
} from '#test/ghost-admin-client';
import {
  buildIntegration,
  buildPost,
  buildStaff,
  buildTier,
  type BuiltIntegration,
  type BuiltTier,
  type Member,
} from '#test/factories';
import { withSite, type Site } from '#test/with-site';

// Who may read a post, in Ghost's words, through Ghost's own clients on a real port: Ghost's
// `members` are the site's `registered` (anyone signed up), its `paid` the site's `members`, its
// `tiers` the site's tiers. The Content API (a key, no member) gives a restricted post's text only
// up to the divider and names its tiers; `tiers/` lists the tiers readers are offered; the Admin
// API writes each word as the site's visibility and lists every tier; a webhook's post carries
// its visibility and tiers and no word past the divider.

const OWNER = 'who-may-read-owner@example.com';
const OPENING = 'Everyone reads this opening.';
const FOUNDER_SECRET = 'Founders alone read the printer’s quote.';
const SIGNED_IN_SECRET = 'Signed-in readers see the meeting room.';
const PAID_SECRET = 'Paying members see the budget line.';

const restrictedBody = (secret: string) => `${OPENING}\n\n<!-- members-only -->\n\n${secret}\n`;

interface GhostPostRead {
  slug: string;
  visibility: string;
  access: boolean;
  html: string;
  plaintext: string;
  excerpt: string;
  tiers?: { slug: string; name: string; type: string }[];
}

let t: Site;
let owner: Member;
let founder: BuiltTier;
let patron: BuiltTier;
let integration: BuiltIntegration;
let content: GhostContentApi;
let admin: GhostAdminApi;

beforeAll(async () => {
  t = await withSite({
    listen: true,
    payments: true,
    env: { STAFF_EMAILS: OWNER, WEBHOOKS_ALLOW_PRIVATE: 'on' },
  });
  [owner] = await buildStaff(t, 'owner');
  founder = await buildTier(t, { slug: 'founder', name: 'Founder', cents: 12_000 });
  await t.database.pool.query(
    `UPDATE tiers SET description = 'For those who started it.',
            benefits = '{Your name in the credits,A printed annual}' WHERE id = $1`,
    [founder.id],
  );
  patron = await buildTier(t, { slug: 'patron', name: 'Patron', visible: false });
  t.app.plans.changed();
  await buildPost(t, {
    slug: 'founders-letter',
    title: 'A letter to founders',
    visibility: 'tiers',
    tiers: ['founder'],
    body: restrictedBody(FOUNDER_SECRET),
    by: owner,
  });
  await buildPost(t, {
    slug: 'signed-in-notes',
    title: 'Notes for signed-in readers',
    visibility: 'registered',
    body: restrictedBody(SIGNED_IN_SECRET),
    by: owner,
  });
  await buildPost(t, {
    slug: 'paid-figures',
    title: 'The figures, for members',
    visibility: 'members',
    body: restrictedBody(PAID_SECRET),
    by: owner,
  });
  integration = await buildIntegration(t, { name: 'Front end', by: owner });
  content = GhostContentAPI({ url: t.url, key: integration.contentKey, version: 'v5.0' });
  admin = GhostAdminAPI({ url: t.url, key: integration.adminKey, version: 'v5.0' });
});

afterAll(async () => {
  await t?.close();
});

describe('the Content API, read with a key (no member)', () => {
  const read = async (slug: string) =>
    (await content.posts.read(
      { slug },
      { include: 'tiers', formats: 'html,plaintext' },
    )) as unknown as GhostPostRead;

  it('gives a founders’ post up to the divider alone, as Ghost’s `tiers` with the founder tier', async () => {
    const post = await read('founders-letter');
    expect(post).toMatchObject({ visibility: 'tiers', access: false });
    expect(post.tiers?.map(({ slug, name, type }) => ({ slug, name, type }))).toEqual([
      { slug: 'founder', name: 'Founder', type: 'paid' },
    ]);
    expect(post.html).toContain(OPENING);
    for (const text of [post.html, post.plaintext, post.excerpt]) {
      expect(text).not.toContain('printer');
    }
  });

  it('says Ghost’s `members` of a post for anyone signed up, and `paid` of one for paying members', async () => {
    const signedIn = await read('signed-in-notes');
    expect(signedIn).toMatchObject({ visibility: 'members', access: false });
    expect(signedIn.tiers?.map((tier) => tier.slug)).toEqual([
      'free',
      'supporter',
      'founder',
      'patron',
    ]);
    const paid = await read('paid-figures');
    expect(paid).toMatchObject({ visibility: 'paid', access: false });
    expect(paid.tiers?.map((tier) => tier.slug)).toEqual(['supporter', 'founder', 'patron']);

    const slugs = async (filter: string) =>
      (await content.posts.browse({ filter, limit: 'all' })).map((post) => post.slug);
    expect(await slugs('visibility:tiers')).toEqual(['founders-letter']);
    expect(await slugs('visibility:members')).toEqual(['signed-in-notes']);
    expect(await slugs('visibility:paid')).toEqual(['paid-figures']);

    const everything = JSON.stringify(
      await content.posts.browse({ limit: 'all', formats: 'html,plaintext', include: 'tiers' }),
    );
    for (const secret of [FOUNDER_SECRET, SIGNED_IN_SECRET, PAID_SECRET]) {
      expect(everything).not.toContain(secret.slice(0, 20));
    }
  });

  it('lists the tiers readers are offered, free first, with their words and prices', async () => {
    const tiers = await content.tiers.browse();
    expect(tiers.map((tier) => tier.slug)).toEqual(['free', 'supporter', 'founder']);
    expect(tiers.find((tier) => tier.slug === 'founder')).toMatchObject({
      name: 'Founder',
      description: 'For those who started it.',
      benefits: ['Your name in the credits', 'A printed annual'],
      monthly_price: 1_200,
      yearly_price: 12_000,
      currency: t.config.membership.currency.toUpperCase(),
      type: 'paid',
      visibility: 'public',
      active: true,
    });
    const paid = await content.tiers.browse({ filter: 'type:paid' });
    expect(paid.map((tier) => tier.slug)).toEqual(['supporter', 'founder']);
  });
});

describe('the Admin API', () => {
  const stored = async (id: string) => {
    const { rows } = await t.database.pool.query<{ visibility: string; tierIds: number[] }>(
      `SELECT visibility, "tierIds" FROM posts WHERE slug = $1`,
      [id],
    );
    return rows[0];
  };

  it('writes Ghost’s `paid` as members, `members` as registered and `tiers` as the tiers named', async () => {
    const add = (slug: string, fields: Record<string, unknown>) =>
      admin.posts.add(
        { title: `Post ${slug}`, slug, html: `<p>${OPENING}</p>`, ...fields },
        { source: 'html' },
      );
    const paid = await add('admin-paid', { visibility: 'paid' });
    const signedUp = await add('admin-members', { visibility: 'members' });
    const tiered = await add('admin-tiers', { visibility: 'tiers', tiers: [{ slug: 'founder' }] });
    expect(await stored('admin-paid')).toEqual({ visibility: 'members', tierIds: [] });
    expect(await stored('admin-members')).toEqual({ visibility: 'registered', tierIds: [] });
    expect(await stored('admin-tiers')).toEqual({ visibility: 'tiers', tierIds: [founder.id] });
    expect([paid.visibility, signedUp.visibility, tiered.visibility]).toEqual([
      'paid',
      'members',
      'tiers',
    ]);
    expect((tiered.tiers as { slug: string }[]).map((tier) => tier.slug)).toEqual(['founder']);

    // A change names the tiers by the ids the Admin API lists them with.
    const patronId = await tierIdOf('patron');
    const moved = await admin.posts.edit({
      id: tiered.id,
      updated_at: tiered.updated_at,
      tiers: [{ id: patronId }, { slug: 'founder' }],
    });
    expect(await stored('admin-tiers')).toEqual({
      visibility: 'tiers',
      tierIds: [founder.id, patron.id],
    });
    const opened = await admin.posts.edit({
      id: moved.id,
      updated_at: moved.updated_at,
      visibility: 'public',
      tiers: moved.tiers,
    });
    expect(opened.visibility).toBe('public');
    expect(await stored('admin-tiers')).toEqual({ visibility: 'public', tierIds: [] });
  });

  it('refuses a tier the site does not have, or `tiers` naming none, in Ghost’s words, and makes nothing', async () => {
    const before = await t.database.pool.query('SELECT count(*)::int AS n FROM posts');
    const unknown = await ghostFailure(
      admin.posts.add({ title: 'Nobody’s tier', visibility: 'tiers', tiers: [{ slug: 'gold' }] }),
    );
    expect(unknown.name).toBe('ValidationError');
    expect(unknown.message).toContain('"gold"');
    const none = await ghostFailure(
      admin.posts.add({ title: 'No tier named', visibility: 'tiers', tiers: [] }),
    );
    expect(none.name).toBe('ValidationError');
    const after = await t.database.pool.query('SELECT count(*)::int AS n FROM posts');
    expect(after.rows).toEqual(before.rows);
  });

  it('lists every tier at tiers/, those readers are not offered too', async () => {
    const listed = await adminTiers();
    expect(listed.map((tier) => [tier.slug, tier.type, tier.visibility])).toEqual([
      ['free', 'free', 'public'],
      ['supporter', 'paid', 'public'],
      ['founder', 'paid', 'public'],
      ['patron', 'paid', 'none'],
    ]);
  });
});

describe('a webhook about a founders’ post', () => {
  let receiver: Server;
  const bodies: string[] = [];

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/desk/integrations/${integration.id}/webhooks`,
      headers: { cookie: owner.cookie },
      payload: { event: 'post.published', targetUrl: `http://127.0.0.1:${address.port}/hook` },
    });
    expect(added.statusCode, added.body).toBe(201);
  });

  afterAll(async () => {
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('carries its visibility and tiers, and no word past the divider', async () => {
    const draft = await admin.posts.add(
      {
        title: 'Founders’ minutes',
        slug: 'founders-minutes',
        visibility: 'tiers',
        tiers: [{ slug: 'founder' }],
        html: `<p>${OPENING}</p><!--members-only--><p>${FOUNDER_SECRET}</p>`,
      },
      { source: 'html' },
    );
    await admin.posts.edit({ id: draft.id, updated_at: draft.updated_at, status: 'published' });
    const body = await arrival((text) => text.includes('founders-minutes'));
    const { post } = JSON.parse(body) as {
      post: { current: { visibility: string; html: string; tiers: { slug: string }[] } };
    };
    expect(post.current.visibility).toBe('tiers');
    expect(post.current.tiers.map((tier) => tier.slug)).toEqual(['founder']);
    expect(post.current.html).toContain(OPENING);
    expect(body).not.toContain('printer');
  });

  /** The first delivery that `matches`, or a failure after 20 s. */
  async function arrival(matches: (body: string) => boolean): Promise<string> {
    for (let waited = 0; waited < 20_000; waited += 100) {
      const found = bodies.find(matches);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no matching webhook arrived (${bodies.length} did)`);
  }
});

interface AdminTier {
  id: string;
  slug: string;
  type: string;
  visibility: string;
}

/** `GET /ghost/api/admin/tiers/` as Ghost's clients sign it (Ghost's admin client has no tiers). */
async function adminTiers(): Promise<AdminTier[]> {
  const response = await fetch(`${t.url}/ghost/api/admin/tiers/`, {
    headers: {
      'accept-version': 'v5.0',
      authorization: await ghostAuthorization(integration.adminKey),
    },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { tiers: AdminTier[] }).tiers;
}

const tierIdOf = async (slug: string) =>
  (await adminTiers()).find((tier) => tier.slug === slug)?.id ?? expect.fail(`no tier ${slug}`);

import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#test/site';
import { buildMember, buildStaff, buildTier, type Member } from '#test/factories';
import { withSite, type Site } from '#test/with-site';
import { splitAtDivider } from '../../../contract/posts.js';
import { htmlOfMarkdown } from './ghost-html.js';
import { plainTextOf } from '../content/markdown-text.js';
import { importIntoSite } from '#test/card-readings';

// Leaving as a Ghost export: a site with posts (published, for paying members, for anyone signed
// up, for founders, scheduled, a draft, a deleted one), a page, topics, tiers, staff and members
// (a name, a note, labels, a Stripe customer, a comp, newsletter consent, a tier), downloaded from
// the desk; what Ghost's importer needs is in it, and the file imported into a fresh site
// (`runImport`, source ghost) gives back the same posts, who may read them, tiers and members.

const OWNER = 'owner@example.com';

interface GhostExport {
  db: {
    meta: { exported_on: number; version: string };
    data: {
      posts: Record<string, unknown>[];
      posts_meta: Record<string, unknown>[];
      tags: { id: string; name: string; slug: string }[];
      posts_tags: { post_id: string; tag_id: string; sort_order: number }[];
      users: { id: string; name: string; email: string; slug: string }[];
      posts_authors: { post_id: string; author_id: string }[];
      members: Record<string, unknown>[];
      products: Record<string, unknown>[];
      benefits: { id: string; name: string; slug: string }[];
      products_benefits: { product_id: string; benefit_id: string; sort_order: number }[];
      posts_products: { post_id: string; product_id: string; sort_order: number }[];
      members_products: { member_id: string; product_id: string; expiry_at: string | null }[];
      labels: { id: string; name: string }[];
      members_labels: { member_id: string; label_id: string }[];
      members_stripe_customers: { member_id: string; customer_id: string }[];
    };
  }[];
}

const ARTICLE = {
  kind: 'article',
  category: 'Wealth',
  readingMinutes: 3,
};

const bodies = (image: string) => ({
  open: [
    'Forty flats wrote **one** letter to the landlord.',
    '',
    '## What we asked',
    '',
    '| Ask | When |',
    '| --- | --- |',
    '| Repairs | a month |',
    '',
    'Read [the letter](/health/the-letter) and the note.[^1]',
    '',
    `![The block at dusk](${image})`,
    '',
    '[^1]: Signed by every floor.',
    '',
  ].join('\n'),
  members: [
    'Everyone reads this part.',
    '',
    '<!-- members-only -->',
    '',
    'Members read the figures: ~~£900~~ £850 a month.',
    '',
  ].join('\n'),
});

describe('the Ghost export', () => {
  let t: Site;
  let owner: Member;
  let exported: GhostExport;
  let raw: string;
  let folder: string;
  let comped: Member;
  let labelled: Member;
  /** The site's own address (a real port: the fresh site fetches its images from it). */
  let site = '';
  let uploadedImage = '';
  const compUntil = new Date(Date.now() + 90 * 24 * 3600 * 1000).toISOString().slice(0, 10);

  const call = (who: Member, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { cookie: who.cookie },
      ...(payload !== undefined && { payload }),
    });

  async function post(fields: object, publish?: { at?: string }) {
    const created = await call(owner, 'POST', '/api/desk/posts', fields);
    expect(created.statusCode, created.body).toBe(201);
    const { post: made } = created.json();
    if (!publish) return made;
    const done = await call(owner, 'POST', `/api/desk/posts/${made.id}/publish`, {
      version: made.version,
      ...publish,
    });
    expect(done.statusCode, done.body).toBe(200);
    return done.json().post;
  }

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'cohort-ghost-export-test-'));
    const port = await freePort();
    site = `http://127.0.0.1:${port}`;
    t = await withSite({
      env: { SITE_URL: site, STAFF_EMAILS: OWNER, UPLOADS_DIR: join(folder, 'uploads') },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    [owner] = await buildStaff(t, 'owner');
    const founder = await buildTier(t, { slug: 'founder', name: 'Founder', cents: 9_000 });
    await t.database.pool.query(
      `UPDATE tiers SET description = 'Those who started the association.',
              benefits = '{Your name on the banner,A seat at the table}' WHERE id = $1`,
      [founder.id],
    );
    const form = new FormData();
    const png = await sharp({
      create: { width: 300, height: 200, channels: 3, background: '#336699' },
    })
      .png()
      .toBuffer();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'block.png');
    const uploaded = await fetch(`${site}/api/desk/uploads`, {
      method: 'POST',
      headers: { cookie: owner.cookie },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    uploadedImage = ((await uploaded.json()) as { image: { url: string } }).image.url;
    const BODIES = bodies(uploadedImage);
    await t.database.pool.query(`UPDATE users SET name = 'Olive Owner' WHERE id = $1`, [
      owner.userId,
    ]);

    await post(
      {
        ...ARTICLE,
        slug: 'tenants-organise',
        title: 'Tenants Organise the Block',
        summary: 'How forty households wrote one letter.',
        tags: ['Housing', 'Rent strikes'],
        body: BODIES.open,
        featureImage: uploadedImage,
        featureImageAlt: 'The block at dusk',
        seoTitle: 'Tenants organise',
      },
      {},
    );
    await post(
      {
        ...ARTICLE,
        slug: 'rent-ledger',
        title: 'The Rent Ledger, Explained',
        summary: 'Where the money goes.',
        tags: ['Housing'],
        visibility: 'members',
        body: BODIES.members,
      },
      {},
    );
    await post(
      {
        ...ARTICLE,
        slug: 'founders-letter',
        title: 'A Letter to the Founders',
        summary: 'What the founders asked for.',
        visibility: 'tiers',
        tiers: ['founder'],
        body: BODIES.members,
      },
      {},
    );
    await post(
      {
        ...ARTICLE,
        slug: 'signed-in-notes',
        title: 'Notes for Neighbours',
        summary: 'For anyone signed in.',
        visibility: 'registered',
        body: BODIES.members,
      },
      {},
    );
    await post(
      {
        ...ARTICLE,
        slug: 'next-meeting',
        title: 'The Next Meeting',
        summary: 'Thursday, in the hall.',
        body: 'Bring a chair.\n',
      },
      { at: new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString() },
    );
    await post({
      ...ARTICLE,
      slug: 'half-written',
      title: 'Half Written',
      summary: 'A draft.',
      body: 'Not yet.\n',
    });
    const gone = await post({
      ...ARTICLE,
      slug: 'deleted-one',
      title: 'Deleted One',
      summary: 'Gone.',
      body: 'Gone.\n',
    });
    const deleted = await call(owner, 'DELETE', `/api/desk/posts/${gone.id}`);
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    await post(
      {
        kind: 'page',
        slug: 'about-the-association',
        title: 'About the Association',
        description: 'Who we are.',
        body: 'We are the tenants of Elm Court.\n',
      },
      {},
    );

    comped = await buildMember(t, { email: 'comped@example.com' });
    const comp = await call(owner, 'POST', `/api/desk/members/${comped.userId}/comps`, {
      until: compUntil,
      reason: 'Helped with the letter',
    });
    expect(comp.statusCode, comp.body).toBe(200);
    labelled = await buildMember(t, { email: 'labelled@example.com', tier: 'founder' });
    await t.database.pool.query(
      `UPDATE users SET name = 'Sam Neighbour', note = 'Flat 12', labels = '{Elm Court,Volunteer}' WHERE id = $1`,
      [labelled.userId],
    );
    await t.database.pool.query(
      `INSERT INTO stripe_customers (id, "userId") VALUES ('cus_leaving1', $1)`,
      [labelled.userId],
    );
    await t.database.pool.query(
      `INSERT INTO newsletter_subscribers (id, email, "userId", state, "confirmedAt", "updatedAt")
       VALUES ($1, $2, $3, 'confirmed', now(), now())`,
      [randomUUID(), 'labelled@example.com', labelled.userId],
    );

    const response = await call(owner, 'GET', '/api/desk/exports/ghost?format=json');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="127\.0\.0\.1-ghost-export-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    raw = response.body;
    exported = JSON.parse(raw) as GhostExport;
  });
  afterAll(async () => {
    await t?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  const data = () => exported.db[0]?.data ?? expect.fail('no db[0]');
  const postNamed = (slug: string) =>
    data().posts.find((each) => each.slug === slug) ?? expect.fail(`no post ${slug}`);

  it('has what Ghost’s importer requires: db[0].meta.version, the posts with their fields, and users (the owner at least)', () => {
    expect(exported.db).toHaveLength(1);
    expect(exported.db[0]?.meta).toEqual({ exported_on: expect.any(Number), version: '5.x' });
    const { posts, users } = data();
    expect(posts.map((each) => each.slug).sort()).toEqual([
      'about-the-association',
      'founders-letter',
      'half-written',
      'next-meeting',
      'rent-ledger',
      'signed-in-notes',
      'tenants-organise',
    ]);
    for (const each of posts) {
      expect(Object.keys(each)).toEqual(
        expect.arrayContaining([
          'id',
          'uuid',
          'title',
          'slug',
          'html',
          'lexical',
          'status',
          'visibility',
          'published_at',
          'created_at',
          'updated_at',
          'custom_excerpt',
          'feature_image',
          'type',
        ]),
      );
      expect(each.id).toMatch(/^[0-9a-f]{24}$/);
      expect(each.uuid).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      // Ghost 5's editor document: one HTML card holding the same HTML.
      expect(JSON.parse(String(each.lexical))).toEqual({
        root: {
          children: [{ type: 'html', version: 1, html: each.html }],
          direction: null,
          format: '',
          indent: 0,
          type: 'root',
          version: 1,
        },
      });
    }
    expect(users).toEqual([
      expect.objectContaining({ name: 'Olive Owner', email: OWNER, slug: 'olive-owner' }),
    ]);
    expect(data().posts_authors.every((link) => link.author_id === users[0]?.id)).toBe(true);
  });

  it('writes each post’s status, type, visibility, dates, excerpt, feature image and HTML as Ghost has them', () => {
    const open = postNamed('tenants-organise');
    expect(open).toMatchObject({
      title: 'Tenants Organise the Block',
      type: 'post',
      status: 'published',
      visibility: 'public',
      custom_excerpt: 'How forty households wrote one letter.',
      feature_image: `${site}${uploadedImage}`,
      meta_title: 'Tenants organise',
    });
    expect(open.published_at).toEqual(expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/));
    const html = String(open.html);
    expect(html).toContain('<strong>one</strong>');
    expect(html).toContain('<h2>What we asked</h2>');
    expect(html).toContain('<table>');
    expect(html).toContain(`<a href="${site}/health/the-letter">the letter</a>`);
    expect(html).toContain(
      `<figure class="kg-card kg-image-card"><img src="${site}${uploadedImage}" class="kg-image" alt="The block at dusk"></figure>`,
    );
    expect(html).toContain('Signed by every floor.');

    const members = postNamed('rent-ledger');
    expect(members).toMatchObject({ visibility: 'paid', status: 'published' });
    // The whole text, at Ghost's divider: this is the owner's own export.
    expect(String(members.html)).toMatch(
      /<p>Everyone reads this part.<\/p>\s*<!--members-only-->\s*<p>Members read the figures: <del>£900<\/del> £850 a month.<\/p>/,
    );
    expect(postNamed('next-meeting')).toMatchObject({ status: 'scheduled' });
    expect(Date.parse(String(postNamed('next-meeting').published_at))).toBeGreaterThan(Date.now());
    expect(postNamed('half-written')).toMatchObject({ status: 'draft', published_at: null });
    expect(postNamed('about-the-association')).toMatchObject({
      type: 'page',
      custom_excerpt: 'Who we are.',
    });
    expect(raw).not.toContain('deleted-one');
  });

  it('writes the section and topics as tags in each post’s order, and the members with their labels, Stripe customers, comps and consent', () => {
    const { tags, posts_tags, members, labels, members_labels, members_stripe_customers } = data();
    // Each post's section is its primary tag, its topics the others.
    expect(tags.map((tag) => [tag.name, tag.slug]).sort()).toEqual([
      ['Housing', 'housing'],
      ['Rent strikes', 'rent-strikes'],
      ['Wealth', 'wealth'],
    ]);
    const open = postNamed('tenants-organise');
    const tagName = (id: string) => tags.find((tag) => tag.id === id)?.name;
    expect(
      posts_tags
        .filter((link) => link.post_id === open.id)
        .sort((a, b) => a.sort_order - b.sort_order)
        .map((link) => tagName(link.tag_id)),
    ).toEqual(['Wealth', 'Housing', 'Rent strikes']);

    const member = (email: string) =>
      members.find((each) => each.email === email) ?? expect.fail(`no member ${email}`);
    // Through the last day given: the ledger's end is the next midnight.
    expect(member('comped@example.com')).toMatchObject({
      status: 'comped',
      subscribed: false,
      comped_until: new Date(Date.parse(`${compUntil}T00:00:00Z`) + 24 * 3600 * 1000).toISOString(),
    });
    const sam = member('labelled@example.com');
    expect(sam).toMatchObject({
      name: 'Sam Neighbour',
      note: 'Flat 12',
      subscribed: true,
      comped_until: null,
    });
    // A year paid once with a Stripe customer: paid.
    expect(sam.status).toBe('paid');
    expect(member(OWNER)).toMatchObject({ status: 'free', subscribed: false });
    const labelName = (id: string) => labels.find((label) => label.id === id)?.name;
    expect(
      members_labels
        .filter((link) => link.member_id === sam.id)
        .map((link) => labelName(link.label_id)),
    ).toEqual(['Elm Court', 'Volunteer']);
    expect(members_stripe_customers).toEqual([
      expect.objectContaining({ member_id: sam.id, customer_id: 'cus_leaving1' }),
    ]);
  });

  it('writes who may read each post in Ghost’s words, and the tiers as Ghost’s products with their benefits, posts and members', () => {
    const visibility = (slug: string) => postNamed(slug).visibility;
    expect(
      ['tenants-organise', 'signed-in-notes', 'rent-ledger', 'founders-letter'].map(visibility),
    ).toEqual(['public', 'members', 'paid', 'tiers']);
    const { products, benefits, products_benefits, posts_products, members_products } = data();
    expect(products.map((each) => [each.slug, each.type, each.visibility])).toEqual([
      ['free', 'free', 'public'],
      ['supporter', 'paid', 'public'],
      ['founder', 'paid', 'public'],
    ]);
    const founder = products.find((each) => each.slug === 'founder') ?? expect.fail('no founder');
    expect(founder).toMatchObject({
      name: 'Founder',
      description: 'Those who started the association.',
      active: true,
      monthly_price: 900,
      yearly_price: 9_000,
      currency: expect.stringMatching(/^[A-Z]{3}$/),
    });
    const benefitName = (id: string) => benefits.find((each) => each.id === id)?.name;
    expect(
      products_benefits
        .filter((link) => link.product_id === founder.id)
        .sort((a, b) => a.sort_order - b.sort_order)
        .map((link) => benefitName(link.benefit_id)),
    ).toEqual(['Your name on the banner', 'A seat at the table']);
    expect(posts_products).toEqual([
      expect.objectContaining({
        post_id: postNamed('founders-letter').id,
        product_id: founder.id,
        sort_order: 0,
      }),
    ]);
    const memberId = (email: string) => data().members.find((each) => each.email === email)?.id;
    const supporter = products.find((each) => each.slug === 'supporter');
    expect(members_products).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          member_id: memberId('labelled@example.com'),
          product_id: founder.id,
          expiry_at: null,
        }),
        expect.objectContaining({
          member_id: memberId('comped@example.com'),
          product_id: supporter?.id,
        }),
      ]),
    );
    expect(members_products).toHaveLength(2);
  });

  it('audits the download with what it held', async () => {
    const { rows } = await t.database.pool.query(
      `SELECT "actorEmail", after FROM audit_log WHERE action = 'ghost_export'`,
    );
    expect(rows).toEqual([{ actorEmail: OWNER, after: { posts: 6, pages: 1, members: 3 } }]);
  });

  it('turns a body’s raw HTML into nothing but Ghost’s divider', () => {
    expect(
      htmlOfMarkdown('Hi <script>alert(1)</script> there\n\n<div onclick="x()">boo</div>\n', site),
    ).toBe('<p>Hi alert(1) there</p>');
  });

  it('imported into a fresh site, gives back the same posts, pages, topics and members', async () => {
    const file = join(folder, 'export.json');
    await writeFile(file, raw);
    const fresh = await withSite({
      env: { SITE_URL: 'https://arriving.example.org', UPLOADS_DIR: join(folder, 'fresh-uploads') },
    });
    try {
      const report = await importIntoSite(fresh, file);
      expect(report.posts.created).toBe(6);
      expect(report.pages.created).toBe(1);
      expect(report.members.created).toBe(3);
      expect(report.images).toEqual({
        stored: 1,
        notFetched: [],
        missing: { count: 0, posts: [] },
      });
      expect(report.topics).toBe(2);

      const read = async (pool: Site['database']['pool']) =>
        (
          await pool.query<{
            kind: string;
            slug: string;
            title: string;
            status: string;
            visibility: string;
            tiers: string[];
            body: string;
            tags: string[] | null;
          }>(
            `SELECT kind, slug, title, status, visibility, body, fields->'tags' AS tags,
                    ARRAY(SELECT t.slug FROM tiers t WHERE t.id = ANY(posts."tierIds")) AS tiers
             FROM posts WHERE "deletedAt" IS NULL ORDER BY slug`,
          )
        ).rows.map((row) => ({
          kind: row.kind,
          slug: row.slug,
          title: row.title,
          status: row.status,
          visibility: row.visibility,
          tiers: row.tiers,
          tags: row.tags ?? [],
          text: plainTextOf(row.body),
          hasDivider: splitAtDivider(row.body).after !== null,
        }));
      expect(await read(fresh.database.pool)).toEqual(await read(t.database.pool));

      const tiers = async (pool: Site['database']['pool']) =>
        (
          await pool.query(
            `SELECT t.slug, t.name, t.description, t.benefits, t.visible,
                    ARRAY(SELECT p.id || ' ' || p."amountCents" FROM plans p
                           WHERE p."tierId" = t.id AND p.enabled AND p.id IN ('monthly', 'yearly')
                           ORDER BY p.id) AS prices
             FROM tiers t ORDER BY t.slug`,
          )
        ).rows;
      expect(await tiers(fresh.database.pool)).toEqual(await tiers(t.database.pool));

      const people = async (pool: Site['database']['pool']) =>
        (
          await pool.query<{
            email: string;
            name: string | null;
            note: string | null;
            labels: string[];
          }>(`SELECT email, name, note, labels FROM users WHERE email IS NOT NULL ORDER BY email`)
        ).rows;
      expect(await people(fresh.database.pool)).toEqual(await people(t.database.pool));

      const compEnd = async (pool: Site['database']['pool']) =>
        (
          await pool.query<{ periodEnd: Date }>(
            `SELECT e."periodEnd" FROM entitlements e JOIN users u ON u.id = e."userId"
             WHERE u.email = 'comped@example.com' AND e.source = 'comp' AND e.state = 'active'`,
          )
        ).rows.map((row) => row.periodEnd.toISOString());
      expect(await compEnd(fresh.database.pool)).toEqual(await compEnd(t.database.pool));
    } finally {
      await fresh.close();
    }
  });
});

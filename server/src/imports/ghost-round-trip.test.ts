import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importIntoSite } from '#test/card-readings';
import { buildComment, buildMember, buildPost, buildStaff, type Member } from '#test/factories';
import { runCommand } from '#test/run-command';
import { withSite, type Site } from '#test/with-site';
import { parseUploadUrl } from '../../../contract/images.js';
import { main as exportMain } from '../cli/export.js';
import { storeImportedComment } from '../comments/imported-comments.js';
import { withTransaction } from '../db/transaction.js';
import { storeImage } from '../uploads/store-image.js';
import type { ImageStore } from '../uploads/image-store.js';
import { archiveLimits, openExport } from './archive.js';
import { readGhostJson } from './ghost.js';
import { runImport } from './run-import.js';

// Arrive whole, leave whole: a site imports the Ghost v4 sample (its posts mapped to a section of
// its own), members from Ghost's and Substack's lists, and gets a captioned image, a campaign, a
// boycott, a resource list, an edited policy page and comments (a member's thread and a guest's).
// Exported as a zip from the desk and imported into a fresh site, everything comes back: the same
// posts in the same sections and kinds, the caption, the image served by the new site, the pages,
// the comments, and every subscriber subscribed (the desk's filter lists them).

const fixtures = fileURLToPath(new URL('../../../tests/fixtures/imports/', import.meta.url));
const OWNER = 'owner@example.com';

interface PostRow {
  kind: string;
  slug: string;
  title: string;
  status: string;
  category: string | null;
  tags: string[] | null;
  fields: Record<string, unknown>;
  body: string;
}

/** Every post, by kind and slug, with what a reader sees of it (uploads' ids set aside). */
async function postsOf(site: Site) {
  const { rows } = await site.database.pool.query<PostRow>(
    `SELECT "kind", "slug", "title", "status", "fields"->>'category' AS category,
        "fields"->'tags' AS tags, "fields", "body"
      FROM "posts" WHERE "deletedAt" IS NULL ORDER BY "kind", "slug"`,
  );
  return rows.map((row) => ({
    ...row,
    // An upload's address names its bytes, which the new site encodes again.
    body: row.body.replace(/\/uploads\/[a-z0-9]{20}-/g, '/uploads/…-').trim(),
    fields: { ...row.fields, updatedAt: undefined },
  }));
}

/** A value the test needs, or a failure saying what was missing. */
function found<T>(value: T | null | undefined, what: string): T {
  return value ?? expect.fail(`no ${what}`);
}

/** A file of a zip, whole. */
async function readZipEntry(file: string, path: (name: string) => boolean): Promise<Buffer> {
  const archive = await openExport(file, archiveLimits());
  const entry = found(
    [...archive.entries.values()].find((each) => path(each.path)),
    `entry in ${file}`,
  );
  return entry.read(archiveLimits().maxBytes);
}

/** A file of a site's upload store, whole. */
async function readStored(store: ImageStore, name: string): Promise<Buffer> {
  const file = found(await store.get(name), `upload ${name}`);
  const chunks: Buffer[] = [];
  for await (const chunk of file.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Each comment: its post, who signed it, its text and the comment it answers. */
async function commentsOf(site: Site) {
  const { rows } = await site.database.pool.query<{
    post: string;
    author: string;
    body: string;
    parent: string | null;
  }>(
    `SELECT p."slug" AS post, coalesce(c."guestName", u."name") AS author,
        trim(c."body") AS body, pc."body" AS parent
      FROM "comments" c JOIN "posts" p ON p."id" = c."postId"
        LEFT JOIN "users" u ON u."id" = c."userId"
        LEFT JOIN "comments" pc ON pc."id" = c."parentId"
      WHERE c."status" = 'visible' ORDER BY c."createdAt"`,
  );
  return rows.map((row) => ({ ...row, parent: row.parent?.trim() ?? null }));
}

/** The addresses the newsletter goes to that are members' (accounts). */
async function subscribersOf(site: Site): Promise<string[]> {
  const { rows } = await site.database.pool.query<{ email: string }>(
    `SELECT s."email" FROM "newsletter_subscribers" s
      WHERE s."state" = 'confirmed' AND EXISTS (SELECT 1 FROM "users" u WHERE u."email" = s."email")
      ORDER BY s."email"`,
  );
  return rows.map((row) => row.email);
}

/** Every address the desk's "Newsletter subscribers" filter lists, page after page. */
async function deskSubscribers(site: Site, owner: Member): Promise<string[]> {
  const emails: string[] = [];
  let after: string | null = null;
  do {
    const cursor: string = after ? `&after=${encodeURIComponent(after)}` : '';
    const answer = await site.call(
      owner,
      'GET',
      `/api/desk/members?filter=newsletter_subscribed${cursor}`,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const page = answer.json() as { members: { email: string | null }[]; next: string | null };
    emails.push(...page.members.map((member) => member.email ?? ''));
    after = page.next;
  } while (after);
  return emails.sort();
}

describe('a Cohort site exported as a Ghost zip and imported into a fresh site', () => {
  let a: Site;
  let b: Site;
  let owner: Member;
  let ownerB: Member;
  let folder: string;
  let zipFile: string;
  let imageUrl: string;
  let exported: { db: [{ data: Record<string, Record<string, unknown>[]>; cohort: unknown }] };

  const deps = (site: Site) => ({
    pool: site.database.pool,
    imageStore: site.app.imageStore,
    config: site.config,
    stripe: null,
    mail: site.app.mailer,
    schedule: site.app.postSchedule,
    fetchRemoteImages: false,
  });

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'cohort-round-trip-'));
    a = await withSite({
      env: {
        SITE_URL: 'https://leaving.example.org',
        STAFF_EMAILS: OWNER,
        UPLOADS_DIR: join(folder, 'a-uploads'),
      },
    });
    [owner] = await buildStaff(a, 'owner');
    const made = await a.call(owner, 'POST', '/api/desk/sections', {
      name: 'Field Notes',
      slug: 'field-notes',
      description: 'What we learnt on the ground.',
      inMenu: true,
    });
    expect(made.statusCode, made.body).toBe(201);
    // The sample's posts tagged "Getting Started" go to Field Notes, the others to Wealth.
    const sample = await runImport(
      {
        source: 'ghost',
        path: join(fixtures, 'ghost/v4_export.json'),
        section: 'Wealth',
        map: { 'Getting Started': 'Field Notes' },
      },
      deps(a),
    );
    expect(sample.posts.created).toBe(7);
    for (const file of [
      'members/ghost-members.csv',
      'members/fixtures_subscriber_emails.csv',
      'members/fixtures_signup_emails.csv',
    ]) {
      await runImport({ source: 'members', path: join(fixtures, file) }, deps(a));
    }

    const png = await sharp({
      create: { width: 320, height: 200, channels: 3, background: '#2a6f4e' },
    })
      .png()
      .toBuffer();
    imageUrl = (
      await storeImage(a.database.pool, a.app.imageStore, png, {
        fileName: 'garden.png',
        uploadedBy: owner.userId,
      })
    ).url;
    const captioned = await buildPost(a, {
      title: 'The Garden in June',
      category: 'Field Notes',
      tags: ['Gardens'],
      summary: 'Beans, finally.',
      body: `The beans came up at last.\n\n![Rows of beans on poles](${imageUrl} "The north beds, three weeks after planting")\n\nMore next month.\n`,
      featureImage: imageUrl,
      featureImageAlt: 'Rows of beans',
    });
    await buildPost(a, { kind: 'campaign', slug: 'fund-the-night-bus' });
    await buildPost(a, { kind: 'boycott', slug: 'skip-the-sale' });
    await buildPost(a, {
      kind: 'resources',
      category: 'Tenant rights',
      description: 'Where to go when the landlord will not listen.',
      resources: [1, 2, 3, 4].map((n) => ({
        id: n,
        title: `Advice line ${n}`,
        summary: `Free advice, number ${n}.`,
        link: `https://advice.example.org/${n}`,
      })),
    });
    // The privacy policy, edited here: a screen's text, which Ghost has no place for.
    await buildPost(a, {
      kind: 'page',
      slug: 'privacy',
      title: 'Privacy at the Association',
      description: 'What we keep about you, and why.',
      body: '## What we keep\n\nYour address, and nothing more.\n',
    });

    const commenter = await buildMember(a, { name: 'Rosa Park' });
    const first = await buildComment(a, { post: captioned, by: commenter, body: 'Lovely beans.' });
    await buildComment(a, {
      post: captioned,
      by: owner,
      parentId: first.id,
      body: 'Thank you, Rosa.',
    });
    await buildComment(a, { post: captioned, body: 'Hidden by staff.', status: 'hidden' });
    await withTransaction(a.database.pool, (tx) =>
      storeImportedComment(tx, {
        postId: captioned.id,
        sourceId: 'wordpress:https://old.example.org:7',
        parentSourceId: null,
        guestName: 'A passer-by',
        body: 'Came from the old site.',
        createdAt: new Date('2024-05-01T10:00:00Z'),
      }),
    );

    // The desk's download: a zip.
    const download = await a.app.inject({
      method: 'GET',
      url: '/api/desk/exports/ghost',
      headers: { cookie: owner.cookie },
    });
    expect(download.statusCode, download.body.slice(0, 200)).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(download.headers['content-disposition']).toMatch(
      /^attachment; filename="leaving\.example\.org-ghost-export-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    zipFile = join(folder, 'export.zip');
    await writeFile(zipFile, download.rawPayload);
    exported = JSON.parse(
      (await readZipEntry(zipFile, (path) => path.endsWith('.json'))).toString('utf8'),
    );

    b = await withSite({
      env: {
        SITE_URL: 'https://arriving.example.org',
        STAFF_EMAILS: OWNER,
        UPLOADS_DIR: join(folder, 'b-uploads'),
      },
    });
    [ownerB] = await buildStaff(b, 'owner');
  }, 180_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('writes the zip as Ghost does: the JSON, and the images it names under content/images', async () => {
    const archive = await openExport(zipFile, archiveLimits());
    const name = imageUrl.slice('/uploads/'.length);
    expect([...archive.entries.keys()].sort()).toEqual([
      `content/images/${name}`,
      expect.stringMatching(/^leaving\.example\.org-ghost-export-\d{4}-\d{2}-\d{2}\.json$/),
    ]);
    const inZip = await readZipEntry(zipFile, (path) => path === `content/images/${name}`);
    expect(inZip.equals(await readStored(a.app.imageStore, name))).toBe(true);

    const { posts = [], tags = [], posts_tags = [], comments = [] } = exported.db[0].data;
    const garden = found(
      posts.find((post) => post.slug === 'the-garden-in-june'),
      'exported garden post',
    );
    expect(garden.feature_image).toBe(`__GHOST_URL__/content/images/${name}`);
    expect(garden.html).toContain(
      `<figure class="kg-card kg-image-card"><img src="__GHOST_URL__/content/images/${name}" class="kg-image" alt="Rows of beans on poles"><figcaption>The north beds, three weeks after planting</figcaption></figure>`,
    );
    // Its section is its primary tag.
    const first = posts_tags.find((link) => link.post_id === garden.id && link.sort_order === 0);
    expect(tags.find((tag) => tag.id === first?.tag_id)).toMatchObject({
      name: 'Field Notes',
      slug: 'field-notes',
      description: 'What we learnt on the ground.',
    });
    // Ghost's comments shape: the member's thread and the guest's, not the hidden one's text.
    expect(comments.map((comment) => [comment.status, comment.html]).sort()).toEqual([
      ['hidden', '<p>Hidden by staff.</p>'],
      ['published', '<p>Came from the old site.</p>'],
      ['published', '<p>Lovely beans.</p>'],
      ['published', '<p>Thank you, Rosa.</p>'],
    ]);
    expect(exported.db[0].cohort).toMatchObject({
      version: 1,
      comments: [{ guest_name: 'A passer-by' }],
    });
  });

  it('reads the block only when it is one it knows: another version is Ghost’s words alone', () => {
    const text = JSON.stringify(exported);
    const known = readGhostJson(text);
    const campaign = found(
      known.posts.find((post) => post.slug === 'fund-the-night-bus'),
      'campaign',
    );
    expect(campaign.cohort).toMatchObject({ kind: 'campaign' });
    expect(known.sections?.map((section) => section.name)).toContain('Field Notes');
    const later = readGhostJson(text.replace('"cohort":{"version":1', '"cohort":{"version":2'));
    expect(later.posts.every((post) => post.cohort === undefined)).toBe(true);
    expect(later.sections).toBeUndefined();
    // Ghost's comments are read all the same; a guest's name only from the block.
    expect(later.comments).toBe(3);
    expect(
      later.posts.flatMap((post) => post.approvedComments ?? []).map((c) => c.authorName),
    ).toContain('A member');
  });

  it('the command writes the same zip to a .zip file', async () => {
    const file = join(folder, 'site.zip');
    const result = await runCommand(exportMain, ['ghost', file], {
      DATABASE_URL: a.testDatabase.url,
      SITE_URL: 'https://leaving.example.org',
      STAFF_EMAILS: OWNER,
      UPLOADS_DIR: join(folder, 'a-uploads'),
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('written as a Ghost export, with its images');
    const archive = await openExport(file, archiveLimits());
    expect([...archive.entries.keys()].sort()).toEqual([
      `content/images/${imageUrl.slice('/uploads/'.length)}`,
      'site.json',
    ]);
    const again = JSON.parse(
      (await readZipEntry(file, (path) => path === 'site.json')).toString('utf8'),
    );
    expect(again.db[0].data.posts).toHaveLength(exported.db[0].data.posts?.length ?? -1);
  });

  it('imported into a fresh site, gives back the posts in their sections and kinds, the caption, the image, the pages, the comments and the subscribers', async () => {
    const report = await importIntoSite(b, zipFile, { fetchRemoteImages: false });
    expect(report.images.stored).toBe(1);
    expect(report.notes).toContain('Sections made, as the Cohort export had them: Field Notes');

    // The same posts, kinds, sections, topics, fields and text.
    expect(await postsOf(b)).toEqual(await postsOf(a));
    const kinds = (await postsOf(b)).map((post) => post.kind);
    for (const kind of ['article', 'campaign', 'boycott', 'resources', 'page']) {
      expect(kinds).toContain(kind);
    }
    const { rows: sections } = await b.database.pool.query(
      `SELECT "name", "slug", "description" FROM "sections" WHERE "slug" = 'field-notes'`,
    );
    expect(sections).toEqual([
      { name: 'Field Notes', slug: 'field-notes', description: 'What we learnt on the ground.' },
    ]);

    // The caption, and the image served from the new site with its bytes.
    const { rows } = await b.database.pool.query<{ body: string; featureImage: string }>(
      `SELECT "body", "featureImage" FROM "posts" WHERE "slug" = 'the-garden-in-june'`,
    );
    const garden = found(rows[0], 'imported garden post');
    const image = found(
      /!\[Rows of beans on poles\]\((\/uploads\/[^ )]+) "The north beds, three weeks after planting"\)/.exec(
        garden.body,
      )?.[1],
      `captioned image in ${garden.body}`,
    );
    const served = await b.app.inject({ method: 'GET', url: image });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    const stored = await readStored(b.app.imageStore, image.slice('/uploads/'.length));
    expect(served.rawPayload.equals(stored)).toBe(true);
    const pixels = await sharp(served.rawPayload).metadata();
    expect([pixels.width, pixels.height]).toEqual([320, 200]);
    expect(parseUploadUrl(image)).toMatchObject({ width: 320, height: 200 });
    expect(garden.featureImage).toBe(image);

    // The pages, the policy among them, drawn by the site.
    const privacy = await b.database.pool.query(
      `SELECT "title", "body", "sample" FROM "posts" WHERE "kind" = 'page' AND "slug" = 'privacy'`,
    );
    expect(privacy.rows).toEqual([
      {
        title: 'Privacy at the Association',
        body: '## What we keep\n\nYour address, and nothing more.',
        sample: false,
      },
    ]);

    // The comments, in their thread, by their names.
    expect(await commentsOf(b)).toEqual(
      expect.arrayContaining([
        {
          post: 'the-garden-in-june',
          author: 'A passer-by',
          body: 'Came from the old site.',
          parent: null,
        },
        { post: 'the-garden-in-june', author: 'Rosa Park', body: 'Lovely beans.', parent: null },
        expect.objectContaining({ body: 'Thank you, Rosa.', parent: 'Lovely beans.' }),
      ]),
    );
    expect((await commentsOf(b)).map((comment) => comment.body)).not.toContain('Hidden by staff.');
    expect(report.comments.imported).toBe(3);

    // Every subscriber still subscribed, and the desk's filter lists them.
    const subscribers = await subscribersOf(a);
    expect(subscribers.length).toBeGreaterThanOrEqual(19);
    expect(await subscribersOf(b)).toEqual(subscribers);
    expect(await deskSubscribers(b, ownerB)).toEqual(subscribers);

    // Again: nothing changes.
    const before = await postsOf(b);
    const again = await importIntoSite(b, zipFile, { fetchRemoteImages: false });
    expect(again.posts).toMatchObject({ created: 0, updated: 0 });
    expect(await postsOf(b)).toEqual(before);
  });
});

import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, expect } from 'vitest';
import { seedMember, seedStaff, type SeededMember } from '#test/members';
import { SmtpCapture } from '#test/smtp-capture';
import { createTestApp, type TestApp } from '#test/test-app';
import { madeLater } from '#test/made-later';
import { clientDistDir, ssrDistDir } from '../../server/src/paths.js';

// The site the desk's posts tests (server/src/routes/desk/posts-*.test.ts) run against: the real
// app, its renderer and PostgreSQL, an owner, an editor and a writer (and a reader who is no
// staff), a mailbox for what the desk sends, and the calls those tests make.

export const OWNER = 'owner@example.com';
export const EDITOR = 'editor@example.com';
export const WRITER = 'writer@example.com';
export const SITE = 'https://members.example.org';

/** An article's fields, whole: what publishing it needs. */
export const ARTICLE = {
  kind: 'article',
  title: 'Renting Your First Flat',
  category: 'Wealth',
  summary: 'Deposits, inventories and what a landlord may not ask for.',
  readingMinutes: 4,
  body: '## Before you sign\n\nRead the whole lease, then read it again.\n',
};

/** An uploaded image's address, as the desk's Upload image gives it (contract/images.ts). */
export const UPLOADED_IMAGE = '/uploads/k3ys0nawoodentab1e00-1200x800.webp';

/**
 * Starts the site before the calling describe's tests and stops it after them. Everything it
 * answers can be named at once; its app, mailbox and members are made by this `beforeAll` (the describe's
 * first), and stand in until then (`madeLater`), so the tests use them.
 */
export function useDeskPostsSite() {
  const [mailbox, makeMailbox, madeMailbox] = madeLater<SmtpCapture>(
    'The desk posts site’s mailbox',
  );
  const [t, makeT, madeT] = madeLater<TestApp>('The desk posts site');
  const [owner, makeOwner] = madeLater<SeededMember>('The owner');
  const [editor, makeEditor] = madeLater<SeededMember>('The editor');
  const [writer, makeWriter] = madeLater<SeededMember>('The writer');
  const [reader, makeReader] = madeLater<SeededMember>('The reader');

  const call = (
    who: SeededMember | null,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url,
      headers: who ? { cookie: who.cookie } : {},
      ...(payload !== undefined && { payload }),
    });
  const page = (url: string) => t.app.inject({ method: 'GET', url });
  const feedLinks = async (url: string) => {
    const parsed = new XMLParser({ isArray: (name) => name === 'item' }).parse(
      (await page(url)).body,
    ) as {
      rss: { channel: { item?: { link: string }[] } };
    };
    return (parsed.rss.channel.item ?? []).map((item) => item.link);
  };
  const sitemap = async () => (await page('/sitemap.xml')).body;
  const postCount = async () =>
    Number((await t.database.pool.query('SELECT count(*) FROM posts')).rows[0].count);

  /** A new post by the owner, published: its JSON. */
  async function published(changes: object = {}) {
    const created = await call(owner, 'POST', '/api/desk/posts', { ...ARTICLE, ...changes });
    expect(created.statusCode, created.body).toBe(201);
    const { post } = created.json();
    const done = await call(owner, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version,
    });
    expect(done.statusCode, done.body).toBe(200);
    return done.json().post;
  }

  beforeAll(async () => {
    makeMailbox(await new SmtpCapture().start());
    makeT(
      await createTestApp({
        clientDir: clientDistDir,
        ssrDir: ssrDistDir,
        env: {
          SITE_URL: SITE,
          STAFF_EMAILS: OWNER,
          EDITOR_EMAILS: EDITOR,
          WRITER_EMAILS: WRITER,
          SMTP_URL: mailbox.url,
        },
      }),
    );
    const staff = await seedStaff(t, 'owner', 'editor', 'writer');
    makeOwner(staff[0]);
    makeEditor(staff[1]);
    makeWriter(staff[2]);
    makeReader(await seedMember(t, { email: 'reader@example.com' }));
  });
  afterAll(async () => {
    await madeT()?.close();
    await madeMailbox()?.stop();
  });

  return {
    t,
    mailbox,
    owner,
    editor,
    writer,
    reader,
    call,
    page,
    feedLinks,
    sitemap,
    postCount,
    published,
  };
}

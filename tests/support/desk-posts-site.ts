import { XMLParser } from 'fast-xml-parser';
import { beforeAll } from 'vitest';
import { buildMember, buildPost, buildStaff, type Member } from '#test/factories';
import type { SmtpCapture } from '#test/smtp-capture';
import { madeLater } from '#test/made-later';
import { useSite, type Site } from '#test/with-site';
import { sample } from '#test/migration-samples';
import { readContentGeneration } from '../../server/src/content/content-changes.js';
import { runImport, type ImportDeps } from '../../server/src/imports/run-import.js';
import type { ImportSource } from '../../server/src/imports/source.js';
import { createMailer } from '../../server/src/mail/mailer.js';
import { openImageStore } from '../../server/src/uploads/image-store.js';

// The site the desk's posts tests (server/src/routes/desk/posts-*.test.ts) run against: the real
// app, its renderer and PostgreSQL, an owner, an editor and a writer (and a reader who is no
// staff), a mailbox for what the desk sends, and the calls those tests make.

export const OWNER = 'owner@example.com';
export const EDITOR = 'editor@example.com';
export const WRITER = 'writer@example.com';
export const SITE = 'https://members.example.org';

/** An article's fields, whole: what publishing it needs. */
export const ARTICLE = {
  kind: 'article' as const,
  title: 'Renting Your First Flat',
  category: 'Wealth',
  summary: 'Deposits, inventories and what a landlord may not ask for.',
  readingMinutes: 4,
  body: '## Before you sign\n\nRead the whole lease, then read it again.\n',
};

/** An uploaded image's address, as the desk's Upload image gives it (contract/images.ts). */
export const UPLOADED_IMAGE = '/uploads/k3ys0nawoodentab1e00-1200x800.webp';

/**
 * Starts the site before the calling describe's tests and stops it after them (`useSite`).
 * Everything it answers can be named at once; its app, mailbox and members are made by the
 * describe's first `beforeAll` hooks, and stand in until then (`madeLater`), so the tests use them.
 */
export function useDeskPostsSite() {
  const t = useSite({
    built: true,
    mail: true,
    env: { SITE_URL: SITE, STAFF_EMAILS: OWNER, EDITOR_EMAILS: EDITOR, WRITER_EMAILS: WRITER },
  });
  const [mailbox, makeMailbox] = madeLater<SmtpCapture>('The desk posts site’s mailbox');
  const [owner, makeOwner] = madeLater<Member>('The owner');
  const [editor, makeEditor] = madeLater<Member>('The editor');
  const [writer, makeWriter] = madeLater<Member>('The writer');
  const [reader, makeReader] = madeLater<Member>('The reader');

  const call: Site['call'] = (...args) => t.call(...args);
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
  const published = (changes: object = {}) => buildPost(t, { ...ARTICLE, ...changes, by: owner });

  /** What the importer runs with here: this site's database, store and settings, no remote fetch. */
  const importDeps = (): ImportDeps => ({
    pool: t.database.pool,
    imageStore: openImageStore(t.config.uploads),
    config: t.config,
    stripe: null,
    mail: createMailer({ smtpUrl: undefined, from: t.config.mailFrom, log: { info: () => {} } }),
    fetchRemoteImages: false,
  });
  /** Imports a real export (../shared/migration-samples), then lets the site draw what it wrote. */
  const importSample = async (source: ImportSource, path: string) => {
    const report = await runImport({ source, path: sample(path) }, importDeps());
    await t.app.siteContent.waitFor(await readContentGeneration(t.database.pool));
    return report;
  };

  beforeAll(async () => {
    makeMailbox(t.mailbox);
    const staff = await buildStaff(t, 'owner', 'editor', 'writer');
    makeOwner(staff[0]);
    makeEditor(staff[1]);
    makeWriter(staff[2]);
    makeReader(await buildMember(t, { email: 'reader@example.com' }));
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
    importDeps,
    importSample,
  };
}

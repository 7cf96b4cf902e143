import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember } from '#test/factories';
import { SmtpCapture } from '#test/smtp-capture';
import { withSite, type Site } from '#test/with-site';
import { newVisitor } from '#test/visitor';
import { keepMail, MAILBOX_SIZE } from '../../mail/mailbox.js';

// The desk's mailbox: without an SMTP server, every mail the site would have sent is kept in the
// database and shown to owners (GET /api/desk/mailbox, /desk/mailbox), newest first; with one,
// and in production, there is no mailbox.

const STAFF = { STAFF_EMAILS: 'owner@example.com', EDITOR_EMAILS: 'editor@example.com' };
const WRITER = { WRITER_EMAILS: 'writer@example.com' };

interface MailJson {
  to: string;
  subject: string;
  text: string;
  html: string | null;
  at: string;
}

const get = (t: Site, cookie: string, url: string) =>
  t.app.inject({ method: 'GET', url, headers: { cookie } });

async function readMails(t: Site, cookie: string): Promise<MailJson[]> {
  const response = await get(t, cookie, '/api/desk/mailbox');
  expect(response.statusCode, response.body).toBe(200);
  return response.json().mails;
}

/** A newsletter draft of the owner's, and its test copy sent to them. */
async function sendTestCopy(t: Site, cookie: string, title: string) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/desk/posts',
    headers: { cookie },
    payload: {
      kind: 'newsletter',
      title,
      summary: 'A letter for the mailbox.',
      body: `## ${title}\n\nThe words of **${title}**.\n`,
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  return t.app.inject({
    method: 'POST',
    url: `/api/desk/posts/${created.json().post.id}/newsletter/test`,
    headers: { cookie },
    payload: {},
  });
}

describe('the desk’s mailbox while mail goes to the log', () => {
  let t: Site;
  let owner: string;
  let editor: string;
  let writer: string;

  beforeAll(async () => {
    t = await withSite({ env: { ...STAFF, ...WRITER, MAIL_TRANSPORT: 'log' } });
    [{ cookie: owner }, { cookie: editor }, { cookie: writer }] = await Promise.all([
      buildMember(t, { role: 'owner' }),
      buildMember(t, { role: 'editor' }),
      buildMember(t, { role: 'writer' }),
    ]);
  });
  afterAll(async () => t?.close());

  it('shows an owner every mail the site would have sent, newest first, HTML and text', async () => {
    expect((await get(t, owner, '/api/desk/me')).json()).toMatchObject({ mailbox: true });
    const sent = await sendTestCopy(t, owner, 'The Mailbox Letter');
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().message).toContain("in the desk's Mailbox");

    // A plain-text mail: a visitor registering is mailed a link.
    const visitor = await newVisitor(t.app);
    const registered = await visitor.request({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'reader@example.org', password: 'a long enough password 42' },
    });
    expect(registered.statusCode, registered.body).toBe(202);
    const until = Date.now() + 10_000;
    let mails = await readMails(t, owner);
    while (mails.length < 2 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      mails = await readMails(t, owner);
    }

    expect(mails.map((mail) => mail.to)).toEqual(['reader@example.org', 'owner@example.com']);
    const [signUp, letter] = mails;
    expect(signUp?.html).toBeNull();
    expect(signUp?.text).toMatch(/http:\/\/localhost:3000\//);
    expect(letter?.subject).toBe('[Test] The Mailbox Letter');
    expect(letter?.html).toContain('<strong>The Mailbox Letter</strong>');
    expect(letter?.text).toContain('The words of');
    expect(Date.parse(letter?.at ?? '')).toBeLessThanOrEqual(Date.parse(signUp?.at ?? ''));
    expect(Date.now() - Date.parse(signUp?.at ?? '')).toBeLessThan(60_000);
  });

  it('is for owners: editors and writers are refused, anyone else finds nothing there', async () => {
    for (const cookie of [editor, writer]) {
      const refused = await get(t, cookie, '/api/desk/mailbox');
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: { code: 'owners_only' } });
    }
    const member = await buildMember(t);
    expect((await get(t, member.cookie, '/api/desk/mailbox')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/desk/mailbox' })).statusCode).toBe(404);
  });

  it('is the same on another app server of the site, and after a restart', async () => {
    const other = await withSite({
      env: { ...STAFF, MAIL_TRANSPORT: 'log' },
      sharedDatabase: t.testDatabase,
    });
    try {
      const subjects = (await readMails(other, owner)).map((mail) => mail.subject);
      expect(subjects).toContain('[Test] The Mailbox Letter');
    } finally {
      await other.close();
    }
  });

  it(`keeps the latest ${MAILBOX_SIZE} mails and lets the oldest go`, async () => {
    for (let n = 1; n <= MAILBOX_SIZE + 5; n += 1) {
      await keepMail(t.database.pool, { to: 'many@example.org', subject: `Mail ${n}`, text: '' });
    }
    const mails = await readMails(t, owner);
    expect(mails).toHaveLength(MAILBOX_SIZE);
    expect(mails[0]?.subject).toBe(`Mail ${MAILBOX_SIZE + 5}`);
    expect(mails.at(-1)?.subject).toBe('Mail 6');
    const { rows } = await t.database.pool.query<{ count: string }>(
      `SELECT count(*) FROM "logged_mails"`,
    );
    expect(Number(rows[0]?.count)).toBe(MAILBOX_SIZE);
  });
});

describe('no mailbox', () => {
  it('when mail goes to an SMTP server: 404, and the desk does not offer it', async () => {
    const smtp = await new SmtpCapture().start();
    const t = await withSite({ env: { ...STAFF, SMTP_URL: smtp.url } });
    try {
      const { cookie } = await buildMember(t, { role: 'owner' });
      expect((await get(t, cookie, '/api/desk/me')).json()).toMatchObject({ mailbox: false });
      expect((await sendTestCopy(t, cookie, 'Mailed For Real')).statusCode).toBe(200);
      const missing = await get(t, cookie, '/api/desk/mailbox');
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ error: { code: 'not_found' } });
      const { rows } = await t.database.pool.query(`SELECT 1 FROM "logged_mails"`);
      expect(rows).toHaveLength(0);
    } finally {
      await t.close();
      await smtp.stop();
    }
  });

  it('in production, even with MAIL_TRANSPORT=log: mail is only logged, nothing is kept', async () => {
    const t = await withSite({
      env: {
        ...STAFF,
        NODE_ENV: 'production',
        MAIL_TRANSPORT: 'log',
        SITE_URL: 'https://news.example.org',
        DATABASE_URL: 'postgresql://unused@127.0.0.1/unused',
      },
    });
    try {
      const { cookie } = await buildMember(t, { role: 'owner' });
      expect((await get(t, cookie, '/api/desk/me')).json()).toMatchObject({ mailbox: false });
      const sent = await sendTestCopy(t, cookie, 'Logged In Production');
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json().message).toContain("printed to the server's log");
      expect((await get(t, cookie, '/api/desk/mailbox')).statusCode).toBe(404);
      const { rows } = await t.database.pool.query(`SELECT 1 FROM "logged_mails"`);
      expect(rows).toHaveLength(0);
    } finally {
      await t.close();
    }
  });
});
